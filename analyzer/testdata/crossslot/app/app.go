// Package app uses key helpers from another package.
package app

import (
	"context"

	"github.com/redis/go-redis/v9"
	"slotlint.test/crossslot/keys"
)

func reserve(ctx context.Context, rdb *redis.Client, sku string, id int) {
	rdb.SMove(ctx, keys.Inventory.Key(sku), keys.Order(sku, id), "item")
	rdb.Rename(ctx, keys.TmpCache(sku), keys.Cache(sku)) // want `RENAME keys "tmp:shop:user:<sku>:cache" \(hashtag unknown\) and "shop:user:<sku>:cache" \(hashtag unknown\) may hash to different slots; .*"\{shop:user:<sku>\}"`
	rdb.Rename(ctx, keys.Order(sku, id), keys.Order(sku, id+1))
}
