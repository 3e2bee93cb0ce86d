// Package wrappers holds a project's helpers that pass key slices, variadic
// keys and scripts on to go-redis: the callers' keys are checked.
package wrappers

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// B is the shape of asynq's RDB and of RichardKnop/machinery's redis
// backend: a struct holding the client, with small helpers that every
// method goes through. Its client is a *redis.Client (as
// redis.NewFailoverClient returns), which splits no command.
type B struct{ rdb *redis.Client }

// run runs a script chosen by the caller with the caller's keys, as asynq's
// RDB.runScript does.
func (b *B) run(ctx context.Context, s *redis.Script, keys []string, args ...any) error {
	return s.Run(ctx, b.rdb, keys, args...).Err()
}

// del deletes the caller's keys, as go-redis/cache's Delete does.
func (b *B) del(ctx context.Context, keys ...string) error {
	return b.rdb.Del(ctx, keys...).Err()
}

// eval evaluates a source chosen by the caller, as bee-queue-like Go queues
// (and redis_rate's rediser) do.
func (b *B) eval(ctx context.Context, src string, keys []string, args ...any) error {
	return b.rdb.Eval(ctx, src, keys, args...).Err()
}

var auditScript = redis.NewScript(`
redis.call("RPUSH", KEYS[1], ARGV[1])
redis.call("SADD", KEYS[2], KEYS[1])
return 1`)

const touchSrc = `
redis.call("INCR", KEYS[1])
return redis.call("INCR", "stats:touched")`

const pushSrc = `
redis.call("LPUSH", KEYS[1], ARGV[1])
return redis.call("EXPIRE", KEYS[1], ARGV[2])`

// Origin: hibiken/asynq (RDB.runScript with the caller's keys).
func (b *B) audit(ctx context.Context, id string) {
	b.run(ctx, auditScript, []string{"audit:" + id, "audit:all"}, 1) // want `EVALSHA .*keys "audit:<id>" .* and "audit:all" .* hash to different slots`
}

func (b *B) auditFixed(ctx context.Context, id string) {
	b.run(ctx, auditScript, []string{"audit:{" + id + "}", "audit:{" + id + "}:all"}, 1)
}

// Origin: go-redis/cache (Cache.Delete), variadic keys passed on.
func (b *B) forget(ctx context.Context, a, c string) {
	b.del(ctx, "cache:"+a, "cache:"+c) // want `DEL .*keys "cache:<a>" .* and "cache:<c>" .* hash to different slots`
}

func (b *B) forgetFixed(ctx context.Context, user string) {
	b.del(ctx, "cache:{"+user+"}:profile", "cache:{"+user+"}:prefs")
}

// A key slice built by the caller and spread into the variadic helper.
func (b *B) forgetAll(ctx context.Context, user string) {
	keys := []string{"session:" + user, "profile:" + user}
	b.del(ctx, keys...) // want `DEL .*keys "session:<user>" .* and "profile:<user>" .* hash to different slots`
}

func (b *B) forgetAllFixed(ctx context.Context, user string) {
	keys := []string{"session:{" + user + "}", "profile:{" + user + "}"}
	b.del(ctx, keys...)
}

// Origin: go-redis/redis_rate-style limiter: the caller picks the script
// source; the Lua checks follow it through the wrapper.
func (b *B) touch(ctx context.Context, id string) {
	b.eval(ctx, touchSrc, []string{"hits:{" + id + "}"}) // want `script touchSrc line 3: .*"stats:touched".* not declared in KEYS`
}

func (b *B) push(ctx context.Context, id string) {
	b.eval(ctx, pushSrc, []string{"feed:{" + id + "}"}, "x", 60)
}

// A helper taking a single script key and a slice of the rest, as
// machinery's redis backend builds its group keys.
func (b *B) group(ctx context.Context, head string, rest []string) error {
	return b.rdb.SUnionStore(ctx, head, rest...).Err()
}

// Origin: RichardKnop/machinery (backends/redis), a group's union.
func (b *B) collect(ctx context.Context, g string) {
	b.group(ctx, "group:"+g+":all", []string{"group:" + g + ":ok", "group:" + g + ":failed"}) // want `SUNIONSTORE .*keys "group:<g>:all" .* and "group:<g>:ok" .* hash to different slots`
}

func (b *B) collectFixed(ctx context.Context, g string) {
	b.group(ctx, "group:{"+g+"}:all", []string{"group:{" + g + "}:ok", "group:{" + g + "}:failed"})
}

// Origin: go-zero (core/stores/redis), Redis.Pfmerge(dest, keys...) calls
// PfmergeCtx(ctx, dest, keys...): the key before the spread is the
// caller's, through both helpers.
func (b *B) mergeCtx(ctx context.Context, dest string, keys ...string) error {
	return b.rdb.PFMerge(ctx, dest, keys...).Err()
}

func (b *B) merge(dest string, keys ...string) error {
	return b.mergeCtx(context.Background(), dest, keys...)
}

func (b *B) mergeDays(day string) {
	b.merge("uv:"+day, "uv:"+day+":web", "uv:"+day+":app") // want `PFMERGE \(through mergeCtx at wrappers.go:\d+\) \(through merge at wrappers.go:\d+\) keys "uv:<day>" .* and "uv:<day>:web" .* hash to different slots`
}

func (b *B) mergeDaysFixed(day string) {
	b.merge("uv:{"+day+"}", "uv:{"+day+"}:web", "uv:{"+day+"}:app")
}
