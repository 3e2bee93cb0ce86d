// Package branches holds keys whose values depend on the path to the call:
// a variable declared without a value and set on every branch, a key
// appended in a branch that returns, empty strings passed as placeholders
// for keys a mode does not use, and keys that are only an unknown value.
package branches

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: centrifuge, broker_redis.go (RedisBroker.publish): var streamKey
// is set on both branches of if UseLists, so its zero value never reaches
// the script. Before, the call was reported with keys "" (slot 0) and the
// meta key.
var addHistory = redis.NewScript(`
redis.call("rpush", KEYS[1], ARGV[1])
redis.call("hincrby", KEYS[2], "s", 1)
return 1
`)

func publishHistory(ctx context.Context, rdb *redis.ClusterClient, useLists bool, ch, msg string) error {
	var streamKey string
	if useLists {
		streamKey = "cf.list." + ch
	} else {
		streamKey = "cf.stream." + ch
	}
	metaKey := "cf.meta.{" + ch + "}"
	return addHistory.Run(ctx, rdb, []string{streamKey, metaKey}, msg).Err() // want `EVALSHA keys "cf.list.<ch>" \(hashtag unknown\) and "cf.meta.\{<ch>\}" \(hashtag "\{<ch>\}"\) may hash to different slots`
}

func publishHistoryFixed(ctx context.Context, rdb *redis.ClusterClient, useLists bool, ch, msg string) error {
	var streamKey string
	if useLists {
		streamKey = "cf.list.{" + ch + "}"
	} else {
		streamKey = "cf.stream.{" + ch + "}"
	}
	metaKey := "cf.meta.{" + ch + "}"
	return addHistory.Run(ctx, rdb, []string{streamKey, metaKey}, msg).Err()
}

// The same with a switch: every case sets the key, and the default returns.
func publishByMode(ctx context.Context, rdb *redis.ClusterClient, mode int, ch, msg string) error {
	var streamKey string
	switch mode {
	case 1:
		streamKey = "cf.list.{" + ch + "}"
	case 2:
		streamKey = "cf.stream.{" + ch + "}"
	default:
		return nil
	}
	return addHistory.Run(ctx, rdb, []string{streamKey, "cf.meta.{" + ch + "}"}, msg).Err()
}

// A key whose only value is the zero value is a bug, and is reported.
func renameUnset(ctx context.Context, rdb *redis.Client, ch string) {
	var from string
	rdb.Rename(ctx, from, "cf.meta."+ch) // want `RENAME keys "" \(slot 0\) and "cf.meta.<ch>" \(hashtag unknown\) may hash to different slots`
}

// Origin: centrifuge, map_broker_redis.go (RedisMapBroker.Publish): keys a
// mode does not use are passed as "" and the script skips them; on a
// cluster they are replaced by a key in the channel's slot. An empty
// string beside other values of a key is such a placeholder, not a key.
var addScript = redis.NewScript(`
if KEYS[1] ~= "" then redis.call("xadd", KEYS[1], "*", "d", ARGV[1]) end
if KEYS[2] ~= "" then redis.call("hset", KEYS[2], "s", ARGV[1]) end
if KEYS[3] ~= "" then redis.call("hset", KEYS[3], "k", ARGV[1]) end
return 1
`)

func publishState(ctx context.Context, rdb redis.UniversalClient, cluster, streamless bool, key, ch, msg string) error {
	streamKey := ""
	if !streamless {
		streamKey = "cf:stream:{" + ch + "}"
	}
	var stateKey string
	if key != "" {
		stateKey = "cf:state:{" + ch + "}"
	}
	if cluster {
		nilKey := "cf:nil:{" + ch + "}"
		if streamKey == "" {
			streamKey = nilKey
		}
		if stateKey == "" {
			stateKey = nilKey
		}
	}
	return addScript.Run(ctx, rdb, []string{streamKey, "cf:meta:{" + ch + "}", stateKey}, msg).Err()
}

