// Package partkeys holds keys made by a helper that joins a prefix and
// the parts its callers pass: each call's key is known from its arguments,
// or, where the helper adds the parts in a loop, its prefix followed by
// a value not known (indexkeys.go).
package partkeys

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: thoas/bokchoy v0.2.0 (broker_redis.go, RedisBroker.prefixed and
// consume): every key is p.prefixed(parts...), fmt.Sprint of the broker's
// prefix and the parts; a task's hash is prefixed(queue, ":", id). The
// delayed tasks are published in one MULTI/EXEC, and the hashes of the
// tasks a queue pops are read by one script.
type broker struct {
	rdb    *redis.Client
	Prefix string
}

func (p broker) prefixed(keys ...interface{}) string {
	parts := []interface{}{p.Prefix}
	parts = append(parts, keys...)
	return fmt.Sprint(parts...)
}

var multiHGetAll = redis.NewScript(`
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call("HGETALL", key) end
return out
`)

func (p broker) publish(ctx context.Context, queue, id string) {
	p.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "<p.Prefix><queue>:<id>" \(hashtag unknown\) and "<p.Prefix><queue>" \(hashtag unknown\) may hash to different slots`
		pipe.HSet(ctx, p.prefixed(queue, ":", id), "state", "waiting")
		pipe.RPush(ctx, p.prefixed(queue), id)
		return nil
	})
}

func (p broker) consume(ctx context.Context, queue, max string) {
	ids, _ := p.rdb.ZRangeByScore(ctx, p.prefixed(queue, ":delay"), &redis.ZRangeBy{Min: "0", Max: max}).Result()
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		keys = append(keys, p.prefixed(queue, ":", id))
	}
	multiHGetAll.Run(ctx, p.rdb, keys) // want `EVALSHA keys built as "<p.Prefix><queue>:<id>" from different values may hash to different slots`
}

// The same helper with strings.Join of the prefix and the parts.
const appPrefix = "app"

func key(parts ...string) string {
	return strings.Join(append([]string{appPrefix}, parts...), ":")
}

func profile(ctx context.Context, rdb *redis.Client, id string) {
	rdb.MGet(ctx, key("user", id), key("session", id)) // want `MGET keys "app:user:<id>" \(hashtag unknown\) and "app:session:<id>" \(hashtag unknown\) may hash to different slots`
}

// Fixed: the queue is the hashtag of its tasks' keys and of its list, so a
// queue's keys share a slot; the user's keys share the user's.
func (p broker) publishFixed(ctx context.Context, queue, id string) {
	p.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, p.prefixed("{", queue, "}:", id), "state", "waiting")
		pipe.RPush(ctx, p.prefixed("{", queue, "}"), id)
		return nil
	})
}

func (p broker) consumeFixed(ctx context.Context, queue, max string) {
	ids, _ := p.rdb.ZRangeByScore(ctx, p.prefixed("{", queue, "}:delay"), &redis.ZRangeBy{Min: "0", Max: max}).Result()
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		keys = append(keys, p.prefixed("{", queue, "}:", id))
	}
	multiHGetAll.Run(ctx, p.rdb, keys)
}

func profileFixed(ctx context.Context, rdb *redis.Client, id string) {
	rdb.MGet(ctx, key("user", "{"+id+"}"), key("session", "{"+id+"}"))
}
