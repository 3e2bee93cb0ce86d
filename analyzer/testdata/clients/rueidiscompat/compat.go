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

// The adapter's JSONMSetArgs, TSMAdd and CMSMergeWithWeight take their keys
// as go-redis's do: a field of each element, the first element of each row,
// the keys of a map.
func elems(ctx context.Context, client rueidis.Client) {
	c := rueidiscompat.NewAdapter(client)
	c.JSONMSetArgs(ctx, []rueidiscompat.JSONSetArgs{{Key: "doc:1", Path: "$", Value: 1}, {Key: "doc:2", Path: "$", Value: 2}}) // want `JSON.MSET keys "doc:1" .* and "doc:2" .* hash to different slots`
	c.JSONMSetArgs(ctx, []rueidiscompat.JSONSetArgs{{Key: "doc:{1}", Path: "$", Value: 1}, {Key: "doc:{1}:b", Path: "$", Value: 2}})
	c.TSMAdd(ctx, [][]interface{}{{"temp:a", 1, 1.0}, {"temp:b", 1, 2.0}}) // want `TS.MADD keys "temp:a" .* and "temp:b" .* hash to different slots`
	c.TSMAdd(ctx, [][]interface{}{{"temp:{x}:a", 1, 1.0}, {"temp:{x}:b", 1, 2.0}})
	c.CMSMergeWithWeight(ctx, "cms:all", map[string]int64{"cms:a": 1}) // want `CMS.MERGE keys "cms:all" .* and "cms:a" .* hash to different slots`
	c.CMSMergeWithWeight(ctx, "cms:{w}:all", map[string]int64{"cms:{w}:a": 1, "cms:{w}:b": 2})
}