// The bad form: the state key has no hashtag. The placeholders do not
// hide it.
func publishStateUntagged(ctx context.Context, rdb redis.UniversalClient, streamless bool, key, ch, msg string) error {
	streamKey := ""
	if !streamless {
		streamKey = "cf:stream:{" + ch + "}"
	}
	var stateKey string
	if key != "" {
		stateKey = "cf:state:" + ch
	}
	return addScript.Run(ctx, rdb, []string{streamKey, "cf:meta:{" + ch + "}", stateKey}, msg).Err() // want `EVALSHA keys "cf:stream:\{<ch>\}" \(hashtag "\{<ch>\}"\) and "cf:state:<ch>" \(hashtag unknown\) may hash to different slots`
}

// Origin: asynq, internal/rdb/rdb.go (RDB.Done and RDB.MarkAsComplete):
// the unique key is appended, and the script that reads it run, in a
// branch that returns; the other call passes the keys without it.
type message struct {
	ID, Queue, UniqueKey string
}

var (
	doneCmd = redis.NewScript(`
redis.call("LREM", KEYS[1], 0, ARGV[1])
redis.call("ZREM", KEYS[2], ARGV[1])
return redis.call("DEL", KEYS[3])
`)
	doneUniqueCmd = redis.NewScript(`
redis.call("LREM", KEYS[1], 0, ARGV[1])
redis.call("ZREM", KEYS[2], ARGV[1])
redis.call("DEL", KEYS[3])
if redis.call("GET", KEYS[4]) == ARGV[1] then
  redis.call("DEL", KEYS[4])
end
return 1
`)
)

func runScript(ctx context.Context, rdb redis.UniversalClient, script *redis.Script, keys []string, args ...any) error {
	return script.Run(ctx, rdb, keys, args...).Err()
}

func done(ctx context.Context, rdb redis.UniversalClient, msg *message) error {
	keys := []string{
		"asynq:{" + msg.Queue + "}:active",
		"asynq:{" + msg.Queue + "}:lease",
		"asynq:{" + msg.Queue + "}:t:" + msg.ID,
	}
	if len(msg.UniqueKey) > 0 {
		keys = append(keys, msg.UniqueKey)
		return runScript(ctx, rdb, doneUniqueCmd, keys, msg.ID)
	}
	return runScript(ctx, rdb, doneCmd, keys, msg.ID)
}

// The bad form: the branch does not return, so doneCmd gets the unique
// key too, and never reads it.
func doneFallsThrough(ctx context.Context, rdb redis.UniversalClient, msg *message) error {
	keys := []string{
		"asynq:{" + msg.Queue + "}:active",
		"asynq:{" + msg.Queue + "}:lease",
		"asynq:{" + msg.Queue + "}:t:" + msg.ID,
	}
	if len(msg.UniqueKey) > 0 {
		keys = append(keys, msg.UniqueKey)
	}
	return runScript(ctx, rdb, doneCmd, keys, msg.ID) // want `script doneCmd: the call passes 4 keys but the script never reads KEYS\[4\] \("<msg.UniqueKey>"\)`
}

// Origin: asynq, internal/rdb/rdb.go (RDB.Enqueue with a unique key) and
// centrifuge, broker_redis.go (keys from helpers slotlint cannot follow):
// a key that is only an unknown value, msg.UniqueKey, shows nothing of its
// slot. A warning that it may be in another slot would be a guess, so
// none is given; a key built with text of its own is still checked.
var enqueueUniqueCmd = redis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX") then
  redis.call("HSET", KEYS[2], "msg", ARGV[2])
  return 1
