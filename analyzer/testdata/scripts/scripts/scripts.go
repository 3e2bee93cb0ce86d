// Package scripts runs Lua scripts modelled on a job queue.
package scripts

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// enqueueScript adds a job to its queue and registers the queue in a set of
// all queues, which it was never given in KEYS.
const enqueueScript = `
local id = ARGV[1]
redis.call("HSET", KEYS[1], "payload", ARGV[2])
redis.call("LPUSH", KEYS[2], id)
redis.call("SADD", "emq:queues", ARGV[3])
return 1
`

// enqueueFixed declares every key it touches.
const enqueueFixed = `
redis.call("HSET", KEYS[1], "payload", ARGV[2])
redis.call("LPUSH", KEYS[2], ARGV[1])
redis.call("SADD", KEYS[3], ARGV[3])
return 1
`

var claimScript = redis.NewScript(`
local id = redis.call("RPOP", KEYS[1])
if not id then return nil end
redis.call("LPUSH", KEYS[2], id)
redis.call("HSET", "emq:{" .. ARGV[1] .. "}:job:" .. id, "state", "active")
return id
`)

var completeScript = redis.NewScript(`
redis.call("LREM", KEYS[1], 1, ARGV[1])
redis.call("DEL", KEYS[2])
return 1
`)

const brokenSrc = `
redis.call("LPUSH", KEYS[1], ARGV[1]
`

var broken = redis.NewScript(brokenSrc) // want `script brokenSrc line 2: syntax error at column 37: unexpected end of script`

type queue struct {
	rdb   *redis.ClusterClient
	retry *redis.Script
}

func newQueue(rdb *redis.ClusterClient) *queue {
	return &queue{rdb: rdb, retry: redis.NewScript(`#!lua flags=no-cluster
redis.call("ZADD", KEYS[1], ARGV[1], ARGV[2])
return 1
`)}
}

func (q *queue) enqueue(ctx context.Context, name, id string) {
	q.rdb.Eval(ctx, enqueueScript, []string{"emq:{" + name + "}:job:" + id, "emq:{" + name + "}:pending"}, id, "{}", name) // want `script enqueueScript line 5: .*"emq:queues".* not declared in KEYS`
	q.rdb.Eval(ctx, enqueueFixed, []string{"emq:{" + name + "}:job:" + id, "emq:{" + name + "}:pending", "emq:{" + name + "}:queues"}, id, "{}", name)
}

func (q *queue) claim(ctx context.Context, name string) {
	claimScript.Run(ctx, q.rdb, []string{"emq:{" + name + "}:pending", "emq:{" + name + "}:active"}, name) // want `script claimScript line 5: .*not declared in KEYS`
}

func (q *queue) complete(ctx context.Context, name, id string) {
	completeScript.Run(ctx, q.rdb, []string{"emq:{" + name + "}:active"}, id) // want `script completeScript line 3: .*KEYS\[2\]`
	completeScript.Run(ctx, q.rdb, []string{"emq:{" + name + "}:active", "emq:{" + name + "}:job:" + id}, id)
	completeScript.Run(ctx, q.rdb, []string{"emq:{" + name + "}:active", "emq:job:" + id}, id) // want `EVALSHA keys .* may hash to different slots`
}

func (q *queue) retryLater(ctx context.Context, name string) {
	q.retry.Run(ctx, q.rdb, []string{"emq:{" + name + "}:scheduled"}, 1, "id") // want `no-cluster`
}

func (q *queue) loaded(ctx context.Context, name string) {
	sha, err := q.rdb.ScriptLoad(ctx, enqueueFixed).Result()
	if err != nil {
		return
	}
	q.rdb.EvalSha(ctx, sha, []string{"emq:{" + name + "}:job:1", "emq:{" + name + "}:pending"}, "1", "{}", name) // want `script enqueueFixed line 4: KEYS\[3\]`
	q.rdb.Do(ctx, "EVAL", enqueueScript, 2, "emq:{"+name+"}:job:1", "emq:{"+name+"}:pending", "1", "{}", name)   // want `script enqueueScript line 5: redis.call\("SADD", "emq:queues", ARGV\[3\]\) touches a key not declared in KEYS`
}

func (q *queue) loadedByScript(ctx context.Context, name string) {
	sha := completeScript.Load(ctx, q.rdb).Val()
	q.rdb.EvalSha(ctx, sha, []string{}, "1") // want `script completeScript line 2: KEYS\[1\] is nil` `script completeScript line 3: KEYS\[2\] is nil: the call passes no keys`
}

const countScript = `#!lua flags=no-writes
return redis.call("LLEN", KEYS[1])
`

const bumpScript = `
return redis.call("INCR", KEYS[1])
`

func (q *queue) readOnly(ctx context.Context, name string) {
	q.rdb.EvalRO(ctx, countScript, []string{"emq:{" + name + "}:pending"})
	q.rdb.EvalRO(ctx, bumpScript, []string{"emq:{" + name + "}:count"}) // want `script bumpScript.*(EVAL_RO|read-only|no-writes)`
}

var moveScript = redis.NewScript(`return redis.call("LMOVE", KEYS[1], KEYS[2], "LEFT", "RIGHT")`)

// Keys gathered with var and append are all seen, so the count of KEYS is
// known: here one key for a script that reads two.
func (q *queue) gathered(ctx context.Context, name string) {
	var keys []string
	keys = append(keys, "emq:{"+name+"}:pending")
	moveScript.Run(ctx, q.rdb, keys) // want `script moveScript line 1: KEYS\[2\] is nil`

	var both []string
	both = append(both, "emq:{"+name+"}:pending", "emq:{"+name+"}:active")
	moveScript.Run(ctx, q.rdb, both)
}
