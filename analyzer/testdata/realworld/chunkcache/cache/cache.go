// Package cache is a chunk cache behind one interface with several
// implementations, after grafana/loki (pkg/storage/chunk/cache): the Redis
// one writes a batch of chunks in one MULTI/EXEC, one SET per key
// (RedisClient.MSet); a pipelined one and an in-process one need no
// common slot.
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache is what the chunk fetcher writes back to.
type Cache interface {
	Store(ctx context.Context, keys []string, bufs [][]byte) error // want Store:`keyWrapper\(MULTI/EXEC transaction \(through MSet at cache.go:\d+\) "<keys\[i\]>" each of \$1 in RedisCache\)`
	Fetch(ctx context.Context, keys []string) ([][]byte, error)
}

// RedisClient is the cache's client: a cluster or a single node.
type RedisClient struct {
	rdb        redis.UniversalClient
	expiration time.Duration
}

// MSet queues one SET per key in one transaction: every key must be in
// one slot, whatever slot its caller's keys are in.
func (c *RedisClient) MSet(ctx context.Context, keys []string, values [][]byte) error { // want MSet:`keyWrapper\(MULTI/EXEC transaction "<keys\[i\]>" each of \$1\)`
	pipe := c.rdb.TxPipeline() // want `MULTI/EXEC transaction of the callers' keys "<[^"]*>": callers in other modules are not checked`
	for i := range keys {
		pipe.Set(ctx, keys[i], values[i], c.expiration)
	}
	_, err := pipe.Exec(ctx)
	return err
}

// MGet reads the keys one GET each, in a plain pipeline.
func (c *RedisClient) MGet(ctx context.Context, keys []string) ([][]byte, error) {
	pipe := c.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(keys))
	for i, key := range keys {
		cmds[i] = pipe.Get(ctx, key)
	}
	if _, err := pipe.Exec(ctx); err != nil && err != redis.Nil {
		return nil, err
	}
	out := make([][]byte, len(keys))
	for i, cmd := range cmds {
		out[i], _ = cmd.Bytes()
	}
	return out, nil
}

// RedisCache stores through its client.
type RedisCache struct {
	redis *RedisClient
}

func NewRedisCache(rdb redis.UniversalClient) *RedisCache {
	return &RedisCache{redis: &RedisClient{rdb: rdb, expiration: time.Hour}}
}

func (c *RedisCache) Store(ctx context.Context, keys []string, bufs [][]byte) error { // want Store:`keyWrapper\(MULTI/EXEC transaction \(through MSet at cache.go:\d+\) "<keys\[i\]>" each of \$1\)`
	return c.redis.MSet(ctx, keys, bufs)
}

func (c *RedisCache) Fetch(ctx context.Context, keys []string) ([][]byte, error) {
	return c.redis.MGet(ctx, keys)
}

// PipelinedCache writes one SET per key in a plain pipeline, which the
// cluster client sends to each key's node: nothing to carry.
type PipelinedCache struct {
	rdb redis.UniversalClient
}

func (c *PipelinedCache) Store(ctx context.Context, keys []string, bufs [][]byte) error {
	_, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range keys {
			p.Set(ctx, keys[i], bufs[i], time.Hour)
		}
		return nil
	})
	return err
}

func (c *PipelinedCache) Fetch(ctx context.Context, keys []string) ([][]byte, error) {
	return nil, nil
}

// EmbeddedCache keeps the chunks in process.
type EmbeddedCache struct {
	m map[string][]byte
}

func (c *EmbeddedCache) Store(ctx context.Context, keys []string, bufs [][]byte) error {
	for i, k := range keys {
		c.m[k] = bufs[i]
	}
	return nil
}

func (c *EmbeddedCache) Fetch(ctx context.Context, keys []string) ([][]byte, error) {
	out := make([][]byte, len(keys))
	for i, k := range keys {
		out[i] = c.m[k]
	}
	return out, nil
}

// MockCache is the tests' cache: only mockCache implements it, so a call
// on it is a call of mockCache's Store, whatever else implements Cache.
type MockCache interface {
	Cache
	GetKeys() []string
}

type mockCache struct{ m map[string][]byte }

func NewMockCache() MockCache { return &mockCache{m: map[string][]byte{}} }

func (c *mockCache) Store(ctx context.Context, keys []string, bufs [][]byte) error {
	for i, k := range keys {
		c.m[k] = bufs[i]
	}
	return nil
}

func (c *mockCache) Fetch(ctx context.Context, keys []string) ([][]byte, error) { return nil, nil }

func (c *mockCache) GetKeys() []string {
	var out []string
	for k := range c.m {
		out = append(out, k)
	}
	return out
}
