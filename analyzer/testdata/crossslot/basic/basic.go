// Package basic holds multi-key commands with literal keys.
package basic

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func shadowSwap(ctx context.Context, rdb *redis.Client) {
	rdb.Set(ctx, "tmp:user:123:cache", "v", 0)
	rdb.Rename(ctx, "tmp:user:123:cache", "user:123:cache") // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots; give them a common hashtag such as "\{user:123\}"`
	rdb.Rename(ctx, "tmp:{user:123}:cache", "{user:123}:cache")
}

// multi sends on a client of one node, which splits no command: MGET,
// UNLINK and MSET of keys in several slots fail there (on a ClusterClient
// too, unless the application installs go-redis's resolver that reads
// Redis's command tips; see packages realworld/split and splitresolver).
func multi(ctx context.Context, rdb *redis.Client) {
	rdb.MGet(ctx, "a", "b") // want `MGET keys "a" \(slot 15495\) and "b" \(slot 3300\) hash to different slots`
	rdb.Del(ctx, "{u1}:a", "{u1}:b", "{u1}:c")
	rdb.Exists(ctx, "ingress", "{ingress}_x")
	rdb.Unlink(ctx, "{u1}:a", "{u2}:b") // want `UNLINK keys "\{u1\}:a" \(slot \d+\) and "\{u2\}:b" \(slot \d+\) hash to different slots; give them a common hashtag such as "\{u1\}"`
	rdb.MSet(ctx, "{u}:a", 1, "{u}:b", 2)
	rdb.MSet(ctx, "a", 1, "b", 2)                         // want `MSET keys "a" .* and "b" .* hash to different slots`
	rdb.LMove(ctx, "queue:a", "queue:b", "LEFT", "RIGHT") // want `LMOVE keys "queue:a" .* and "queue:b" .* hash to different slots`
	rdb.SMove(ctx, "{s}:a", "{s}:b", "m")
	rdb.RPopLPush(ctx, "emq:{orders}:pending", "emq:{orders}:active")
	rdb.SInterStore(ctx, "out", "{x}a", "{x}b") // want `SINTERSTORE keys "out" .* and "\{x\}a" .* hash to different slots`
	rdb.PFMerge(ctx, "{hll}:all", "{hll}:a", "{hll}:b")
	rdb.BLPop(ctx, 0, "q1", "q2") // want `BLPOP keys "q1" .* and "q2" .* hash to different slots`
	rdb.LMPop(ctx, "left", 1, "{q}1", "{q}2")
	rdb.BitOpAnd(ctx, "dest", "src1", "src2") // want `BITOP keys "dest" .* and "src1" .* hash to different slots`
}

func stores(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.ZInterStore(ctx, "{z}:out", &redis.ZStore{Keys: []string{"{z}:a", "{z}:b"}})
	rdb.ZUnionStore(ctx, "{z}:out", &redis.ZStore{Keys: []string{"{z}:a", "zb"}}) // want `ZUNIONSTORE keys "\{z\}:out" .* and "zb" .* hash to different slots`
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"{s}:1", "{s}:2", "0", "0"}})
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"s1", "s2", "0", "0"}}) // want `XREAD keys "s1" .* and "s2" .* hash to different slots`
	rdb.Copy(ctx, "{c}:a", "{c}:b", 0, false)
	rdb.Copy(ctx, "{c}:a", "{c}:b", 2, false)                                                                   // want `COPY to db 2 fails on Redis Cluster, which has only db 0`
	rdb.SortStore(ctx, "{l}:list", "{l}:out", &redis.Sort{By: "weight_*"})                                      // want `SORT with BY "weight_\*" fails on Redis Cluster: in cluster mode Redis 7.0 refuses GET, and BY with a '\*' pattern`
	rdb.SortStore(ctx, "{l}:list", "{l}:out", &redis.Sort{By: "{l}:weight_*", Get: []string{"#", "{l}:obj_*"}}) // want `SORT with BY "\{l\}:weight_\*", GET "#", GET "\{l\}:obj_\*" fails on Redis Cluster`
	rdb.SortStore(ctx, "{l}:list", "{l}:out", &redis.Sort{By: "nosort", Order: "DESC"})
}

// Not flagged: one key with many fields, and plain pipelines.
func clean(ctx context.Context, rdb *redis.Client) {
	rdb.HSet(ctx, "user:1", "name", "a", "email", "b")
	rdb.HMGet(ctx, "user:1", "name", "email")
	rdb.ZAdd(ctx, "z", redis.Z{Score: 1, Member: "other:key"})
	pipe := rdb.Pipeline()
	pipe.Get(ctx, "a")
	pipe.Get(ctx, "b")
	pipe.Exec(ctx)
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "a")
		p.Incr(ctx, "b")
		p.MGet(ctx, "a", "b") // want `MGET keys "a" .* and "b" .* hash to different slots`
		return nil
	})
}

// scriptExists calls Script.Exists, a method that shares its name with
// Cmdable's EXISTS and not its parameters: the rule of Exists does not
// describe it, and no fault of the rules comes of it (go-redis's own
// script tests call it so).
func scriptExists(ctx context.Context, rdb *redis.ClusterClient) {
	redis.NewScript("return 1").Exists(ctx, rdb)
}
