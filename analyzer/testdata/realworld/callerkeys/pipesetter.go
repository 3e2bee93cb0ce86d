package callerkeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: devspotai/sharedkit (client/cache/redis_cache.go,
// WithPipeline): a cache library opens a MULTI/EXEC and hands the
// caller's function a setter and a deleter that queue SET and DEL of the
// keys the caller gives them, as many times as it likes.
type PipelineSetter func(key string, value any, ttl time.Duration)

type PipelineDeleter func(key string)

type SetterCache struct{ client *redis.Client }

func (c *SetterCache) WithPipeline(ctx context.Context, fn func(set PipelineSetter, del PipelineDeleter) error) error {
	pipe := c.client.TxPipeline() // want `MULTI/EXEC transaction of the callers' keys "<key>": callers in other modules are not checked`

	setter := func(key string, value any, ttl time.Duration) {
		pipe.Set(ctx, key, value, ttl)
	}

	deleter := func(key string) {
		pipe.Del(ctx, key)
	}

	if err := fn(setter, deleter); err != nil {
		return err
	}
	_, err := pipe.Exec(ctx)
	return err
}

// Fixed: the setter and the deleter put every key under the cache's one
// hashtag.
type TaggedCache struct {
	client *redis.Client
	tag    string
}

func NewTaggedCache(client *redis.Client) *TaggedCache {
	return &TaggedCache{client: client, tag: "{cache}:"}
}

func (c *TaggedCache) WithPipeline(ctx context.Context, fn func(set PipelineSetter, del PipelineDeleter) error) error {
	pipe := c.client.TxPipeline()

	setter := func(key string, value any, ttl time.Duration) {
		pipe.Set(ctx, c.tag+key, value, ttl)
	}

	deleter := func(key string) {
		pipe.Del(ctx, c.tag+key)
	}

	if err := fn(setter, deleter); err != nil {
		return err
	}
	_, err := pipe.Exec(ctx)
	return err
}
