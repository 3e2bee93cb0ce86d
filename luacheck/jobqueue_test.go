package luacheck

import (
	"fmt"
	"testing"

	"github.com/slotlint/slotlint/keyspace"
)

// The scripts of a job queue, each in a version that breaks on Redis
// Cluster and one that keeps every key declared and in one slot.

const enqueueBad = `-- enqueue: KEYS[1] the pending list; ARGV[1] the job id, ARGV[2] the payload
local pending = KEYS[1]
redis.call('HSET', 'emq:{orders}:job:' .. ARGV[1], 'payload', ARGV[2])
redis.call('LPUSH', pending, ARGV[1])
redis.call('SADD', 'emq:queues', 'orders')
return 1
`

const enqueueGood = `local pending, job, queues = KEYS[1], KEYS[2], KEYS[3]
redis.call('HSET', job, 'payload', ARGV[2])
redis.call('LPUSH', pending, ARGV[1])
redis.call('SADD', queues, 'orders')
return 1
`

const claimBad = `#!lua
-- claim: move the oldest job to the active list and lease it
local id = redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
if not id then
  return false
end
redis.call('ZADD', KEYS[3], ARGV[1], id)
return redis.call('HGETALL', 'emq:{orders}:job:' .. id)
`

const claimGood = `#!lua
local id = redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
if not id then
  return false
end
redis.call('ZADD', KEYS[3], ARGV[1], id)
return redis.call('HGET', KEYS[4], id)
`

const completeBad = `local removed = redis.call('LREM', KEYS[1], 1, ARGV[1])
if removed == 0 then
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', 'emq:{orders}:job:' .. ARGV[1])
redis.call('INCR', 'emq:stats:processed')
return removed
`

const completeGood = `local removed = redis.call('LREM', KEYS[1], 1, ARGV[1])
if removed == 0 then
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
redis.call('INCR', KEYS[4])
return removed
`

const retryBad = `local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local delay = tonumber(ARGV[2]) * 2 ^ attempts
redis.call('LREM', KEYS[2], 1, ARGV[1])
redis.call('ZADD', ARGV[3], tonumber(ARGV[4]) + delay, ARGV[1])
return attempts
`

const retryGood = `local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local delay = tonumber(ARGV[2]) * 2 ^ attempts
redis.call('LREM', KEYS[2], 1, ARGV[1])
redis.call('ZADD', KEYS[3], tonumber(ARGV[3]) + delay, ARGV[1])
return attempts
`

const archiveBad = `#!lua flags=no-writes
local job = KEYS[1]
server.call('LREM', KEYS[2], 1, ARGV[1])
server.call('ZADD', 'emq:dead', ARGV[2], ARGV[1])
server.call('HSET', job, 'state', 'dead')
return 1
`

const archiveGood = `#!lua
local job = KEYS[1]
server.call('LREM', KEYS[2], 1, ARGV[1])
server.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
server.call('HSET', job, 'state', 'dead')
return 1
`

const listServersBad = `#!lua flags=no-writes,allow-stale
local out = {}
local names = redis.call('SMEMBERS', KEYS[1])
for _, name in ipairs(names) do
  out[#out + 1] = redis.call('HGETALL', 'emq:server:' .. name)
end
return out
`

const listServersGood = `#!lua flags=no-writes,allow-stale
local out = {}
for i, key in ipairs(KEYS) do
  out[i] = redis.call('HGETALL', key)
end
return out
`

var (
	ordersPending = "emq:{orders}:pending"
	ordersActive  = "emq:{orders}:active"
	ordersLeases  = "emq:{orders}:leases"
	ordersJob     = "emq:{orders}:job:42"
)

