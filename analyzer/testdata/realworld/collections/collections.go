// Package collections holds keys kept in slices, arrays and maps: ranged
// over, built with append in loops, and XREAD's Streams of keys then IDs.
package collections

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// forward moves due tasks of one set into the pending list, in the shape
// of asynq's RDB.forward (a script over the source set and the list).
func forward(ctx context.Context, rdb *redis.ClusterClient, src, pending string) {
	rdb.ZRangeStore(ctx, pending, redis.ZRangeArgs{Key: src, Start: 0, Stop: -1})
}

// Origin: hibiken/asynq (RDB.ForwardIfReady ranges over the scheduled and
// retry keys of a queue).
func forwardAll(ctx context.Context, rdb *redis.ClusterClient, q string) {
	pending := "asynq:" + q + ":pending"
	for _, k := range []string{"asynq:" + q + ":scheduled", "asynq:" + q + ":retry"} {
		forward(ctx, rdb, k, pending) // want `ZRANGESTORE .*keys "asynq:<q>:pending" .* and "asynq:<q>:scheduled" .* hash to different slots`
	}
}

func forwardAllFixed(ctx context.Context, rdb *redis.ClusterClient, q string) {
	pending := "asynq:{" + q + "}:pending"
	for _, k := range []string{"asynq:{" + q + "}:scheduled", "asynq:{" + q + "}:retry"} {
		forward(ctx, rdb, k, pending)
	}
}

// An array of keys ranged over, each moved to the same destination.
func drain(ctx context.Context, rdb *redis.ClusterClient) {
	srcs := [2]string{"mail:high", "mail:low"}
	for _, s := range srcs {
		rdb.LMove(ctx, s, "mail:sending", "LEFT", "RIGHT") // want `LMOVE keys "mail:high" .* and "mail:sending" .* hash to different slots`
	}
}

func drainFixed(ctx context.Context, rdb *redis.ClusterClient) {
	srcs := [2]string{"{mail}:high", "{mail}:low"}
	for _, s := range srcs {
		rdb.LMove(ctx, s, "{mail}:sending", "LEFT", "RIGHT")
	}
}

// queues maps a priority to its list, constant entries as in
// gocraft/work's and machinery's priority queues.
var queues = map[string]string{
	"high": "jobs:high",
	"low":  "jobs:low",
}

var queuesTagged = map[string]string{
	"high": "{jobs}:high",
	"low":  "{jobs}:low",
}

// Origin: gocraft/work (priority queues held in a map by name).
func promote(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.RPopLPush(ctx, queues["low"], queues["high"]) // want `RPOPLPUSH keys "jobs:low" .* and "jobs:high" .* hash to different slots`
}

func promoteFixed(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.RPopLPush(ctx, queuesTagged["low"], queuesTagged["high"])
}

// Origin: go-redis/cache and many cache layers: keys appended in a loop,
// then one multi-key command in a transaction.
func expireAll(ctx context.Context, rdb *redis.ClusterClient, ids []string) {
	var keys []string
	for _, id := range ids {
		keys = append(keys, "item:"+id)
	}
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys built as "item:<id>" from different values may hash to different slots`
		p.Unlink(ctx, keys...) // want `UNLINK keys built as "item:<id>" from different values may hash to different slots`
		return nil
	})
}

func expireAllFixed(ctx context.Context, rdb *redis.ClusterClient, shop string, ids []string) {
	var keys []string
	for _, id := range ids {
		keys = append(keys, "item:{"+shop+"}:"+id)
	}
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Unlink(ctx, keys...)
		return nil
	})
}

// Two slices joined with append(a, b...).
func copyTags(ctx context.Context, rdb *redis.ClusterClient, post string) {
	mine := []string{"tags:" + post}
	shared := []string{"tags:global"}
	rdb.SInterStore(ctx, "tags:"+post+":common", append(mine, shared...)...) // want `SINTERSTORE keys "tags:<post>:common" .* and "tags:<post>" .* hash to different slots`
}

func copyTagsFixed(ctx context.Context, rdb *redis.ClusterClient, post string) {
	mine := []string{"tags:{" + post + "}"}
	shared := []string{"tags:{" + post + "}:global"}
	rdb.SInterStore(ctx, "tags:{"+post+"}:common", append(mine, shared...)...)
}

// Origin: robinjoseph08/redisqueue (Consumer.receive): XREADGROUP over
// every stream of the consumer, Streams holding the keys and then one ">"
// per stream. The IDs are no keys.
func receive(ctx context.Context, rdb *redis.ClusterClient, streams []string) {
	keys := []string{"orders", "payments"}
	ids := []string{">", ">"}
	rdb.XReadGroup(ctx, &redis.XReadGroupArgs{ // want `XREADGROUP keys "orders" .* and "payments" .* hash to different slots`
		Group:    "g",
		Consumer: "c",
		Streams:  append(keys, ids...),
	})
}

func receiveFixed(ctx context.Context, rdb *redis.ClusterClient) {
	keys := []string{"{stream}:orders", "{stream}:payments"}
	ids := []string{">", ">"}
	rdb.XReadGroup(ctx, &redis.XReadGroupArgs{
		Group:    "g",
		Consumer: "c",
		Streams:  append(keys, ids...),
	})
}

// Origin: the same consumer reading one stream: a key and "$" alone.
func tail(ctx context.Context, rdb *redis.ClusterClient, stream string) {
	rdb.XRead(ctx, &redis.XReadArgs{Streams: append([]string{stream}, "$")})
}
