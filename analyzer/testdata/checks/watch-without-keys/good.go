package watchwithoutkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The key the function writes is watched.
func reserveGood(ctx context.Context, rdb redis.UniversalClient, item string) error {
	key := "stock:{" + item + "}"
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, key)
			return nil
		})
		return err
	}, key)
}