func TestJobQueue(t *testing.T) {
	works := "it keeps the hashtag \"{orders}\" of KEYS[1], so it works on Redis Cluster but breaks cluster proxies and the rule that every key is declared"
	runCases(t, []checkCase{
		{
			name: "enqueue/bad",
			src:  enqueueBad,
			call: keysCall(ordersPending),
			want: []want{
				{cat: CategoryUndeclaredKeySameSlot, line: 3, col: 1, exact: `script enqueueBadScript line 3: redis.call("HSET", "emq:{orders}:job:" .. ARGV[1], "payload", ARGV[2]) touches a key not declared in KEYS: the concatenation "emq:{orders}:job:" .. ARGV[1]; ` + works + `; pass it in KEYS`},
				{cat: CategoryUndeclaredKey, line: 5, col: 1, exact: `script enqueueBadScript line 5: redis.call("SADD", "emq:queues", "orders") touches a key not declared in KEYS: the string literal "emq:queues"; it is wrong on Redis Cluster too (slot 8388 vs hashtag "{orders}" of KEYS[1]): without a shebang, Redis 7 runs it only while both slots are on one node; pass it in KEYS`},
			},
		},
		{
			name: "enqueue/bad/static",
			src:  enqueueBad,
			call: Call{Keys: []keyspace.Key{sym("emq:{<queue>}:pending")}, KnownKeyCount: true},
			want: []want{
				w(CategoryUndeclaredKey, 3, 1, `it may be in another slot than KEYS[1] (hashtag "{orders}" vs hashtag "{<queue>}" of KEYS[1])`),
				w(CategoryUndeclaredKey, 5, 1, `it may be in another slot than KEYS[1] (slot 8388 vs hashtag "{<queue>}" of KEYS[1])`),
			},
		},
		{
			name: "enqueue/good",
			src:  enqueueGood,
			call: keysCall(ordersPending, ordersJob, "emq:{orders}:queues"),
		},
		{
			name: "enqueue/good/static",
			src:  enqueueGood,
			call: Call{Keys: []keyspace.Key{sym("emq:{<queue>}:pending"), sym("emq:{<queue>}:job:<id>"), sym("emq:{<queue>}:queues")}, KnownKeyCount: true},
		},
		{
			name: "claim/bad",
			src:  claimBad,
			call: keysCall(ordersPending, ordersActive, ordersLeases),
			want: []want{
				{cat: CategoryUndeclaredKeySameSlot, line: 8, col: 8, exact: `script claimBadScript line 8: redis.call("HGETALL", "emq:{orders}:job:" .. id) touches a key not declared in KEYS: the concatenation "emq:{orders}:job:" .. <value read from Redis at line 3>; ` + works + `; pass it in KEYS (read it in an earlier call if need be)`},
			},
		},
		{
			name: "claim/bad/unknown keys",
			src:  claimBad,
			want: []want{
				w(CategoryUndeclaredKey, 8, 8, `it may be in another slot than KEYS[1] (hashtag "{orders}" vs unknown hashtag of KEYS[1]), which is wrong on Redis Cluster too: with its shebang, Redis 7 fails the script if it does`),
			},
		},
		{
			name: "claim/good",
			src:  claimGood,
			call: keysCall(ordersPending, ordersActive, ordersLeases, "emq:{orders}:jobs"),
		},
		{
			name: "claim/good/cross slot",
			src:  claimGood,
			call: keysCall(ordersPending, ordersActive, ordersLeases, "emq:jobs"),
			want: []want{
				{cat: CategoryCrossSlot, exact: fmt.Sprintf(`script claimGoodCrossSlotScript: KEYS[1] and KEYS[4] must share a slot, but keys "emq:{orders}:pending" (slot 105) and "emq:jobs" (slot %d) hash to different slots, so Redis Cluster fails the call with CROSSSLOT; give them a common hashtag such as "{orders}"`, slotOf("emq:jobs"))},
			},
		},
		{
			name: "complete/bad",
			src:  completeBad,
			call: runtimeCall([]string{ordersActive, ordersLeases}, "42"),
			want: []want{
				w(CategoryUndeclaredKeySameSlot, 6, 1, `redis.call("DEL", "emq:{orders}:job:" .. ARGV[1]) touches a key not declared in KEYS: the concatenation "emq:{orders}:job:" .. ARGV[1]; `+works),
				w(CategoryUndeclaredKey, 7, 1, `the string literal "emq:stats:processed"; it is wrong on Redis Cluster too (slot 9856 vs hashtag "{orders}" of KEYS[1])`),
			},
		},
		{
			name: "complete/good",
			src:  completeGood,
			call: runtimeCall([]string{ordersActive, ordersLeases, ordersJob, "emq:{orders}:stats:processed"}, "42"),
		},
		{
			name: "retry/bad",
			src:  retryBad,
			call: runtimeCall([]string{ordersJob, ordersActive}, "42", "1000", "emq:{orders}:scheduled", "1700000000"),
			want: []want{
				{cat: CategoryUndeclaredKeySameSlot, line: 4, col: 1, exact: `script retryBadScript line 4: redis.call("ZADD", ARGV[3], tonumber(ARGV[4]) + delay, ARGV[1]) touches a key not declared in KEYS: ARGV[3]; ` + works + `; pass it in KEYS, not in ARGV`},
				{cat: CategoryArity, line: 4, col: 1, exact: `script retryBadScript line 4: ARGV[3] ("emq:{orders}:scheduled") is used as a key by redis.call("ZADD", ARGV[3], tonumber(ARGV[4]) + delay, ARGV[1]), so the caller passes a key in ARGV; pass it in KEYS`},
			},
		},
		{
			name: "retry/bad/other slot",
			src:  retryBad,
			call: runtimeCall([]string{ordersJob, ordersActive}, "42", "1000", "emq:scheduled", "1700000000"),
			want: []want{
				w(CategoryUndeclaredKey, 4, 1, fmt.Sprintf(`ARGV[3]; it is wrong on Redis Cluster too (slot %d vs hashtag "{orders}" of KEYS[1])`, slotOf("emq:scheduled"))),
				w(CategoryArity, 4, 1, `ARGV[3] ("emq:scheduled") is used as a key`),
			},
		},
		{
			name: "retry/good",
			src:  retryGood,
			call: runtimeCall([]string{ordersJob, ordersActive, "emq:{orders}:scheduled"}, "42", "1000", "1700000000"),
		},
		{
			name: "archive/bad",
			src:  archiveBad,
			call: keysCall(ordersJob, ordersActive),
			want: []want{
				{cat: CategoryFlags, line: 3, col: 1, exact: `script archiveBadScript line 3: server.call("LREM", KEYS[2], 1, ARGV[1]) writes, but the shebang has flags=no-writes, so Redis 7 fails it ("Write commands are not allowed from read-only scripts"); drop no-writes or the write`},
				w(CategoryFlags, 4, 1, `server.call("ZADD", "emq:dead", ARGV[2], ARGV[1]) writes`),
				{cat: CategoryUndeclaredKey, line: 4, col: 1, exact: `script archiveBadScript line 4: server.call("ZADD", "emq:dead", ARGV[2], ARGV[1]) touches a key not declared in KEYS: the string literal "emq:dead"; it is wrong on Redis Cluster too (slot 8683 vs hashtag "{orders}" of KEYS[1]): with its shebang, Redis 7 fails the script on it; pass it in KEYS`},
				w(CategoryFlags, 5, 1, `server.call("HSET", job, "state", "dead") writes`),
			},
		},
		{
			name: "archive/good",
			src:  archiveGood,
			call: keysCall(ordersJob, ordersActive, "emq:{orders}:dead"),
		},
		{
			name: "list servers/bad",
			src:  listServersBad,
			call: keysCall("emq:servers"),
			want: []want{
				w(CategoryUndeclaredKey, 5, 19, `redis.call("HGETALL", "emq:server:" .. name) touches a key not declared in KEYS: the concatenation "emq:server:" .. <value read from Redis at line 3>; it may be in another slot than KEYS[1] (unknown hashtag vs slot 8082 of KEYS[1]), which is wrong on Redis Cluster too: with its shebang, Redis 7 fails the script if it does; pass it in KEYS (read it in an earlier call if need be)`),
			},
		},
		{
			name: "list servers/good",
			src:  listServersGood,
			call: keysCall("emq:{servers}:a", "emq:{servers}:b", "emq:{servers}:c"),
		},
		{
			name: "list servers/good/cross slot",
			src:  listServersGood,
			call: keysCall("emq:server:a", "emq:server:b"),
			want: []want{w(CategoryCrossSlot, 0, 0, `KEYS[1] and KEYS[2] must share a slot, but keys "emq:server:a"`)},
		},
	})
}
