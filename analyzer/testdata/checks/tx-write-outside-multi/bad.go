// Package txwriteoutsidemulti shows the tx-write-outside-multi check.
package txwriteoutsidemulti

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// DECR runs at once: if EXEC fails, the stock stays decremented.
func reserveBad(ctx context.Context, rdb *redis.Client, stock, status string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Decr(ctx, stock) // want `DECR "<stock>" runs at once on the \*redis.Tx of Watch on "<stock>", "<status>", outside MULTI/EXEC`
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, status, "reserved", 0)
			return nil
		})
		return err
	}, stock, status)
}
