package crossslot

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Both keys hash "user:123".
func swapGood(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Rename(ctx, "tmp:{user:123}:cache", "{user:123}:cache")
}

// Both keys hash "sku123".
func reserveGood(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, "inventory:{sku123}")
			pipe.Set(ctx, "order:{sku123}:456", "reserved", 0)
			return nil
		})
		return err
	}, "inventory:{sku123}")
}
