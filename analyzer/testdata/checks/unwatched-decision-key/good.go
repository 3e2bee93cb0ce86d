package unwatcheddecisionkey

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Watch the stock too, and UNWATCH when giving up early.
func reserve(ctx context.Context, rdb *redis.Client, stock, status string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		if n <= 0 {
			tx.Unwatch(ctx)
			return errSoldOut
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, stock)
			pipe.Set(ctx, status, "reserved", 0)
			return nil
		})
		return err
	}, stock, status)
}
