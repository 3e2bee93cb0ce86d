package callerkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// GetMultiTagged reads the callers' ids under one hashtag: the cache's
// prefix, so every key is in the prefix's slot.
func (c *Cache) GetMultiTagged(ctx context.Context, ids ...string) ([]interface{}, error) {
	full := make([]string, len(ids))
	for i, id := range ids {
		full[i] = "{" + c.prefix + "}:" + id
	}
	return c.rdb.MGet(ctx, full...).Result()
}

// GetEach reads each key with its own GET in a plain pipeline, which
// needs no common slot.
func (c *Cache) GetEach(ctx context.Context, keys ...string) ([]string, error) {
	pipe := c.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(keys))
	for i, k := range keys {
		cmds[i] = pipe.Get(ctx, c.prefix+":"+k)
	}
	if _, err := pipe.Exec(ctx); err != nil && err != redis.Nil {
		return nil, err
	}
	out := make([]string, len(keys))
	for i, cmd := range cmds {
		out[i] = cmd.Val()
	}
	return out, nil
}

// ReadEvents reads one stream of the cache's, from the id the caller gives.
func (c *Cache) ReadEvents(ctx context.Context, id string) ([]redis.XStream, error) {
	return c.rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"{" + c.prefix + "}:events", id}}).Result()
}

// SetEach stores each of the callers' entries with its own SET in a plain
// pipeline, which needs no common slot.
func (c *Cache) SetEach(ctx context.Context, items []Item) error {
	_, err := c.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, item := range items {
			pipe.Set(ctx, item.Key, item.Value, 0)
		}
		return nil
	})
	return err
}
