// Package radixv4 uses radix v4 (github.com/mediocregopher/radix/v4): the
// Actions of v3, sent by Do(ctx, action); an EvalScript takes its keys as a
// []string.
//
// The script call is reduced from goclub/redis's radix driver
// (RedisScript: c.Core.Do(ctx, radix.NewEvalScript(script.Script).Cmd(&data,
// script.Keys, script.Args...))), the transaction from radix's WithConn
// documentation (MULTI, the commands, EXEC on one Conn); written anew, each
// cross-slot form followed by its hashtagged fix.
package radixv4

import (
	"context"

	"github.com/mediocregopher/radix/v4"
)

func rename(ctx context.Context, c radix.MultiClient, id string) error {
	c.Do(ctx, radix.Cmd(nil, "RENAME", "tmp:user:123:cache", "user:123:cache")) // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	c.Do(ctx, radix.Cmd(nil, "RENAME", "tmp:{user:123}:cache", "{user:123}:cache"))
	c.Do(ctx, radix.Cmd(nil, "RENAME", "session:"+id, "session:"+id+":old")) // want `RENAME keys "session:<id>" .* and "session:<id>:old" .* may hash to different slots`
	return c.Do(ctx, radix.Cmd(nil, "RENAME", "session:{"+id+"}", "session:{"+id+"}:old"))
}

func multiKey(ctx context.Context, c *radix.Cluster) {
	var vals []string
	c.Do(ctx, radix.Cmd(&vals, "MGET", "cart:1", "cart:2")) // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	c.Do(ctx, radix.Cmd(&vals, "MGET", "cart:{1}:items", "cart:{1}:total"))
	c.DoSecondary(ctx, radix.Cmd(&vals, "SINTER", "tags:a", "tags:b")) // want `SINTER keys "tags:a" .* and "tags:b" .* hash to different slots`
	c.DoSecondary(ctx, radix.Cmd(&vals, "SINTER", "{tags}:a", "{tags}:b"))
	c.Do(ctx, radix.FlatCmd(nil, "MSET", "price:1", 10, "price:2", 20)) // want `MSET keys "price:1" .* and "price:2" .* hash to different slots`
	c.Do(ctx, radix.FlatCmd(nil, "MSET", "price:{1}:net", 10, "price:{1}:gross", 20))
}

func swap(ctx context.Context, c radix.MultiClient, live string) error {
	return c.Do(ctx, radix.WithConn(live, func(ctx context.Context, conn radix.Conn) error {
		if err := conn.Do(ctx, radix.Cmd(nil, "MULTI")); err != nil { // want `MULTI/EXEC transaction keys "slot:\{<live>\}:shadow" .* and "slots:swapped" .* may hash to different slots`
			return err
		}
		if err := conn.Do(ctx, radix.Cmd(nil, "RENAME", "slot:{"+live+"}:shadow", "slot:{"+live+"}:live")); err != nil {
			return err
		}
		if err := conn.Do(ctx, radix.Cmd(nil, "SADD", "slots:swapped", live)); err != nil {
			return err
		}
		return conn.Do(ctx, radix.Cmd(nil, "EXEC"))
	}))
}

func swapFixed(ctx context.Context, c radix.MultiClient, live string) error {
	return c.Do(ctx, radix.WithConn(live, func(ctx context.Context, conn radix.Conn) error {
		if err := conn.Do(ctx, radix.Cmd(nil, "MULTI")); err != nil {
			return err
		}
		if err := conn.Do(ctx, radix.Cmd(nil, "RENAME", "slot:{"+live+"}:shadow", "slot:{"+live+"}:live")); err != nil {
			return err
		}
		if err := conn.Do(ctx, radix.Cmd(nil, "SADD", "slot:{"+live+"}:swapped", live)); err != nil {
			return err
		}
		return conn.Do(ctx, radix.Cmd(nil, "EXEC"))
	}))
}

var moveScript = radix.NewEvalScript(`
local v = redis.call('GET', KEYS[1])
redis.call('SET', 'audit:last', v)
return redis.call('SET', KEYS[2], v)
`)

var moveFixed = radix.NewEvalScript(`
local v = redis.call('GET', KEYS[1])
return redis.call('SET', KEYS[2], v)
`)

func scripts(ctx context.Context, c radix.MultiClient, id string) {
	c.Do(ctx, moveScript.Cmd(nil, []string{"job:{" + id + "}:a", "job:{" + id + "}:b"}, "arg")) // want `script moveScript line 3: .*"audit:last".* not declared in KEYS`
	c.Do(ctx, moveFixed.Cmd(nil, []string{"job:{" + id + "}:a", "job:{" + id + "}:b"}, "arg"))
	c.Do(ctx, moveFixed.Cmd(nil, []string{"job:a", "job:b"}, "arg")) // want `EVALSHA keys "job:a" .* and "job:b" .* hash to different slots`
	c.Do(ctx, moveFixed.FlatCmd(nil, []string{"job:a", "job:b"}, 1)) // want `EVALSHA keys "job:a" .* and "job:b" .* hash to different slots`
	c.Do(ctx, moveFixed.FlatCmd(nil, []string{"job:{1}:a", "job:{1}:b"}, 1))
}
