// Package goredisv9rc uses go-redis v9's release candidates, published at
// github.com/go-redis/redis/v9 before the module moved to
// github.com/redis/go-redis/v9, with v9.0.0's API.
//
// The consumer is reduced from go-admin-team/redisqueue v2.0.0
// (consumer.go: Register, Run and poll, a fork of robinjoseph08/
// redisqueue on this client), written anew, each cross-slot form followed
// by its hashtagged fix.
package goredisv9rc

import (
	"context"

	"github.com/go-redis/redis/v9"
)

func rename(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Rename(ctx, "tmp:user:123:cache", "user:123:cache") // want `RENAME keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	rdb.Rename(ctx, "tmp:{user:123}:cache", "{user:123}:cache")
}

func multiKey(ctx context.Context, rdb redis.UniversalClient) {
	rdb.MGet(ctx, "cart:1", "cart:2") // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	rdb.MGet(ctx, "cart:{1}:items", "cart:{1}:total")
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "stock:1" .* and "orders:1" .* hash to different slots`
		pipe.Decr(ctx, "stock:1")
		pipe.RPush(ctx, "orders:1", "o")
		return nil
	})
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Decr(ctx, "{item:1}:stock")
		pipe.RPush(ctx, "{item:1}:orders", "o")
		return nil
	})
	rdb.Eval(ctx, "return redis.call('MGET', KEYS[1], KEYS[2])", []string{"a:1", "b:1"}) // want `EVAL keys "a:1" .* and "b:1" .* hash to different slots`
	rdb.Eval(ctx, "return redis.call('MGET', KEYS[1], KEYS[2])", []string{"{a}:1", "{a}:2"})
}

type ConsumerFunc func(id string) error

// Consumer reads every stream its callers register in one XREADGROUP.
type Consumer struct {
	redis     redis.UniversalClient
	group     string
	consumers map[string]ConsumerFunc
	streams   []string
}

func NewConsumer(rdb redis.UniversalClient, group string) *Consumer {
	return &Consumer{redis: rdb, group: group, consumers: make(map[string]ConsumerFunc), streams: make([]string, 0)}
}

func (c *Consumer) Register(stream string, fn ConsumerFunc) {
	c.consumers[stream] = fn
}

func (c *Consumer) Run(ctx context.Context) {
	for stream := range c.consumers {
		c.streams = append(c.streams, stream)
	}
	for range c.consumers {
		c.streams = append(c.streams, ">")
	}
	go c.poll(ctx)
}

func (c *Consumer) poll(ctx context.Context) {
	for ctx.Err() == nil {
		c.redis.XReadGroup(ctx, &redis.XReadGroupArgs{Group: c.group, Consumer: "c", Streams: c.streams}) // want `XREADGROUP of the callers' keys "<c.streams>": callers in other modules are not checked`
	}
}

// ReadOne reads one stream of the group's: the fix, one slot.
func (c *Consumer) ReadOne(ctx context.Context, stream string) {
	c.redis.XReadGroup(ctx, &redis.XReadGroupArgs{Group: c.group, Consumer: "c", Streams: []string{"{" + c.group + "}:" + stream, ">"}})
}
