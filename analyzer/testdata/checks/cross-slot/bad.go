// Package crossslot shows the cross-slot check.
package crossslot

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The shadow-key swap: build the new value under a temporary key, then
// RENAME it over the live one.
func swapBad(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Rename(ctx, "tmp:user:123:cache", "user:123:cache") // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots; give them a common hashtag such as "\{user:123\}"`
}

// A transaction counts every key it touches, watched or queued.
func reserveBad(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "inventory:sku123" \(slot 5242\) and "order:456:status" \(slot 9813\) hash to different slots`
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, "inventory:sku123")
			pipe.Set(ctx, "order:456:status", "reserved", 0)
			return nil
		})
		return err
	}, "inventory:sku123")
}