end
return 0
`)

func enqueueUnique(ctx context.Context, rdb redis.UniversalClient, msg *message, payload string) error {
	keys := []string{msg.UniqueKey, "asynq:{" + msg.Queue + "}:t:" + msg.ID}
	return enqueueUniqueCmd.Run(ctx, rdb, keys, msg.ID, payload).Err()
}

func enqueueUniqueUntagged(ctx context.Context, rdb redis.UniversalClient, msg *message, payload string) error {
	keys := []string{"asynq:unique:" + msg.ID, "asynq:{" + msg.Queue + "}:t:" + msg.ID}
	return enqueueUniqueCmd.Run(ctx, rdb, keys, msg.ID, payload).Err() // want `EVALSHA keys "asynq:unique:<msg.ID>" \(hashtag unknown\) and "asynq:\{<msg.Queue>\}:t:<msg.ID>" \(hashtag "\{<msg.Queue>\}"\) may hash to different slots`
}

func enqueueUniqueFixed(ctx context.Context, rdb redis.UniversalClient, msg *message, payload string) error {
	keys := []string{"asynq:{" + msg.Queue + "}:unique:" + msg.ID, "asynq:{" + msg.Queue + "}:t:" + msg.ID}
	return enqueueUniqueCmd.Run(ctx, rdb, keys, msg.ID, payload).Err()
}

// Keys that provably hash to different slots are reported whatever the
// rest is built from.
func moveProven(ctx context.Context, rdb *redis.Client, other string) {
	rdb.MGet(ctx, "{a}:x", "{b}:x", other) // want `MGET keys "\{a\}:x" \(slot \d+\) and "\{b\}:x" \(slot \d+\) hash to different slots`
}

// Origin: rueidiscompat (Compat.Copy) and go-zero (cacheNode.DelCtx and
// its retry): a helper that sends the same command on two paths gives one
// finding at its caller, not one per path.
func copyKey(ctx context.Context, rdb *redis.Client, src, dst string, replace bool) {
	if replace {
		rdb.Copy(ctx, src, dst, 0, true)
	} else {
		rdb.Copy(ctx, src, dst, 0, false)
	}
}

func copyCache(ctx context.Context, rdb *redis.Client, id string) {
	copyKey(ctx, rdb, "cache:"+id, "backup:"+id, true) // want `COPY \(through copyKey at branches.go:\d+\) keys "cache:<id>" .* and "backup:<id>" .* may hash to different slots`
}

func copyCacheFixed(ctx context.Context, rdb *redis.Client, id string) {
	copyKey(ctx, rdb, "cache:{"+id+"}", "backup:{"+id+"}", true)
}

// Origin: go-zero, core/stores/cache/cachenode.go (cacheNode.DelCtx): on a
// cluster the keys go one by one, and the multi-key command is sent only
// to a single server, where there are no slots. The test is read by name
// (a Type compared with a cluster constant, isCluster, standalone).
type store struct {
	rdb       redis.UniversalClient
	Type      string
	isCluster bool
}

const clusterType = "cluster"

func (s *store) inter(ctx context.Context, keys ...string) []string {
	if len(keys) > 1 && s.Type == clusterType {
		var out []string
		for _, k := range keys {
			out = append(out, s.rdb.SMembers(ctx, k).Val()...)
		}
		return out
	}
	return s.rdb.SInter(ctx, keys...).Val()
}

func (s *store) common(ctx context.Context, a, b string) []string {
	return s.inter(ctx, "tags:"+a, "tags:"+b)
}

// The bad form: the test is on something else, and SINTER may run on a
// cluster.
func (s *store) interFast(ctx context.Context, fast bool, keys ...string) []string {
	if len(keys) > 1 && fast {
		return nil
	}
	return s.rdb.SInter(ctx, keys...).Val()
}

func (s *store) commonFast(ctx context.Context, a, b string) []string {
	return s.interFast(ctx, true, "tags:"+a, "tags:"+b) // want `SINTER \(through interFast at branches.go:\d+\) keys "tags:<a>" .* and "tags:<b>" .* may hash to different slots`
}

// An early return on the cluster test guards what follows it.
func (s *store) swap(ctx context.Context, id string) error {
	if s.isCluster {
		return nil
	}
	return s.rdb.Rename(ctx, "tmp:"+id, "cache:"+id).Err()
}

func (s *store) swapAnywhere(ctx context.Context, id string) error {
	return s.rdb.Rename(ctx, "tmp:"+id, "cache:"+id).Err() // want `RENAME keys "tmp:<id>" .* and "cache:<id>" .* may hash to different slots`
}

// Origin: asynq, internal/rdb/rdb.go (RDB.forward, called by forwardAll):
// an unexported helper runs a script with its own parameters as KEYS and
// ARGV. The Lua checks run at its callers, with their values: here every
// key keeps the queue's hashtag, so the undeclared key is the warning
// undeclared-key-same-slot, not the error that it may be in another slot.
var forwardCmd = redis.NewScript(`
local ids = redis.call("ZRANGE", KEYS[1], 0, -1)
for _, id in ipairs(ids) do
	redis.call("HSET", ARGV[1] .. id, "state", "pending")
end
return #ids`)

