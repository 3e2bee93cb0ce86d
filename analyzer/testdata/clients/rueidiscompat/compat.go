// Package rueidiscompat uses rueidis through its go-redis shaped adapter.
//
// Reduced from rueidiscompat's README (NewAdapter over a rueidis client,
// then go-redis's methods), written anew: each cross-slot form is followed
// by its hashtagged fix.
package rueidiscompat

import (
	"context"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

func f(ctx context.Context, client rueidis.Client) {
	c := rueidiscompat.NewAdapter(client)
	c.Rename(ctx, "tmp:user:123:cache", "user:123:cache") // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	c.Rename(ctx, "tmp:{user:123}:cache", "{user:123}:cache")
	c.MGet(ctx, "cart:1", "cart:2") // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	c.MGet(ctx, "cart:{1}:items", "cart:{1}:total")
	c.TxPipelined(ctx, func(pipe rueidiscompat.Pipeliner) error { // want `MULTI/EXEC transaction keys "counter:a" .* and "counter:b" .* hash to different slots`
		pipe.Incr(ctx, "counter:a")
		pipe.Incr(ctx, "counter:b")
		return nil
	})
	c.TxPipelined(ctx, func(pipe rueidiscompat.Pipeliner) error {
		pipe.Incr(ctx, "counter:{c}:a")
		pipe.Incr(ctx, "counter:{c}:b")
		return nil
	})
	c.Eval(ctx, "redis.call('SET', 'audit:last', ARGV[1]) return redis.call('GET', KEYS[1])", []string{"job:1"}, "x") // want `.*"audit:last".* not declared in KEYS`
	c.Eval(ctx, "return redis.call('GET', KEYS[1])", []string{"job:1"}, "x")
}
