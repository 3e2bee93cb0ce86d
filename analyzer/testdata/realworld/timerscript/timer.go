// Package timerscript is reduced from KKKKjl/eTask (timer/timer.go): a
// timer moves the tasks that are due from a delay bucket to the ready
// queue with a script loaded once and run by its digest. It passes the
// time as KEYS[3], which the script reads as a score: on a cluster the
// time hashes to a slot of its own, and the call fails with CROSSSLOT.
package timerscript

import (
	"strconv"
	"time"

	"github.com/go-redis/redis"
)

const moveScript = `
local src = KEYS[1]
local dst = KEYS[2]
local currTime = KEYS[3]

local members = redis.call('ZRANGEBYSCORE', src, 0, currTime)
if #members > 0 then
	for _, member in ipairs(members) do
		redis.call('ZREM', src, member)
		redis.call('LPUSH', dst, member)
	end
	return 1
end
return 0
`

// The fix: the time in ARGV.
const moveScriptFixed = `
local members = redis.call('ZRANGEBYSCORE', KEYS[1], 0, ARGV[1])
for _, member in ipairs(members) do
	redis.call('ZREM', KEYS[1], member)
	redis.call('LPUSH', KEYS[2], member)
end
return #members
`

type timer struct {
	client  *redis.Client
	luaHash string
	fixHash string
}

func newTimer(client *redis.Client) *timer {
	return &timer{
		client:  client,
		luaHash: client.ScriptLoad(moveScript).Val(),
		fixHash: client.ScriptLoad(moveScriptFixed).Val(),
	}
}

func (t *timer) tick() error {
	nowStr := strconv.FormatInt(time.Now().Unix(), 10)
	args := []string{"{delay}:bucket", "{delay}:ready"}
	args = append(args, nowStr)
	// One finding: the keys' slots are judged without the time, whose
	// finding says to move it to ARGV.
	return t.client.EvalSha(t.luaHash, args).Err() // want `script moveScript line 6: KEYS\[3\] \("<strconv.FormatInt\(time.Now\(\).Unix\(\), 10\)>"\) is an argument of redis.call\("ZRANGEBYSCORE", src, 0, currTime\), and no command takes it as a key: the caller passes a value in KEYS`
}

func (t *timer) tickFixed() error {
	nowStr := strconv.FormatInt(time.Now().Unix(), 10)
	return t.client.EvalSha(t.fixHash, []string{"{delay}:bucket", "{delay}:ready"}, nowStr).Err()
}
