// Package radixv3 uses radix v3 (github.com/mediocregopher/radix/v3):
// commands are Action values built by radix.Cmd and radix.FlatCmd and sent
// by Do; a transaction is MULTI, its commands and EXEC sent on the Conn
// that radix.WithConn hands its function.
//
// The transaction is reduced from conthing/hetu-core (redis/redis.go:
// Client.Do(radix.WithConn(key, func(c radix.Conn) error { c.Do(radix.Cmd(nil,
// "MULTI")); c.Do(radix.FlatCmd(nil, "HMSET", key, node)); c.Do(radix.Cmd(nil,
// "SADD", "ZigbeeNodeSet", key)); c.Do(radix.Cmd(&result, "EXEC")) }))), and
// the script from the numKeys-first scripts of radix's own documentation;
// written anew, each cross-slot form followed by its hashtagged fix.
package radixv3

import (
	"github.com/mediocregopher/radix/v3"
)

func rename(c radix.Client, id string) error {
	c.Do(radix.Cmd(nil, "RENAME", "tmp:user:123:cache", "user:123:cache")) // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	c.Do(radix.Cmd(nil, "RENAME", "tmp:{user:123}:cache", "{user:123}:cache"))
	c.Do(radix.Cmd(nil, "RENAME", "session:"+id, "session:"+id+":old")) // want `RENAME keys "session:<id>" .* and "session:<id>:old" .* may hash to different slots`
	return c.Do(radix.Cmd(nil, "RENAME", "session:{"+id+"}", "session:{"+id+"}:old"))
}

func multiKey(c *radix.Cluster) {
	var vals []string
	c.Do(radix.Cmd(&vals, "MGET", "cart:1", "cart:2")) // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	c.Do(radix.Cmd(&vals, "MGET", "cart:{1}:items", "cart:{1}:total"))
	// FlatCmd's key and the scalar arguments after it are placed.
	c.Do(radix.FlatCmd(nil, "MSET", "price:1", 10, "price:2", 20)) // want `MSET keys "price:1" .* and "price:2" .* hash to different slots`
	c.Do(radix.FlatCmd(nil, "MSET", "price:{1}:net", 10, "price:{1}:gross", 20))
	// A map is flattened into as many arguments as it holds: where the
	// arguments after it fall is unknown, so they are not taken as keys.
	c.Do(radix.FlatCmd(nil, "MSET", "price:3", map[string]int{"a": 1}, "price:4", 40))
}

type node struct {
	Eui64 uint64
	Name  string
}

func saveNode(c radix.Client, key string, n *node) error {
	return c.Do(radix.WithConn(key, func(conn radix.Conn) error {
		if err := conn.Do(radix.Cmd(nil, "MULTI")); err != nil { // want `MULTI/EXEC transaction keys "node:<key>" .* and "nodes" .* may hash to different slots`
			return err
		}
		if err := conn.Do(radix.FlatCmd(nil, "HMSET", "node:"+key, n)); err != nil {
			return err
		}
		if err := conn.Do(radix.Cmd(nil, "SADD", "nodes", key)); err != nil {
			return err
		}
		return conn.Do(radix.Cmd(nil, "EXEC"))
	}))
}

func saveNodeFixed(c radix.Client, key string, n *node) error {
	return c.Do(radix.WithConn(key, func(conn radix.Conn) error {
		if err := conn.Do(radix.Cmd(nil, "MULTI")); err != nil {
			return err
		}
		if err := conn.Do(radix.FlatCmd(nil, "HMSET", "{nodes}:"+key, n)); err != nil {
			return err
		}
		if err := conn.Do(radix.Cmd(nil, "SADD", "{nodes}", key)); err != nil {
			return err
		}
		return conn.Do(radix.Cmd(nil, "EXEC"))
	}))
}

// WATCH on the same Conn, then MULTI/EXEC: a check-and-set.
func incr(c radix.Client) error {
	return c.Do(radix.WithConn("counter", func(conn radix.Conn) error {
		if err := conn.Do(radix.Cmd(nil, "WATCH", "counter", "counter:log")); err != nil { // want `WATCH keys "counter" .* and "counter:log" .* hash to different slots`
			return err
		}
		var n int
		if err := conn.Do(radix.Cmd(&n, "GET", "counter")); err != nil {
			return err
		}
		conn.Do(radix.Cmd(nil, "MULTI")) // want `MULTI/EXEC transaction keys "counter" .* and "counter:log" .* hash to different slots`
		conn.Do(radix.FlatCmd(nil, "SET", "counter", n+1))
		return conn.Do(radix.Cmd(nil, "EXEC"))
	}))
}

func incrFixed(c radix.Client) error {
	return c.Do(radix.WithConn("{counter}", func(conn radix.Conn) error {
		if err := conn.Do(radix.Cmd(nil, "WATCH", "{counter}", "{counter}:log")); err != nil {
			return err
		}
		var n int
		if err := conn.Do(radix.Cmd(&n, "GET", "{counter}")); err != nil {
			return err
		}
		conn.Do(radix.Cmd(nil, "MULTI"))
		conn.Do(radix.FlatCmd(nil, "SET", "{counter}", n+1))
		return conn.Do(radix.Cmd(nil, "EXEC"))
	}))
}

var moveScript = radix.NewEvalScript(2, `
local v = redis.call('GET', KEYS[1])
redis.call('SET', 'audit:last', v)
return redis.call('SET', KEYS[2], v)
`)

var moveFixed = radix.NewEvalScript(2, `
local v = redis.call('GET', KEYS[1])
return redis.call('SET', KEYS[2], v)
`)

func scripts(c radix.Client, id string) {
	c.Do(moveScript.Cmd(nil, "job:{"+id+"}:a", "job:{"+id+"}:b", "arg")) // want `script moveScript line 3: .*"audit:last".* not declared in KEYS`
	c.Do(moveFixed.Cmd(nil, "job:{"+id+"}:a", "job:{"+id+"}:b", "arg"))
	c.Do(moveFixed.Cmd(nil, "job:a", "job:b", "arg"))           // want `EVALSHA keys "job:a" .* and "job:b" .* hash to different slots`
	c.Do(moveFixed.FlatCmd(nil, []string{"job:a", "job:b"}, 1)) // want `EVALSHA keys "job:a" .* and "job:b" .* hash to different slots`
	c.Do(moveFixed.FlatCmd(nil, []string{"job:{" + id + "}:a", "job:{" + id + "}:b"}, 1))
}
