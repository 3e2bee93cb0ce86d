// Package ownredis holds a cache adapter written against a framework's own
// Redis API (package gredis), whose methods are named and shaped as
// go-redis's and whose implementation is in another module.
//
// Origin: gogf/gf v2.9.0 (os/gcache/gcache_adapter_redis.go): SetMap
// deletes the keys of the caller's map in one DEL, or sets them in one
// MSET (util/gconv converts the map), Data reads every key
// that KEYS * lists in one MGET, Remove deletes the caller's keys.
package ownredis

import (
	"context"
	"fmt"

	"slotlint.test/realworld/ownredis/gconv"
	"slotlint.test/realworld/ownredis/gredis"
)

type AdapterRedis struct {
	redis *gredis.Redis
}

func (c *AdapterRedis) SetMap(ctx context.Context, data map[any]any) error { // want SetMap:`keyWrapper\(DEL "<k>" each of \$1\)`
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, fmt.Sprint(k))
	}
	_, err := c.redis.Del(ctx, keys...) // want `DEL of the callers' keys`
	return err
}

func (c *AdapterRedis) SetMapForever(ctx context.Context, data map[any]any) error {
	return c.redis.MSet(ctx, gconv.Map(data)) // want `MSET of the callers' keys`
}

func (c *AdapterRedis) setProfile(ctx context.Context, id string, name, age any) error {
	return c.redis.MSet(ctx, map[string]any{"name:" + id: name, "age:" + id: age}) // want `MSET keys "name:<id>" .* and "age:<id>" .* may hash to different slots`
}

func (c *AdapterRedis) Data(ctx context.Context) (map[string]string, error) {
	keys, err := c.redis.Keys(ctx, "*")
	if err != nil {
		return nil, err
	}
	return c.redis.MGet(ctx, keys...) // want `MGET keys built as "<\*>" from different values may hash to different slots`
}

func (c *AdapterRedis) Swap(ctx context.Context, id string) error {
	return c.redis.Rename(ctx, "cache:"+id, "cache:"+id+":old") // want `RENAME keys "cache:<id>" .* and "cache:<id>:old" .* may hash to different slots`
}

func (c *AdapterRedis) exists(ctx context.Context, id string) (bool, error) {
	return c.redis.Exists(ctx, "cache:"+id)
}

// Fixed: the keys of one hashtag, listed by a pattern under it.
func (c *AdapterRedis) DataFixed(ctx context.Context) (map[string]string, error) {
	keys, err := c.redis.Keys(ctx, "{cache}:*")
	if err != nil {
		return nil, err
	}
	return c.redis.MGet(ctx, keys...)
}

func (c *AdapterRedis) setProfileFixed(ctx context.Context, id string, name, age any) error {
	return c.redis.MSet(ctx, map[string]any{"{user:" + id + "}:name": name, "{user:" + id + "}:age": age})
}

func (c *AdapterRedis) SwapFixed(ctx context.Context, id string) error {
	return c.redis.Rename(ctx, "cache:{"+id+"}", "cache:{"+id+"}:old")
}
