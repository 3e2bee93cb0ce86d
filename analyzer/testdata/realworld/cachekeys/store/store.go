// Package store is a cache layer over Redis and memory behind one
// interface, after go-eagle/eagle (pkg/cache): MultiGet builds each key
// from the cache's prefix and the caller's key, into a slice made with make
// and filled by index, and sends them in one MGET; MultiSet does the same
// with the keys of a map, in one MSET.
package store

import (
	"context"
	"errors"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Cache is what the services use. Its methods carry, as facts, what the
// package's implementations send for their callers: the importers see
// the unexported redisCache only through them.
type Cache interface {
	MultiGet(ctx context.Context, keys []string) ([]interface{}, error) // want MultiGet:`keyWrapper\(MGET "<key>" each of \$1 in redisCache; MGET "<c.KeyPrefix>:<key>" each of \$1 in redisCache\)`
	MultiSet(ctx context.Context, values map[string]interface{}) error  // want MultiSet:`keyWrapper\(MSET "<key>" each of \$1 in redisCache; MSET "<c.KeyPrefix>:<key>" each of \$1 in redisCache\)`
	SetMany(ctx context.Context, values map[string]interface{}) error   // want SetMany:`keyWrapper\(MSET "" in redisCache; MSET "<c.KeyPrefix>:<key>" each of \$1 in redisCache\)`
}

type redisCache struct {
	client    *redis.Client
	KeyPrefix string
}

// NewRedis returns the Redis cache.
func NewRedis(client *redis.Client, prefix string) Cache {
	return &redisCache{client: client, KeyPrefix: prefix}
}

func buildKey(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return strings.Join([]string{prefix, key}, ":")
}

// MultiGet sends its caller's keys, each joined to the prefix, in one
// MGET: whether they share a slot is the callers' to say, and each caller
// in sight is checked with its keys (one for each path of buildKey); the
// callers that other modules hold are not, and the MGET itself is
// reported (caller-keys).
func (c *redisCache) MultiGet(ctx context.Context, keys []string) ([]interface{}, error) { // want MultiGet:`keyWrapper\(MGET "<key>" each of \$1; MGET "<c.KeyPrefix>:<key>" each of \$1\)`
	cacheKeys := make([]string, len(keys))
	for i, key := range keys {
		cacheKeys[i] = buildKey(c.KeyPrefix, key)
	}
	return c.client.MGet(ctx, cacheKeys...).Result() // want `MGET of the callers' keys "<key>": callers in other modules are not checked`
}

// MultiSet sends its caller's map keys, each joined to the prefix, in one
// MSET inside a plain pipeline (the pipeline does not split one command):
// checked at each caller.
func (c *redisCache) MultiSet(ctx context.Context, values map[string]interface{}) error { // want MultiSet:`keyWrapper\(MSET "<key>" each of \$1; MSET "<c.KeyPrefix>:<key>" each of \$1\)`
	pairs := make([]interface{}, 0, 2*len(values))
	for key, value := range values {
		pairs = append(pairs, []byte(buildKey(c.KeyPrefix, key)), value)
	}
	pipe := c.client.Pipeline()
	pipe.MSet(ctx, pairs...) // want `MSET of the callers' keys "<key>": callers in other modules are not checked`
	_, err := pipe.Exec(ctx)
	return err
}

// BuildKey joins the prefix and the key, and fails on an empty key, as
// zhufuyi/sponge's BuildCacheKey does.
func BuildKey(prefix, key string) (string, error) { // want BuildKey:`keyFunc\("", "<prefix>:<key>"\)`
	if key == "" {
		return "", errors.New("empty key")
	}
	return prefix + ":" + key, nil
}

// SetMany is sponge's MultiSet (pkg/cache/redis.go): each key and value
// appended by itself, entries that fail skipped with continue, one MSET
// in a plain pipeline.
func (c *redisCache) SetMany(ctx context.Context, values map[string]interface{}) error { // want SetMany:`keyWrapper\(MSET ""; MSET "<c.KeyPrefix>:<key>" each of \$1\)`
	pairs := make([]interface{}, 0, 2*len(values))
	for key, value := range values {
		cacheKey, err := BuildKey(c.KeyPrefix, key)
		if err != nil {
			continue
		}
		pairs = append(pairs, []byte(cacheKey))
		pairs = append(pairs, value)
	}
	pipe := c.client.Pipeline()
	pipe.MSet(ctx, pairs...) // want `MSET of the callers' keys "<c.KeyPrefix>:<key>": callers in other modules are not checked`
	_, err := pipe.Exec(ctx)
	return err
}

type memoryCache struct{ m map[string]interface{} }

// NewMemory returns the in-process cache.
func NewMemory() Cache { return &memoryCache{m: map[string]interface{}{}} }

func (c *memoryCache) MultiGet(ctx context.Context, keys []string) ([]interface{}, error) {
	out := make([]interface{}, len(keys))
	for i, k := range keys {
		out[i] = c.m[k]
	}
	return out, nil
}

func (c *memoryCache) MultiSet(ctx context.Context, values map[string]interface{}) error {
	for k, v := range values {
		c.m[k] = v
	}
	return nil
}

func (c *memoryCache) SetMany(ctx context.Context, values map[string]interface{}) error {
	return c.MultiSet(ctx, values)
}
