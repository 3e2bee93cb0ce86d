// Package watchwithoutkeys shows the watch-without-keys check.
package watchwithoutkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The function reads and writes the stock, but Watch is given no keys: a
// cluster client refuses the call and never runs the function.
func reserveBad(ctx context.Context, rdb redis.UniversalClient, item string) error {
	key := "stock:{" + item + "}"
	return rdb.Watch(ctx, func(tx *redis.Tx) error { // want `Watch on rdb, a client that may be a cluster, is given no keys: a cluster client refuses it \("redis: Watch requires at least one key"\) and never runs the function; pass the keys the function reads and writes, under one hashtag`
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, key)
			return nil
		})
		return err
	})
}
