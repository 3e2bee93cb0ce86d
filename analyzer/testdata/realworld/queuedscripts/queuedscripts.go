// Package queuedscripts queues scripts with their arguments in a
// transaction and sends them all in one loop, after albrow/jobs
// (transaction.go, scripts.go): the loop runs whatever script an action
// holds, so no run names a script. A script's keys that are not in KEYS
// are wrong wherever it runs: they are reported where the script is made.
package queuedscripts

import "github.com/gomodule/redigo/redis"

// The job's hash and the status set, both built in the script from ARGV,
// one from a value it reads.
const setStatusLua = `
local jobKey = 'jobs:' .. ARGV[1]
local old = redis.call('HGET', jobKey, 'status')
redis.call('ZREM', 'jobs:' .. old, ARGV[1])
redis.call('ZADD', 'jobs:' .. ARGV[2], 0, ARGV[1])
redis.call('HSET', jobKey, 'status', ARGV[2])`

// Fixed: the job's hash and both status sets are passed in KEYS, under
// the job's hashtag.
const setStatusFixedLua = `
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], 0, ARGV[1])
redis.call('HSET', KEYS[1], 'status', ARGV[2])`

var (
	setStatusScript      = redis.NewScript(0, setStatusLua) // want `script setStatusLua line 3: redis.call\("HGET", jobKey, "status"\) touches a key not declared in KEYS: jobKey holds the concatenation "jobs:" .. ARGV\[1\]` `script setStatusLua line 4: redis.call\("ZREM", "jobs:" .. old, ARGV\[1\]\) touches a key not declared in KEYS` `script setStatusLua line 5: redis.call\("ZADD", "jobs:" .. ARGV\[2\], 0, ARGV\[1\]\) touches a key not declared in KEYS` `script setStatusLua line 6: redis.call\("HSET", jobKey, "status", ARGV\[2\]\) touches a key not declared in KEYS`
	setStatusFixedScript = redis.NewScript(3, setStatusFixedLua)
)

type action struct {
	name   string
	script *redis.Script
	args   redis.Args
}

type transaction struct {
	conn    redis.Conn
	actions []*action
}

func (t *transaction) command(name string, args redis.Args) {
	t.actions = append(t.actions, &action{name: name, args: args})
}

func (t *transaction) script(script *redis.Script, args redis.Args) {
	t.actions = append(t.actions, &action{script: script, args: args})
}

func (t *transaction) send(a *action) error {
	if a.script != nil {
		return a.script.Send(t.conn, a.args...)
	}
	return t.conn.Send(a.name, a.args...)
}

func (t *transaction) exec() error {
	defer t.conn.Close()
	if err := t.conn.Send("MULTI"); err != nil {
		return err
	}
	for _, a := range t.actions {
		if err := t.send(a); err != nil {
			return err
		}
	}
	_, err := t.conn.Do("EXEC")
	return err
}

func SetStatus(conn redis.Conn, id, old, status string) error {
	t := &transaction{conn: conn}
	t.script(setStatusScript, redis.Args{id, status})
	return t.exec()
}

func SetStatusFixed(conn redis.Conn, id, old, status string) error {
	t := &transaction{conn: conn}
	t.script(setStatusFixedScript, redis.Args{}.Add("{job:"+id+"}", "{job:"+id+"}:"+old, "{job:"+id+"}:"+status, id, status))
	return t.exec()
}
