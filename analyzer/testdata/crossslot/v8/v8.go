// Package v8 uses go-redis v8.
package v8

import (
	"context"

	"github.com/go-redis/redis/v8"
)

func f(ctx context.Context, rdb *redis.Client) {
	rdb.Rename(ctx, "tmp:user:123:cache", "user:123:cache") // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	rdb.MGet(ctx, "{u}a", "{u}b")
	rdb.Eval(ctx, "return redis.call('RENAME', KEYS[1], KEYS[2])", []string{"a", "b"}) // want `EVAL keys "a" .* and "b" .* hash to different slots`
}