func forward(ctx context.Context, rdb redis.UniversalClient, src, taskKeyPrefix string) error {
	return forwardCmd.Run(ctx, rdb, []string{src}, taskKeyPrefix).Err()
}

func forwardAll(ctx context.Context, rdb redis.UniversalClient, qname string) error {
	return forward(ctx, rdb, "asynq:{"+qname+"}:scheduled", "asynq:{"+qname+"}:t:") // want `script forwardCmd line 4: redis.call\("HSET", ARGV\[1\] \.\. id, "state", "pending"\) touches a key not declared in KEYS: .* it keeps the hashtag "\{<qname>\}" of KEYS\[1\]`
}

// The bad form: the task keys have no hashtag.
func forwardAllUntagged(ctx context.Context, rdb redis.UniversalClient, qname string) error {
	return forward(ctx, rdb, "asynq:{"+qname+"}:retry", "asynq:t:") // want `script forwardCmd line 4: redis.call\("HSET", ARGV\[1\] \.\. id, "state", "pending"\) touches a key not declared in KEYS: .* it may be in another slot than KEYS\[1\]`
}

// Origin: asynq, internal/rdb/rdb.go (RDB.DeleteAggregationSet): the
// script and its ARGV go through the generic runScript helper; ARGV[1] is
// the caller's task key prefix, with the queue's hashtag.
var deleteAggregationSetCmd = redis.NewScript(`
local ids = redis.call("ZRANGE", KEYS[1], 0, -1)
for _, id in ipairs(ids) do
	redis.call("DEL", ARGV[1] .. id)
end
return redis.call("DEL", KEYS[1])`)

func deleteAggregationSet(ctx context.Context, rdb redis.UniversalClient, qname, setID string) error {
	keys := []string{"asynq:{" + qname + "}:g:" + setID}
	return runScript(ctx, rdb, deleteAggregationSetCmd, keys, "asynq:{"+qname+"}:t:") // want `script deleteAggregationSetCmd line 4: redis.call\("DEL", ARGV\[1\] \.\. id\) touches a key not declared in KEYS: .* it keeps the hashtag "\{<qname>\}" of KEYS\[1\]`
}

// The bad form: the prefix has no hashtag.
func deleteAggregationSetUntagged(ctx context.Context, rdb redis.UniversalClient, qname, setID string) error {
	keys := []string{"asynq:{" + qname + "}:g:" + setID}
	return runScript(ctx, rdb, deleteAggregationSetCmd, keys, "asynq:t:") // want `script deleteAggregationSetCmd line 4: redis.call\("DEL", ARGV\[1\] \.\. id\) touches a key not declared in KEYS: .* it may be in another slot than KEYS\[1\]`
}

// Origin: rueidis, helper.go (MDel): switch client.(type) { case
// *singleClient, *standalone, *sentinelClient: one DEL of all the keys },
// one DEL per key on a cluster. The same shape on go-redis's types: a case
// that names only clients of one node is not on a cluster.
func interAll(ctx context.Context, c redis.UniversalClient, keys ...string) []string {
	return c.SInter(ctx, keys...).Val()
}

func interByClient(ctx context.Context, c redis.UniversalClient, keys ...string) []string {
	switch c.(type) {
	case *redis.Client:
		return interAll(ctx, c, keys...)
	}
	var out []string
	for _, k := range keys {
		out = append(out, c.SMembers(ctx, k).Val()...)
	}
	return out
}

func tagsByClient(ctx context.Context, c redis.UniversalClient, a, b string) []string {
	return interByClient(ctx, c, "tags:"+a, "tags:"+b)
}

// The bad form: the case is the cluster client's.
func interOnCluster(ctx context.Context, c redis.UniversalClient, keys ...string) []string {
	switch c.(type) {
	case *redis.ClusterClient:
		return interAll(ctx, c, keys...)
	}
	return nil
}

func tagsOnCluster(ctx context.Context, c redis.UniversalClient, a, b string) []string {
	return interOnCluster(ctx, c, "tags:"+a, "tags:"+b) // want `SINTER \(through interAll at branches.go:\d+\) \(through interOnCluster at branches.go:\d+\) keys "tags:<a>" .* and "tags:<b>" .* may hash to different slots`
}
