package readoutsidewatch

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Read inside the function, on the *redis.Tx, so that each retry reads again.
func withdraw(ctx context.Context, rdb *redis.Client) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		bal, err := tx.Get(ctx, "balance:1").Int()
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "balance:1", bal-30, 0)
			return nil
		})
		return err
	}, "balance:1")
}
