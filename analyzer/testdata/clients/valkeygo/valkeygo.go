// Package valkeygo sends commands built with valkey-go's command builder.
//
// Reduced from the usage shown in valkey-go's own README (the builder with
// Do and DoMulti, a Dedicated client for WATCH/MULTI/EXEC, NewLuaScript),
// written anew: each cross-slot form is followed by its hashtagged fix.
package valkeygo

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func rename(ctx context.Context, c valkey.Client, id string) {
	c.Do(ctx, c.B().Rename().Key("tmp:user:123:cache").Newkey("user:123:cache").Build()) // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	c.Do(ctx, c.B().Rename().Key("tmp:{user:123}:cache").Newkey("{user:123}:cache").Build())

	// The command built in one statement and sent in another.
	cmd := c.B().Rename().Key("session:" + id).Newkey("session:" + id + ":old").Build()
	c.Do(ctx, cmd) // want `RENAME keys "session:<id>" .* and "session:<id>:old" .* may hash to different slots`
	fixed := c.B().Rename().Key("session:{" + id + "}").Newkey("session:{" + id + "}:old").Build()
	c.Do(ctx, fixed)
}

func mget(ctx context.Context, c valkey.Client, keys []string) {
	c.Do(ctx, c.B().Mget().Key("cart:1", "cart:2").Build()) // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	c.Do(ctx, c.B().Mget().Key("cart:{1}:items", "cart:{1}:total").Build())
	ks := []string{"price:a", "price:b"}
	c.Do(ctx, c.B().Mget().Key(ks...).Build()) // want `MGET keys "price:a" .* and "price:b" .* hash to different slots`
	// A cacheable command read through client-side caching.
	c.DoCache(ctx, c.B().Mget().Key("cart:3", "cart:4").Cache(), time.Minute) // want `MGET keys "cart:3" .* and "cart:4" .* hash to different slots`
	c.DoCache(ctx, c.B().Mget().Key("cart:{3}:items", "cart:{3}:total").Cache(), time.Minute)
}

func eval(ctx context.Context, c valkey.Client) {
	c.Do(ctx, c.B().Eval().Script("return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}").Numkeys(2).Key("a", "b").Build()) // want `EVAL keys "a" .* and "b" .* hash to different slots`
	c.Do(ctx, c.B().Eval().Script("return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}").Numkeys(2).Key("{a}1", "{a}2").Build())
}

// DoMulti is a pipeline: each command goes to its own slot, so commands on
// different slots are fine there.
func pipeline(ctx context.Context, c valkey.Client) {
	c.DoMulti(ctx,
		c.B().Set().Key("counter:a").Value("1").Build(),
		c.B().Set().Key("counter:b").Value("1").Build(),
	)
}

// MULTI/EXEC on a dedicated connection, as valkey-go's README shows for a
// check-and-set transaction.
func transfer(ctx context.Context, c valkey.Client, from, to string) error {
	return c.Dedicated(func(d valkey.DedicatedClient) error {
		d.Do(ctx, d.B().Watch().Key("balance:"+from).Build())
		for _, r := range d.DoMulti(ctx, // want `MULTI/EXEC transaction keys "balance:<from>" .* and "balance:<to>" .* may hash to different slots`
			d.B().Multi().Build(),
			d.B().Decrby().Key("balance:"+from).Decrement(10).Build(),
			d.B().Incrby().Key("balance:"+to).Increment(10).Build(),
			d.B().Exec().Build(),
		) {
			if err := r.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

func transferFixed(ctx context.Context, c valkey.Client, bank, from, to string) error {
	d, cancel := c.Dedicate()
	defer cancel()
	d.Do(ctx, d.B().Watch().Key("balance:{"+bank+"}:"+from).Build())
	for _, r := range d.DoMulti(ctx,
		d.B().Multi().Build(),
		d.B().Decrby().Key("balance:{"+bank+"}:"+from).Decrement(10).Build(),
		d.B().Incrby().Key("balance:{"+bank+"}:"+to).Increment(10).Build(),
		d.B().Exec().Build(),
	) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

var moveScript = valkey.NewLuaScript(`
local v = redis.call('GET', KEYS[1])
redis.call('SET', 'audit:last', v)
return redis.call('SET', KEYS[2], v)
`)

var moveFixed = valkey.NewLuaScript(`
local v = redis.call('GET', KEYS[1])
return redis.call('SET', KEYS[2], v)
`)

func scripts(ctx context.Context, c valkey.Client, id string) {
	moveScript.Exec(ctx, c, []string{"job:{" + id + "}:a", "job:{" + id + "}:b"}, nil) // want `script moveScript line 3: .*"audit:last".* not declared in KEYS`
	moveFixed.Exec(ctx, c, []string{"job:{" + id + "}:a", "job:{" + id + "}:b"}, nil)
	moveFixed.Exec(ctx, c, []string{"job:a", "job:b"}, nil) // want `EVALSHA keys "job:a" .* and "job:b" .* hash to different slots`
}
