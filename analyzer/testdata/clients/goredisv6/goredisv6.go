// Package goredisv6 uses go-redis v6 (github.com/go-redis/redis), whose
// methods take no context: their parameters count from the first one.
//
// The optimistic counter is reduced from LinFengMing/liwenzhou_go_web_advanced_course
// (main.go: rdb.Watch(func(tx *redis.Tx) error { tx.Get(key) ...
// tx.TxPipelined(...) }, key)), written anew; each cross-slot form is
// followed by its hashtagged fix.
package goredisv6

import (
	"github.com/go-redis/redis"
)

func rename(rdb *redis.ClusterClient, id string) {
	rdb.Rename("tmp:user:123:cache", "user:123:cache") // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	rdb.Rename("tmp:{user:123}:cache", "{user:123}:cache")
	rdb.RenameNX("session:"+id, "session:"+id+":old") // want `RENAMENX keys "session:<id>" .* and "session:<id>:old" .* may hash to different slots`
	rdb.RenameNX("session:{"+id+"}", "session:{"+id+"}:old")
}

func multiKey(rdb *redis.ClusterClient) {
	rdb.MGet("cart:1", "cart:2")                    // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	rdb.MSet("price:1", "10", "price:2", "20")      // want `MSET keys "price:1" .* and "price:2" .* hash to different slots`
	rdb.SUnionStore("tags:all", "tags:a", "tags:b") // want `SUNIONSTORE keys "tags:all" .* and "tags:a" .* hash to different slots`
	rdb.Do("RENAME", "queue:in", "queue:out")       // want `RENAME keys "queue:in" .* and "queue:out" .* hash to different slots`
	rdb.MGet("cart:{1}:items", "cart:{1}:total")
	rdb.MSet("price:{1}:net", "10", "price:{1}:gross", "20")
	rdb.SUnionStore("{tags}:all", "{tags}:a", "{tags}:b")
	rdb.Do("RENAME", "{queue}:in", "{queue}:out")
	// A command value: v6's NewCmd takes no ctx, and Process sends it.
	cmd := redis.NewStringSliceCmd("MGET", "cart:1", "cart:2") // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	rdb.Process(cmd)
	rdb.Process(redis.NewStringSliceCmd("MGET", "cart:{1}:items", "cart:{1}:total"))
}

func watchCounter(rdb *redis.Client) error {
	return rdb.Watch(func(tx *redis.Tx) error { // want `WATCH transaction keys "watch_count" .* and "watch_count:log" .* hash to different slots`
		n, err := tx.Get("watch_count").Int64()
		if err != nil && err != redis.Nil {
			return err
		}
		_, err = tx.TxPipelined(func(pipe redis.Pipeliner) error {
			pipe.Set("watch_count", n+1, 0)
			pipe.RPush("watch_count:log", n+1)
			return nil
		})
		return err
	}, "watch_count")
}

func watchCounterFixed(rdb *redis.Client) error {
	return rdb.Watch(func(tx *redis.Tx) error {
		n, err := tx.Get("{watch_count}").Int64()
		if err != nil && err != redis.Nil {
			return err
		}
		_, err = tx.TxPipelined(func(pipe redis.Pipeliner) error {
			pipe.Set("{watch_count}", n+1, 0)
			pipe.RPush("{watch_count}:log", n+1)
			return nil
		})
		return err
	}, "{watch_count}")
}

func txPipelined(rdb *redis.ClusterClient) {
	rdb.TxPipelined(func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "counter:a" .* and "counter:b" .* hash to different slots`
		pipe.Incr("counter:a")
		pipe.Incr("counter:b")
		return nil
	})
	rdb.TxPipelined(func(pipe redis.Pipeliner) error {
		pipe.Incr("{counter}:a")
		pipe.Incr("{counter}:b")
		return nil
	})
}

var moveScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
redis.call('SET', 'audit:last', v)
return redis.call('SET', KEYS[2], v)
`)

var moveFixed = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
return redis.call('SET', KEYS[2], v)
`)

func scripts(rdb *redis.ClusterClient, id string) {
	moveScript.Run(rdb, []string{"job:{" + id + "}:a", "job:{" + id + "}:b"}) // want `script moveScript line 3: .*"audit:last".* not declared in KEYS`
	moveFixed.Run(rdb, []string{"job:{" + id + "}:a", "job:{" + id + "}:b"})
	moveFixed.Run(rdb, []string{"job:a", "job:b"})                                        // want `EVALSHA keys "job:a" .* and "job:b" .* hash to different slots`
	rdb.Eval("return redis.call('RENAME', KEYS[1], KEYS[2])", []string{"job:a", "job:b"}) // want `EVAL keys "job:a" .* and "job:b" .* hash to different slots`
	rdb.Eval("return redis.call('RENAME', KEYS[1], KEYS[2])", []string{"job:{1}:a", "job:{1}:b"})
}
