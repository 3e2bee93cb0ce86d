// Package keycounts holds redigo scripts whose key count depends on a
// collection, reduced from gocraft/work: NewScript(len(names)+1, src) or
// NewScript(len(types)*2, src), run with an []interface{} that holds a few
// keys, the keys a loop appends for each element, and then the script's
// ARGV. The first keys are those the count says, so the keys a loop
// builds from one template are checked against each other and against
// the fixed ones.
package keycounts

import (
	"bytes"
	"encoding/json"

	redigo "github.com/gomodule/redigo/redis"
)

// Origin: gocraft/work (redis.go, redisLuaRequeueSingleDeadCmd): a dead
// job goes back to the queue of its name, which the script builds from
// ARGV[1] and pushes to only where it equals one of KEYS.
const requeueSrc = `
local res = redis.call('zrangebyscore', KEYS[1], ARGV[3], ARGV[3], 'LIMIT', 0, 1)
if #res > 0 then
  local j = cjson.decode(res[1])
  redis.call('zrem', KEYS[1], res[1])
  local queue = ARGV[1] .. j['name']
  for _, v in pairs(KEYS) do
    if v == queue then
      redis.call('lpush', queue, cjson.encode(j))
      return 1
    end
  end
end
return 0
`

// Origin: gocraft/work (client.go, Client.RetryDeadJob): the dead set, then
// one queue per job name, then ARGV.
func retryDeadJob(pool *redigo.Pool, ns string, jobNames []string, diedAt int64) error {
	script := redigo.NewScript(len(jobNames)+1, requeueSrc)
	args := make([]interface{}, 0, len(jobNames)+1+2)
	args = append(args, ns+":dead") // KEYS[1]
	for _, name := range jobNames {
		args = append(args, ns+":jobs:"+name) // KEYS[2...]
	}
	args = append(args, ns+":jobs:") // ARGV[1]
	args = append(args, diedAt)
	conn := pool.Get()
	defer conn.Close()
	_, err := script.Do(conn, args...) // want `EVALSHA keys "<ns>:dead" \(hashtag unknown\) and "<ns>:jobs:<name>" \(hashtag unknown\) may hash to different slots`
	return err
}

func retryDeadJobFixed(pool *redigo.Pool, ns string, jobNames []string, diedAt int64) error {
	script := redigo.NewScript(len(jobNames)+1, requeueSrc)
	args := make([]interface{}, 0, len(jobNames)+1+2)
	args = append(args, "{"+ns+"}:dead")
	for _, name := range jobNames {
		args = append(args, "{"+ns+"}:jobs:"+name)
	}
	args = append(args, "{"+ns+"}:jobs:")
	args = append(args, diedAt)
	conn := pool.Get()
	defer conn.Close()
	_, err := script.Do(conn, args...)
	return err
}

// Origin: gocraft/work (client.go, Client.RetryAllDeadJobs): the same
// arguments, sent again and again in a bounded loop.
func retryAllDeadJobs(pool *redigo.Pool, ns string, jobNames []string) error {
	script := redigo.NewScript(len(jobNames)+1, requeueSrc)
	args := []interface{}{ns + ":dead"}
	for _, name := range jobNames {
		args = append(args, ns+":jobs:"+name)
	}
	args = append(args, ns+":jobs:", 0, 0)
	conn := pool.Get()
	defer conn.Close()
	for i := 0; i < 1000; i++ {
		n, err := redigo.Int64(script.Do(conn, args...)) // want `EVALSHA keys "<ns>:dead" \(hashtag unknown\) and "<ns>:jobs:<name>" \(hashtag unknown\) may hash to different slots`
		if err != nil || n == 0 {
			return err
		}
	}
	return nil
}

func retryAllDeadJobsFixed(pool *redigo.Pool, ns string, jobNames []string) error {
	script := redigo.NewScript(len(jobNames)+1, requeueSrc)
	args := []interface{}{"{" + ns + "}:dead"}
	for _, name := range jobNames {
		args = append(args, "{"+ns+"}:jobs:"+name)
	}
	args = append(args, "{"+ns+"}:jobs:", 0, 0)
	conn := pool.Get()
	defer conn.Close()
	for i := 0; i < 1000; i++ {
		n, err := redigo.Int64(script.Do(conn, args...))
		if err != nil || n == 0 {
			return err
		}
	}
	return nil
}

