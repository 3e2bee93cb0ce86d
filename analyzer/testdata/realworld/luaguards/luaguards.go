// Package luaguards holds scripts that test a key before they touch it, and
// scripts that build undeclared keys in the slot of their KEYS, reduced from
// real projects. The Lua checks narrow a variable by the tests of it (in
// the branch of k ~= ” the key k is not ”), report an undeclared key that
// keeps the hashtag of KEYS as undeclared-key-same-slot, a warning, and an
// undeclared key that may be in another slot as undeclared-key.
package luaguards

import (
	"context"
	_ "embed"
	"errors"

	"github.com/redis/go-redis/v9"
)

// Origin: centrifugal/centrifuge (map_broker_redis.go and
// internal/redis_lua/map_broker_add.lua): unused KEYS are "" or, on a
// cluster, a placeholder in the channel's slot that the script turns back
// into ” and tests for.
//
//go:embed lua/publish.lua
var publishSrc string

//go:embed lua/publish_bad.lua
var publishBadSrc string

var (
	publishScript    = redis.NewScript(publishSrc)
	publishBadScript = redis.NewScript(publishBadSrc)
)

type broker struct {
	rdb     redis.UniversalClient
	cluster bool
}

func (b *broker) publish(ctx context.Context, ch, key string, data []byte, stream bool) error {
	var streamKey, stateKey string
	if stream {
		streamKey = "cf:{" + ch + "}:stream"
	}
	if key != "" {
		stateKey = "cf:{" + ch + "}:state"
	}
	nilKey := ""
	if b.cluster {
		nilKey = "cf:{" + ch + "}:nil"
		if streamKey == "" {
			streamKey = nilKey
		}
		if stateKey == "" {
			stateKey = nilKey
		}
	}
	return publishScript.Run(ctx, b.rdb, []string{streamKey, stateKey}, data, nilKey, key).Err()
}

func (b *broker) publishBad(ctx context.Context, ch, key string, data []byte) error {
	nilKey := "cf:{" + ch + "}:nil"
	return publishBadScript.Run(ctx, b.rdb, []string{"cf:{" + ch + "}:stream", nilKey}, data, nilKey, key).Err() // want `script publishBadSrc line 16: redis.call\("hset", state_key, ARGV\[3\], ARGV\[1\]\) touches a key not declared in KEYS: state_key may hold the string literal "cf:state:shared"; it may be in another slot than KEYS\[1\] \(slot 5448 vs hashtag "{<ch>}" of KEYS\[1\]\)`
}

// Origin: hibiken/asynq (internal/rdb/rdb.go and inspect.go): the task key
// is built in the script from a prefix passed in ARGV and an id read from
// Redis. The prefix carries the queue's hashtag, so the key is in the slot
// of KEYS: it works on Redis Cluster, but is not declared.
var archiveAllCmd = redis.NewScript(`
local ids = redis.call("ZRANGE", KEYS[1], 0, -1)
for _, id in ipairs(ids) do
	redis.call("ZADD", KEYS[2], ARGV[1], id)
	redis.call("HSET", ARGV[2] .. id, "state", "archived")
end
redis.call("DEL", KEYS[1])
return table.getn(ids)`)

func archiveAll(ctx context.Context, rdb *redis.ClusterClient, qname string, now int64) error {
	keys := []string{"asynq:{" + qname + "}:scheduled", "asynq:{" + qname + "}:archived"}
	return archiveAllCmd.Run(ctx, rdb, keys, now, "asynq:{"+qname+"}:t:").Err() // want `script archiveAllCmd line 5: redis.call\("HSET", ARGV\[2\] .. id, "state", "archived"\) touches a key not declared in KEYS: the concatenation ARGV\[2\] .. <value read from Redis at line 2>; it keeps the hashtag "{<qname>}" of KEYS\[1\], so it works on Redis Cluster but breaks cluster proxies`
}

// The fixed form: the caller reads the id first and passes the task key.
var archiveTaskCmd = redis.NewScript(`
if redis.call("ZREM", KEYS[1], ARGV[2]) == 0 then return 0 end
redis.call("ZADD", KEYS[2], ARGV[1], ARGV[2])
redis.call("HSET", KEYS[3], "state", "archived")
return 1`)

