package watchinmulti

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Watch sends WATCH first, then the function queues the writes in MULTI/EXEC.
func reserve(ctx context.Context, rdb *redis.Client, stock string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, stock)
			return nil
		})
		return err
	}, stock)
}
