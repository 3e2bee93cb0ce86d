// Package redigo sends raw commands with redigo, as a cluster layer such as
// redisc hands out redis.Conn values.
//
// The transaction is reduced from GANDUWARD/GoWeb- (redis5/redis5.go:
// Send("MULTI"), Send("INCR", ...), Do("EXEC")), written anew; each
// cross-slot form is followed by its hashtagged fix.
package redigo

import (
	"github.com/gomodule/redigo/redis"
)

func rename(c redis.Conn, id string) {
	c.Do("RENAME", "tmp:user:123:cache", "user:123:cache") // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	c.Do("RENAME", "tmp:{user:123}:cache", "{user:123}:cache")
	c.Send("RENAME", "session:"+id, "session:"+id+":old") // want `RENAME keys "session:<id>" .* and "session:<id>:old" .* may hash to different slots`
	c.Send("RENAME", "session:{"+id+"}", "session:{"+id+"}:old")
}

func mget(c redis.Conn) {
	redis.Strings(c.Do("MGET", "cart:1", "cart:2")) // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	redis.Strings(c.Do("MGET", "cart:{1}:items", "cart:{1}:total"))
}

func counters(c redis.Conn) (any, error) {
	c.Send("MULTI") // want `MULTI/EXEC transaction keys "foo" .* and "bar" .* hash to different slots`
	c.Send("INCR", "foo")
	c.Send("INCR", "bar")
	return c.Do("EXEC")
}

func countersFixed(c redis.Conn) (any, error) {
	c.Send("MULTI")
	c.Send("INCR", "{stats}:foo")
	c.Send("INCR", "{stats}:bar")
	return c.Do("EXEC")
}

// Between transactions, commands on the same connection are free to use
// any slot.
func outside(c redis.Conn) {
	c.Do("SET", "a", "1")
	c.Do("SET", "b", "1")
}

var moveScript = redis.NewScript(2, `
local v = redis.call('GET', KEYS[1])
redis.call('SET', 'audit:last', v)
return redis.call('SET', KEYS[2], v)
`)

var moveFixed = redis.NewScript(2, `
local v = redis.call('GET', KEYS[1])
return redis.call('SET', KEYS[2], v)
`)

func scripts(c redis.Conn, id string) {
	moveScript.Do(c, "job:{"+id+"}:a", "job:{"+id+"}:b", "arg") // want `script moveScript line 3: .*"audit:last".* not declared in KEYS`
	moveFixed.Do(c, "job:{"+id+"}:a", "job:{"+id+"}:b", "arg")
	moveFixed.Do(c, "job:a", "job:b", "arg")       // want `EVALSHA keys "job:a" .* and "job:b" .* hash to different slots`
	moveFixed.SendHash(c, "job:a", "job:b", "arg") // want `EVALSHA keys "job:a" .* and "job:b" .* hash to different slots`
	moveFixed.Send(c, "job:a", "job:b", "arg")     // want `EVAL keys "job:a" .* and "job:b" .* hash to different slots`
}

// A check-and-set as redigo's documentation shows it: WATCH, read, MULTI,
// write, EXEC on one connection. The write fails if the key changed.
func incr(c redis.Conn, k string) error {
	c.Do("WATCH", k)
	v, err := redis.Int(c.Do("GET", k))
	if err != nil {
		return err
	}
	c.Send("MULTI")
	c.Send("SET", k, v+1)
	_, err = c.Do("EXEC")
	return err
}

// The same without WATCH loses updates.
func incrLost(c redis.Conn, k string) error {
	v, err := redis.Int(c.Do("GET", k))
	if err != nil {
		return err
	}
	_, err = c.Do("SET", k, v+1) // want `SET "<k>" writes a value computed from GET "<k>" at line \d+, with no WATCH around them`
	return err
}
