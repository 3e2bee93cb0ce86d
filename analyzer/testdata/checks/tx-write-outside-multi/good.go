package txwriteoutsidemulti

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Every write is queued in the transaction's MULTI/EXEC.
func reserve(ctx context.Context, rdb *redis.Client, stock, status string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, stock)
			pipe.Set(ctx, status, "reserved", 0)
			return nil
		})
		return err
	}, stock, status)
}
