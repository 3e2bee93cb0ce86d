package scanned

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: andomize/go-gin-cache (redis/goredis/v9/goredis.go): a response
// cache's connection, handed to other modules through an exported
// interface, evicts by the pattern its caller gives: KEYS of the pattern,
// then one DEL of every key listed. The pattern is the caller's alone, so
// nothing keeps the keys it lists in one slot.
type CachePool interface {
	Get(ctx context.Context) CacheConn
}

type CacheConn interface {
	Get(key string) ([]byte, bool, error)
	Set(key string, content any, expiration time.Duration) error
	Del(prefix string) error
}

type cachePool struct {
	delegate redis.UniversalClient
}

func (p *cachePool) Get(ctx context.Context) CacheConn {
	return &cacheConn{p.delegate, ctx}
}

// NewCachePool returns the pool other modules use.
func NewCachePool(delegate redis.UniversalClient) CachePool {
	return &cachePool{delegate}
}

type cacheConn struct {
	delegate redis.UniversalClient
	ctx      context.Context
}

func (c *cacheConn) Get(key string) ([]byte, bool, error) {
	value, err := c.delegate.Get(c.ctx, key).Bytes()
	if err == redis.Nil {
		return nil, false, nil
	}
	return value, err == nil, err
}

func (c *cacheConn) Set(key string, content any, expiration time.Duration) error {
	data, _ := json.Marshal(content)
	return c.delegate.Set(c.ctx, key, data, expiration).Err()
}

func (c *cacheConn) Del(prefix string) error {
	keys, err := c.delegate.Keys(c.ctx, prefix).Result() // want `KEYS on c.delegate, a client that may be a cluster, reads one node's keys only`
	if err != nil {
		return err
	}
	return c.delegate.Del(c.ctx, keys...).Err() // want `DEL keys built as "<KEYS reply>" from different values may hash to different slots`
}

// Fixed: each key listed is deleted alone, in a plain pipeline that a
// cluster client splits by node.
func (c *cacheConn) DelEach(prefix string) error {
	keys, err := c.delegate.Keys(c.ctx, prefix).Result() // want `KEYS on c.delegate, a client that may be a cluster, reads one node's keys only`
	if err != nil {
		return err
	}
	_, err = c.delegate.Pipelined(c.ctx, func(pipe redis.Pipeliner) error {
		for _, k := range keys {
			pipe.Del(c.ctx, k)
		}
		return nil
	})
	return err
}

// Origin: pygzfei/gin-cache (redis_handler.go, DoCacheEvict): the evicted
// patterns are the caller's, each SCANned once, the pages gathered and
// deleted in one DEL.
type EvictHandler struct {
	cacheStore *redis.Client
}

func (r *EvictHandler) DoCacheEvict(ctx context.Context, keys []string) []string {
	evictKeys := []string{}
	for _, key := range keys {
		deleteKeys, _, err := r.cacheStore.Scan(ctx, 0, key, 1<<16).Result()
		if err == nil {
			evictKeys = append(evictKeys, deleteKeys...)
		}
	}
	if len(evictKeys) > 0 {
		r.cacheStore.Del(ctx, evictKeys...) // want `DEL keys built as "<SCAN reply>" from different values may hash to different slots`
	}
	return evictKeys
}

// Fixed: one UNLINK a key.
func (r *EvictHandler) DoCacheEvictEach(ctx context.Context, keys []string) []string {
	evictKeys := []string{}
	for _, key := range keys {
		deleteKeys, _, err := r.cacheStore.Scan(ctx, 0, key, 1<<16).Result()
		if err == nil {
			evictKeys = append(evictKeys, deleteKeys...)
		}
	}
	for _, k := range evictKeys {
		r.cacheStore.Unlink(ctx, k)
	}
	return evictKeys
}