func archiveTask(ctx context.Context, rdb *redis.ClusterClient, qname, id string, now int64) error {
	keys := []string{"asynq:{" + qname + "}:scheduled", "asynq:{" + qname + "}:archived", "asynq:{" + qname + "}:t:" + id}
	return archiveTaskCmd.Run(ctx, rdb, keys, now, id).Err()
}

// Origin: hibiken/asynq (internal/rdb/inspect.go, listMessages): KEYS[1] is
// set in a switch, one key per state, all with the queue's hashtag; the
// task key prefix in ARGV has it too. The key the script builds keeps it,
// whichever branch ran.
var listMessagesCmd = redis.NewScript(`
local ids = redis.call("LRange", KEYS[1], ARGV[1], ARGV[2])
local data = {}
for _, id in ipairs(ids) do
	local key = ARGV[3] .. id
	local msg, result = unpack(redis.call("HMGET", key, "msg","result"))
	table.insert(data, msg)
	table.insert(data, result)
end
return data
`)

func listMessages(ctx context.Context, rdb *redis.ClusterClient, qname string, active bool) error {
	var key string
	switch active {
	case true:
		key = "asynq:{" + qname + "}:active"
	case false:
		key = "asynq:{" + qname + "}:pending"
	default:
		return errors.New("unsupported state")
	}
	return listMessagesCmd.Run(ctx, rdb, []string{key}, 0, -1, "asynq:{"+qname+"}:t:").Err() // want `script listMessagesCmd line 6: .* touches a key not declared in KEYS: key holds the concatenation ARGV\[3\] .. <value read from Redis at line 2>; it keeps the hashtag "{<qname>}" of KEYS\[1\]`
}

// The bad form: one of the keys of the switch has no hashtag, so the task
// keys may be in another slot than KEYS[1].
var listLegacyCmd = redis.NewScript(`
local ids = redis.call("LRange", KEYS[1], 0, -1)
local data = {}
for _, id in ipairs(ids) do
	table.insert(data, redis.call("HGET", ARGV[1] .. id, "msg"))
end
return data
`)

func listLegacy(ctx context.Context, rdb *redis.ClusterClient, qname string, legacy bool) error {
	key := "asynq:{" + qname + "}:pending"
	if legacy {
		key = "asynq:" + qname + ":pending"
	}
	return listLegacyCmd.Run(ctx, rdb, []string{key}, "asynq:{"+qname+"}:t:").Err() // want `script listLegacyCmd line 5: .* touches a key not declared in KEYS: the concatenation ARGV\[1\] .. <value read from Redis at line 2>; it may be in another slot than KEYS\[1\] \(hashtag "{<qname>}" vs unknown hashtag of KEYS\[1\]\)`
}

// Origin: centrifugal/centrifuge (broker_redis.go): a key the caller does
// not use is passed as "", so KEYS[1] is "" or the stream key. The script's
// meta key, passed in ARGV, is compared with the stream key, not with "".
var bumpOffsetCmd = redis.NewScript(`
if KEYS[1] ~= '' then
  redis.call("xadd", KEYS[1], "*", "d", ARGV[2])
end
return redis.call("hincrby", ARGV[1], "s", 1)
`)

func bumpOffset(ctx context.Context, rdb *redis.ClusterClient, ch string, data []byte, stream bool) error {
	var streamKey string
	if stream {
		streamKey = "cf:{" + ch + "}:stream"
	}
	return bumpOffsetCmd.Run(ctx, rdb, []string{streamKey}, "cf:{"+ch+"}:meta", data).Err() // want `script bumpOffsetCmd line 5: redis.call\("hincrby", ARGV\[1\], "s", 1\) touches a key not declared in KEYS: ARGV\[1\]; it keeps the hashtag "{<ch>}" of KEYS\[1\]` `ARGV\[1\] \("cf:{<ch>}:meta"\) is used as a key`
}

