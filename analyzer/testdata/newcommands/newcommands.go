// Package newcommands holds go-redis v9 methods for commands newer than
// Redis 7.0 and for module commands, whose key specs come from Redis's and
// the modules' command JSON files. The calls are reduced from go-redis's own
// tests (json_test.go, probabilistic_test.go, commands_test.go), each with
// its keys given a common hashtag in the fixed form.
package newcommands

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// JSON.MGET key [key ...] path: go-redis takes the path first.
func jsonMGet(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.JSONMGet(ctx, "$", "mset1", "mset2") // want `JSON.MGET keys "mset1" \(slot 13179\) and "mset2" \(slot 792\) hash to different slots`
	rdb.JSONMGet(ctx, "$", "{mset}1", "{mset}2")
}

// JSON.MSET key path value [key path value ...]: every third argument is a
// key, and the paths and values are not.
func jsonMSet(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.JSONMSet(ctx, "mset1", "$.a", 2, "mset3", "$", `[1]`) // want `JSON.MSET keys "mset1" .* and "mset3" .* hash to different slots`
	rdb.JSONMSet(ctx, "{mset}1", "$.a", 2, "{mset}3", "$", `[1]`)
}

// TDIGEST.MERGE destination numkeys source [source ...].
func tdigestMerge(ctx context.Context, rdb redis.UniversalClient) {
	rdb.TDigestMerge(ctx, "tdigest1", &redis.TDigestMergeOptions{}, "tdigest2", "tdigest3") // want `TDIGEST.MERGE keys "tdigest1" .* and "tdigest2" .* hash to different slots`
	rdb.TDigestMerge(ctx, "{td}1", &redis.TDigestMergeOptions{}, "{td}2", "{td}3")
}

// SUNIONCARD numkeys key [key ...] and LMOVEM source destination, Redis 8.
func setsAndLists(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.SUnionCard(ctx, &redis.SUnionCardOptions{}, "mset1", "mset2") // want `SUNIONCARD keys "mset1" .* and "mset2" .* hash to different slots`
	rdb.SUnionCard(ctx, &redis.SUnionCardOptions{}, "users:{1}", "users:{1}:old")
	rdb.LMoveM(ctx, "lmovem_l", "lmovem_m", "LEFT", "LEFT", redis.LMoveMArgs{}) // want `LMOVEM keys "lmovem_l" .* and "lmovem_m" .* hash to different slots`
	rdb.LMoveM(ctx, "{lmovem}_l", "{lmovem}_m", "LEFT", "LEFT", redis.LMoveMArgs{})
}

// XREAD STREAMS key [key ...] id [id ...], with the streams and their IDs in
// one variadic parameter: the first half are keys, the IDs are not.
func xreadStreams(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.XReadStreams(ctx, "stream", "stream2", "0", "0") // want `XREAD keys "stream" \(slot 1386\) and "stream2" \(slot 9328\) hash to different slots`
	rdb.XReadStreams(ctx, "{stream}", "{stream}2", "0", "$")
	streams := []string{"{stream}", "{stream}2", "0", "0"}
	rdb.XReadStreams(ctx, streams...)
	bad := []string{"stream", "stream2", "0", "0"}
	rdb.XReadStreams(ctx, bad...) // want `XREAD keys "stream" .* and "stream2" .* hash to different slots`
}
