// Package functions calls Redis 7 functions of job-queue libraries.
package functions

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// queueLib registers its functions in both forms of redis.register_function.
// enqueue touches a set it was never given in keys; stats writes though it
// is registered with no-writes.
const queueLib = `#!lua name=emq
local function enqueue(keys, args)
  redis.call('HSET', keys[1], 'payload', args[2])
  redis.call('LPUSH', keys[2], args[1])
  redis.call('SADD', 'emq:queues', args[3])
  return 1
end

redis.register_function('enqueue', enqueue)
redis.register_function('claim', function(keys, args)
  local id = redis.call('RPOPLPUSH', keys[1], keys[2])
  if not id then return false end
  redis.call('ZADD', keys[3], args[1], id)
  return id
end)
redis.register_function{
  function_name = 'stats',
  callback = function(keys)
    redis.call('INCR', keys[1])
    return redis.call('LLEN', keys[2])
  end,
  flags = {'no-writes'},
}
redis.register_function{function_name='peek', callback=function(keys) return redis.call('LINDEX', keys[1], 0) end, flags={'no-writes'}}
redis.register_function{function_name='local_only', callback=function(keys) return redis.call('GET', keys[1]) end, flags={'no-cluster'}}
`

// brokenLib does not parse.
const brokenLib = `#!lua name=broken
redis.register_function('f', function(keys)
  return redis.call('GET', keys[1]
end)
`

// unnamedLib lacks the "#!lua name=" line.
const unnamedLib = `redis.register_function('g', function(keys) return redis.call('GET', keys[1]) end)
`

func load(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.FunctionLoadReplace(ctx, queueLib)
	rdb.FunctionLoad(ctx, brokenLib)            // want `library brokenLib line 4: syntax error at column 1`
	rdb.Do(ctx, "FUNCTION", "LOAD", unnamedLib) // want `library unnamedLib line 1: the library has no "#!lua name=" line, so Redis 7 refuses it`
}

func enqueue(ctx context.Context, rdb *redis.ClusterClient, name, id string) {
	rdb.FCall(ctx, "enqueue", []string{"emq:{" + name + "}:job:" + id, "emq:{" + name + "}:pending"}, id, "{}", name) // want `function enqueue line 5: redis.call\("SADD", "emq:queues", args\[3\]\) touches a key not declared in keys`
}

func claim(ctx context.Context, rdb *redis.ClusterClient, name string) {
	rdb.FCall(ctx, "claim", []string{"emq:{" + name + "}:pending", "emq:{" + name + "}:active"}, "100") // want `function claim line 13: keys\[3\] is nil: the call passes 2 keys; pass the key in keys`
	rdb.FCall(ctx, "claim", []string{"emq:{" + name + "}:pending", "emq:{" + name + "}:active", "emq:{" + name + "}:leases"}, "100")
	rdb.FCall(ctx, "claim", []string{"emq:{" + name + "}:pending", "emq:active", "emq:{" + name + "}:leases"}, "100") // want `FCALL keys .* may hash to different slots`
	rdb.Do(ctx, "FCALL", "claim", 3, "emq:{"+name+"}:pending", "emq:{"+name+"}:active", "emq:{"+name+"}:leases", "100")
}

func stats(ctx context.Context, rdb *redis.ClusterClient, name string) {
	rdb.FCallRO(ctx, "stats", []string{"emq:{" + name + "}:stats", "emq:{" + name + "}:pending"}) // want `function stats line 19: redis.call\("INCR", keys\[1\]\) writes, but the function is registered with the flag no-writes`
}

func peek(ctx context.Context, rdb *redis.ClusterClient, name string) {
	rdb.FCallRO(ctx, "peek", []string{"emq:{" + name + "}:pending"})
	rdb.FCallRO(ctx, "peek", []string{"emq:{" + name + "}:pending", "emq:{" + name + "}:active"}) // want `function peek: the call passes 2 keys but the function never reads keys\[2\]`
}

func localOnly(ctx context.Context, rdb *redis.ClusterClient, single *redis.Client, name string) {
	single.FCall(ctx, "local_only", []string{"emq:{" + name + "}:pending"})
	rdb.FCall(ctx, "local_only", []string{"emq:{" + name + "}:pending"}) // want `function local_only line 25: the function is registered with the flag no-cluster`
}

func enqueueRO(ctx context.Context, rdb *redis.ClusterClient, name string) {
	rdb.FCallRO(ctx, "claim", []string{"emq:{" + name + "}:pending", "emq:{" + name + "}:active", "emq:{" + name + "}:leases"}, "100") // want `function claim line 10: the function runs with FCALL_RO, but it is registered without the flag no-writes`
}

// unknown is not registered by any library of the package: nothing to check.
func unknown(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.FCall(ctx, "elsewhere", []string{"a"})
}