// Origin: centrifugal/centrifuge (broker_redis_scripts.go, broker_redis.go):
// a script joined from two //go:embed files, a function and its caller, and
// run with the result key and a second key that only routes the call, the
// result key with ".route" appended (idempotentRouteKey), which the script
// never reads.
var (
	//go:embed lua/idem_fn.lua
	idemFnSource string

	//go:embed lua/idem_call.lua
	idemCallSource string

	//go:embed lua/idem_call_bad.lua
	idemCallBadSource string
)

var (
	publishIdempotentSource    = idemFnSource + "\n" + idemCallSource
	publishIdempotentBadSource = idemFnSource + "\n" + idemCallBadSource

	publishIdempotent    = redis.NewScript(publishIdempotentSource)
	publishIdempotentBad = redis.NewScript(publishIdempotentBadSource)
)

func resultKey(ch, id string) string { return "cf.result.{" + ch + "}." + id }

func routeKey(result string) string { return result + ".route" }

func idempotentPublish(ctx context.Context, rdb *redis.ClusterClient, ch, id string, data []byte) error {
	rk := resultKey(ch, id)
	return publishIdempotent.Run(ctx, rdb, []string{rk, routeKey(rk)}, data, ch).Err()
}

// The bad forms: a second key that is not the result key's, and a caller
// that hands the function a key of its own.
func idempotentPublishOtherKey(ctx context.Context, rdb *redis.ClusterClient, ch, id string, data []byte) error {
	rk := resultKey(ch, id)
	return publishIdempotent.Run(ctx, rdb, []string{rk, "cf.result.{" + ch + "}.route"}, data, ch).Err() // want `script publishIdempotentSource: the call passes 2 keys but the script never reads KEYS\[2\] \("cf.result.{<ch>}.route"\)`
}

func idempotentPublishBad(ctx context.Context, rdb *redis.ClusterClient, ch, id string, data []byte) error {
	return publishIdempotentBad.Run(ctx, rdb, []string{resultKey(ch, id)}, data, ch).Err() // want `script publishIdempotentBadSource line 4: redis.call\("hget", result_key, "e"\) touches a key not declared in KEYS: result_key holds the string literal "cf.result.last"` `script publishIdempotentBadSource line 8: redis.call\("hset", result_key, "e", "1"\) touches a key not declared in KEYS` `script publishIdempotentBadSource: the call passes 1 key but the script never reads KEYS\[1\]`
}

// Origin: centrifugal/centrifuge (broker_redis.go, addHistory): the script
// is a variable set to the list script in one branch and to the stream
// script in the other; the call is checked against each.
type historyBroker struct {
	rdb        *redis.ClusterClient
	useLists   bool
	listScript *redis.Script
	streamAdd  *redis.Script
	badScript  *redis.Script
}

func newHistoryBroker(rdb *redis.ClusterClient) *historyBroker {
	return &historyBroker{
		rdb:        rdb,
		listScript: redis.NewScript(`redis.call("rpush", KEYS[1], ARGV[1]); return redis.call("hincrby", KEYS[2], "s", 1)`),
		streamAdd:  redis.NewScript(`redis.call("xadd", KEYS[1], "*", "d", ARGV[1]); return redis.call("hincrby", KEYS[2], "s", 1)`),
		badScript:  redis.NewScript(`redis.call("xadd", KEYS[1], "*", "d", ARGV[1]); return redis.call("hincrby", "cf.history.meta", "s", 1)`),
	}
}

func (b *historyBroker) add(ctx context.Context, ch string, data []byte) error {
	var script *redis.Script
	if b.useLists {
		script = b.listScript
	} else {
		script = b.streamAdd
	}
	return script.Run(ctx, b.rdb, []string{"cf.history.{" + ch + "}", "cf.meta.{" + ch + "}"}, data).Err()
}

func (b *historyBroker) addBad(ctx context.Context, ch string, data []byte) error {
	script := b.listScript
	if !b.useLists {
		script = b.badScript
	}
	return script.Run(ctx, b.rdb, []string{"cf.history.{" + ch + "}", "cf.meta.{" + ch + "}"}, data).Err() // want `script badScript line 1: redis.call\("hincrby", "cf.history.meta", "s", 1\) touches a key not declared in KEYS: the string literal "cf.history.meta"` `script badScript: the call passes 2 keys but the script never reads KEYS\[2\]`
}
