package pooledtransaction

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Watch holds one connection from WATCH to EXEC.
func withdraw(ctx context.Context, rdb *redis.Client) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		bal, err := tx.Get(ctx, "{wallet}:1").Int()
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "{wallet}:1", bal-30, 0)
			return nil
		})
		return err
	}, "{wallet}:1")
}
