// Package raw sends commands through Do.
package raw

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func f(ctx context.Context, rdb *redis.Client, n int) {
	rdb.Do(ctx, "RENAME", "tmp:user:123:cache", "user:123:cache") // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	rdb.Do(ctx, "mget", "{a}1", "{a}2")
	rdb.Do(ctx, "set", "a", "b")
	rdb.Do(ctx, "EVAL", "return redis.call('SMOVE', KEYS[1], KEYS[2], ARGV[1])", 2, "x", "y", "arg") // want `EVAL keys "x" .* and "y" .* hash to different slots`
	rdb.Do(ctx, "XREAD", "COUNT", 1, "STREAMS", "s1", "s2", "0", "0")                                // want `XREAD keys "s1" .* and "s2" .* hash to different slots`
	rdb.Do(ctx, "OBJECT", "ENCODING", "a")
}

// Commands built as values and sent by Process, or by a function value
// that takes a redis.Cmder (a hook's next, a project's cmdable type).
type cmdable func(ctx context.Context, cmd redis.Cmder) error

func values(ctx context.Context, rdb *redis.ClusterClient, send cmdable, next redis.ProcessHook) {
	rdb.Process(ctx, redis.NewStatusCmd(ctx, "RENAME", "tmp:user:123:cache", "user:123:cache")) // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	rdb.Process(ctx, redis.NewStatusCmd(ctx, "RENAME", "{user:123}:tmp", "{user:123}:cache"))
	mget := redis.NewSliceCmd(ctx, "MGET", "a", "b") // want `MGET keys "a" .* and "b" .* hash to different slots`
	_ = send(ctx, mget)
	del := redis.NewIntCmd(ctx, "DEL", "a", "b") // want `DEL keys "a" .* and "b" .* hash to different slots`
	_ = next(ctx, del)
	// Built and never sent: not checked.
	unsent := redis.NewIntCmd(ctx, "DEL", "a", "b")
	unsent.SetVal(2)
}