// Origin: gocraft/work (dead_pool_reaper.go, cleanStaleLockInfo): two keys
// for each job type, the count in a variable.
const reapSrc = `
for i = 1, #KEYS, 2 do
  local lock, info = KEYS[i], KEYS[i+1]
  local n = tonumber(redis.call('hget', info, ARGV[1]))
  if n then redis.call('decrby', lock, n) end
  redis.call('hdel', info, ARGV[1])
end
return 0
`

func reapLocks(conn redigo.Conn, ns, poolID string, jobTypes []string) error {
	numKeys := len(jobTypes) * 2
	script := redigo.NewScript(numKeys, reapSrc)
	args := make([]interface{}, 0, numKeys+1)
	for _, jt := range jobTypes {
		args = append(args, ns+":jobs:"+jt+":lock", ns+":jobs:"+jt+":lock_info")
	}
	args = append(args, poolID)
	_, err := script.Do(conn, args...) // want `EVALSHA keys built as "<ns>:jobs:<jt>:lock" from different values may hash to different slots`
	return err
}

func reapLocksFixed(conn redigo.Conn, ns, poolID string, jobTypes []string) error {
	numKeys := len(jobTypes) * 2
	script := redigo.NewScript(numKeys, reapSrc)
	args := make([]interface{}, 0, numKeys+1)
	for _, jt := range jobTypes {
		args = append(args, "{"+ns+"}:jobs:"+jt+":lock", "{"+ns+"}:jobs:"+jt+":lock_info")
	}
	args = append(args, poolID)
	_, err := script.Do(conn, args...)
	return err
}

// Origin: gocraft/work (enqueue.go, Enqueuer.EnqueueUniqueIn): a script
// made with two keys in the constructor and kept in a field; its two keys
// and two ARGV appended one by one. The unique key is written piece by
// piece into a bytes.Buffer (redis.go, redisKeyUniqueJob), the job's
// arguments encoded into it only when there are some.
const uniqueSrc = `
if redis.call('set', KEYS[2], '1', 'NX', 'EX', '86400') then
  redis.call('zadd', KEYS[1], ARGV[2], ARGV[1])
  return 'ok'
end
return 'dup'
`

type enqueuer struct {
	ns     string
	pool   *redigo.Pool
	unique *redigo.Script
}

func newEnqueuer(ns string, pool *redigo.Pool) *enqueuer {
	return &enqueuer{ns: ns, pool: pool, unique: redigo.NewScript(2, uniqueSrc)}
}

func uniqueKey(ns, name string, jobArgs map[string]interface{}) (string, error) {
	var buf bytes.Buffer
	buf.WriteString(ns)
	buf.WriteString(":unique:")
	buf.WriteString(name)
	buf.WriteRune(':')
	if jobArgs != nil {
		if err := json.NewEncoder(&buf).Encode(jobArgs); err != nil {
			return "", err
		}
	}
	return buf.String(), nil
}

func (e *enqueuer) enqueueUniqueIn(name, job string, jobArgs map[string]interface{}, at int64) error {
	unique, err := uniqueKey(e.ns, name, jobArgs)
	if err != nil {
		return err
	}
	args := make([]interface{}, 0, 4)
	args = append(args, e.ns+":scheduled") // KEYS[1]
	args = append(args, unique)            // KEYS[2]
	args = append(args, job, at)           // ARGV
	conn := e.pool.Get()
	defer conn.Close()
	_, err = redigo.String(e.unique.Do(conn, args...)) // want `EVALSHA keys "<e.ns>:scheduled" \(hashtag unknown\) and "<e.ns>:unique:<name>:<buf>" \(hashtag unknown\) may hash to different slots`
	return err
}

func (e *enqueuer) enqueueUniqueInFixed(name, job string, jobArgs map[string]interface{}, at int64) error {
	unique, err := uniqueKey("{"+e.ns+"}", name, jobArgs)
	if err != nil {
		return err
	}
	args := make([]interface{}, 0, 4)
	args = append(args, "{"+e.ns+"}:scheduled")
	args = append(args, unique)
	args = append(args, job, at)
	conn := e.pool.Get()
	defer conn.Close()
	_, err = redigo.String(e.unique.Do(conn, args...))
	return err
}
