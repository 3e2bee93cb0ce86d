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

// JSON.MSET through JSONMSetArgs: the keys are the Key field of each
// JSONSetArgs, as in go-redis's json_test.go ("should JSONMSet").
func jsonMSetArgs(ctx context.Context, rdb *redis.ClusterClient, given []redis.JSONSetArgs) {
	doc1 := redis.JSONSetArgs{Key: "mset1", Path: "$", Value: `{"a": 1}`}
	doc2 := redis.JSONSetArgs{Key: "mset2", Path: "$", Value: 2}
	docs := []redis.JSONSetArgs{doc1, doc2}
	rdb.JSONMSetArgs(ctx, docs) // want `JSON.MSET keys "mset1" .* and "mset2" .* hash to different slots`
	rdb.JSONMSetArgs(ctx, []redis.JSONSetArgs{{Key: "{mset}1", Path: "$", Value: 1}, {Key: "{mset}2", Path: "$", Value: 2}})
	rdb.JSONMSetArgs(ctx, given) // keys not seen: nothing to say
}

// TS.MADD key timestamp value [key timestamp value ...]: the key is the
// first element of each row, as in go-redis's timeseries_commands_test.go
// ("should TSMAdd").
func tsMAdd(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.TSMAdd(ctx, [][]interface{}{{"a", 1, 1.0}, {"b", 2, 2.0}}) // want `TS.MADD keys "a" .* and "b" .* hash to different slots`
	rdb.TSMAdd(ctx, [][]interface{}{{"{ts}a", 1, 1.0}, {"{ts}b", 2, 2.0}})
	ktvSlices := make([][]interface{}, 3)
	for i := 0; i < 3; i++ {
		ktvSlices[i] = []interface{}{"a", i, 1.0}
	}
	rdb.TSMAdd(ctx, ktvSlices) // keys set by index: not seen
}

// CMS.MERGE destination numkeys source [source ...] WEIGHTS ...: the
// sources are the keys of the map, as in go-redis's probabilistic_test.go
// ("should CMSMerge, CMSMergeWithWeight and CMSQuery").
func cmsMergeWithWeight(ctx context.Context, rdb *redis.ClusterClient) {
	sourceSketches := map[string]int64{
		"cms1": 1,
		"cms2": 2,
	}
	rdb.CMSMergeWithWeight(ctx, "destCms2", sourceSketches) // want `CMS.MERGE keys "destCms2" .* and "cms1" .* hash to different slots`
	rdb.CMSMergeWithWeight(ctx, "{cms}dest", map[string]int64{"{cms}1": 1, "{cms}2": 2})
}

// TS.NRANGE numkeys key [key ...] fromTimestamp toTimestamp, Redis 8.10:
// the keys are the slice's elements, as in go-redis's
// timeseries_commands_test.go ("should TSNRange, TSNRangeWithArgs"), whose
// keys share the hashtag {ts}.
func tsNRange(ctx context.Context, rdb *redis.ClusterClient) {
	keys := []string{"ts:open", "ts:high", "ts:low"}
	rdb.TSNRange(ctx, keys, 1000, 3000)                                                                         // want `TS.NRANGE keys "ts:open" \(slot 10264\) and "ts:high" \(slot 8803\) hash to different slots; give them a common hashtag such as "{ts}"`
	rdb.TSNRevRangeWithArgs(ctx, []string{"ts:open", "ts:high"}, "-", "+", &redis.TSNRevRangeOptions{Count: 2}) // want `TS.NREVRANGE keys "ts:open" \(slot 10264\) and "ts:high" \(slot 8803\) hash to different slots`
	fixed := []string{"{ts}:open", "{ts}:high", "{ts}:low"}
	rdb.TSNRange(ctx, fixed, 1000, 3000)
	rdb.TSNRangeWithArgs(ctx, fixed, 1000, 3000, &redis.TSNRangeOptions{Count: 2})
	rdb.TSNRevRange(ctx, []string{"{ts}:open", "{ts}:high"}, "-", "+")
	// Sent raw, the keys are found by the command's key spec: numkeys, then
	// that many keys.
	rdb.Do(ctx, "TS.NRANGE", 2, "ts:open", "ts:high", "-", "+") // want `TS.NRANGE keys "ts:open" \(slot 10264\) and "ts:high" \(slot 8803\) hash to different slots`
	rdb.Do(ctx, "TS.NRANGE", 2, "{ts}:open", "{ts}:high", "-", "+")
}
