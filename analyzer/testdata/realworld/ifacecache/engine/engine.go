// Package engine hands its Redis cache out through a method of another
// interface it hands out.
//
// Origin: latolukasz/beeorm v2.10.1 (engine.go: Engine's GetRedis, which
// returns a RedisCache; redis_cache.go: the unexported redisCache behind
// it). The users of an Engine call the cache's methods with their own
// keys, which nothing here keeps in one slot.
package engine

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type RedisCache interface {
	Del(keys ...string) error // want Del:`keyWrapper\(DEL "<keys...>" in redisCache\)`
	Get(key string) (string, error)
}

type Engine interface {
	GetRedis(code ...string) RedisCache
}

func NewEngine(rdb redis.UniversalClient) Engine {
	return &engineImpl{cache: &redisCache{client: rdb}}
}

type engineImpl struct {
	cache *redisCache
}

func (e *engineImpl) GetRedis(code ...string) RedisCache { return e.cache }

type redisCache struct {
	client redis.UniversalClient
}

// Bad: the callers' keys in one DEL.
func (r *redisCache) Del(keys ...string) error { // want Del:`keyWrapper\(DEL "<keys...>"\)`
	return r.client.Del(context.Background(), keys...).Err() // want `DEL of the callers' keys "<keys...>"`
}

// Fixed: one key.
func (r *redisCache) Get(key string) (string, error) {
	return r.client.Get(context.Background(), key).Result()
}
