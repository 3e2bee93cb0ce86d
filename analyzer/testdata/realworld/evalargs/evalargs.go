// Package evalargs is a rate limiter that runs its scripts through an
// interface of its own (package adapters), implemented over redigo.
package evalargs

import (
	"context"

	"github.com/gomodule/redigo/redis"
	"slotlint.test/realworld/evalargs/adapters"
	"slotlint.test/realworld/evalargs/redigoadapter"
)

// Origin: aidenwallis/go-ratelimiting (redis/leaky_bucket.go): the leaky
// bucket keeps its tokens and the time of its last fill in two keys of
// the bucket's prefix, read and written by one script.
const leakyBucket = `
local tokens = tonumber(redis.call("GET", KEYS[1]))
local lastFilled = tonumber(redis.call("GET", KEYS[2]))
redis.call("SET", KEYS[1], ARGV[1])
redis.call("SET", KEYS[2], ARGV[2])
return {tokens, lastFilled}
`

type Limiter struct {
	Adapter adapters.Adapter
}

func NewRedigo(conn redis.Conn) *Limiter {
	return &Limiter{Adapter: redigoadapter.New(conn)}
}

func (l *Limiter) Use(ctx context.Context, prefix string, capacity, now int) (interface{}, error) {
	return l.Adapter.Eval(ctx, leakyBucket, []string{prefix + "::tokens", prefix + "::last_fill"}, []interface{}{capacity, now}) // want `EVAL \(through Eval at adapter.go:\d+\) keys "<prefix>::tokens" \(hashtag unknown\) and "<prefix>::last_fill" \(hashtag unknown\) may hash to different slots`
}

func UseInline(ctx context.Context, a *redigoadapter.Adapter, capacity, now int) (interface{}, error) {
	return a.EvalInline(ctx, leakyBucket, []string{"bucket::tokens", "bucket::last_fill"}, []interface{}{capacity, now}) // want `EVAL \(through EvalInline at adapter.go:\d+\) keys "bucket::tokens" \(slot \d+\) and "bucket::last_fill" \(slot \d+\) hash to different slots`
}

// Fixed: both keys of a bucket share its hashtag.
func (l *Limiter) UseFixed(ctx context.Context, prefix string, capacity, now int) (interface{}, error) {
	return l.Adapter.Eval(ctx, leakyBucket, []string{"{" + prefix + "}::tokens", "{" + prefix + "}::last_fill"}, []interface{}{capacity, now})
}

func UseInlineFixed(ctx context.Context, a *redigoadapter.Adapter, capacity, now int) (interface{}, error) {
	return a.EvalInline(ctx, leakyBucket, []string{"{bucket}::tokens", "{bucket}::last_fill"}, []interface{}{capacity, now})
}

func UseArgs(ctx context.Context, a *redigoadapter.Adapter, capacity, now int) (interface{}, error) {
	return a.EvalArgs(ctx, leakyBucket, []string{"bucket::tokens", "bucket::last_fill"}, []interface{}{capacity, now}) // want `EVAL \(through EvalArgs at adapter.go:\d+\) keys "bucket::tokens" \(slot \d+\) and "bucket::last_fill" \(slot \d+\) hash to different slots`
}

func UseArgsFixed(ctx context.Context, a *redigoadapter.Adapter, capacity, now int) (interface{}, error) {
	return a.EvalArgs(ctx, leakyBucket, []string{"{bucket}::tokens", "{bucket}::last_fill"}, []interface{}{capacity, now})
}
