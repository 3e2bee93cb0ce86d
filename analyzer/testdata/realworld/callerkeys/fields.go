package callerkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: Richelieu42/chimera (redisKit/stream_consumer.go, Client.XRead,
// XReadGroup and XReadStreams): a wrapper hands the caller's own
// arguments to XREAD and XREADGROUP, the streams a field of the struct it
// is given or its variadic parameter read in halves.
type Kit struct {
	rdb redis.UniversalClient
}

func (k *Kit) XRead(ctx context.Context, a *redis.XReadArgs) ([]redis.XStream, error) {
	return k.rdb.XRead(ctx, a).Result() // want `XREAD of the callers' keys "<a.Streams>": callers in other modules are not checked`
}

func (k *Kit) XReadStreams(ctx context.Context, streams ...string) ([]redis.XStream, error) {
	return k.rdb.XReadStreams(ctx, streams...).Result() // want `XREAD of the callers' keys "<streams...>": callers in other modules are not checked`
}

// Origin: latolukasz/beeorm v2.10.1 (redis_cache.go, redisCache.MSet and
// XReadGroup): keys at every other argument of the callers' pairs, and a
// group's streams from the struct the caller fills, joined to the
// namespace in place before they are sent, in a goroutine or not.
func (r *redisCache) MSet(ctx context.Context, pairs ...interface{}) {
	r.rdb.MSet(ctx, pairs...) // want `MSET of the callers' keys "<pairs...>": callers in other modules are not checked`
}

func (r *redisCache) XReadGroup(ctx context.Context, a *redis.XReadGroupArgs) (streams []redis.XStream) {
	for i := 0; i < len(a.Streams)/2; i++ {
		a.Streams[i] = r.namespace + ":" + a.Streams[i]
	}
	if a.Block >= 0 {
		done := make(chan struct{})
		go func() {
			streams, _ = r.rdb.XReadGroup(ctx, a).Result() // want `XREADGROUP of the callers' keys "<a.Streams>": callers in other modules are not checked`
			close(done)
		}()
		<-done
		return streams
	}
	streams, _ = r.rdb.XReadGroup(ctx, a).Result() // want `XREADGROUP of the callers' keys "<a.Streams>": callers in other modules are not checked`
	return streams
}

// Origin: dranikpg/gtrs v0.6.1 (consumer.go, NewConsumer, fetchLoop and
// read): a generic consumer keeps the stream ids its constructor's caller
// names, and a goroutine copies them and fills a buffer by index, streams
// then ids, for one XREAD: every stream is the callers'. (gtrs also writes
// each stream it reads back into the map, sc.seenIds[msg.stream] = id, a
// key taken from a reply, which the tracing does not follow: gtrs itself
// is not reported.)
type StreamIDs = map[string]string

type Consumer[T any] struct {
	rdb  redis.Cmdable
	seen StreamIDs
}

func NewConsumer[T any](ctx context.Context, rdb redis.Cmdable, ids StreamIDs) *Consumer[T] {
	c := &Consumer[T]{rdb: rdb, seen: ids}
	go c.fetchLoop(ctx)
	return c
}

func copyMap[K comparable, V any](in map[K]V) map[K]V {
	out := make(map[K]V, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

func (c *Consumer[T]) fetchLoop(ctx context.Context) {
	ids := copyMap(c.seen)
	buf := make([]string, 2*len(ids))
	for ctx.Err() == nil {
		c.read(ctx, ids, buf)
	}
}

func (c *Consumer[T]) read(ctx context.Context, ids StreamIDs, buf []string) ([]redis.XStream, error) {
	i, offset := 0, len(ids)
	for k, v := range ids {
		buf[i] = k
		buf[i+offset] = v
		i++
	}
	return c.rdb.XRead(ctx, &redis.XReadArgs{Streams: buf}).Result() // want `XREAD of the callers' keys "<buf>": callers in other modules are not checked`
}

// Fixed: the pairs are built here from the callers' ids, each key under
// the cache's hashtag; the streams of one consumer share the group's
// hashtag; the struct is made here of one stream.
func (r *redisCache) MSetIDs(ctx context.Context, values map[string]string) {
	pairs := make([]interface{}, 0, 2*len(values))
	for id, v := range values {
		pairs = append(pairs, "{"+r.namespace+"}:"+id, v)
	}
	r.rdb.MSet(ctx, pairs...)
}

func (k *Kit) ReadOne(ctx context.Context, stream, id string) ([]redis.XStream, error) {
	return k.rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{stream, id}}).Result()
}

type GroupConsumer struct {
	rdb     redis.UniversalClient
	streams []string
}

func NewGroupConsumer(rdb redis.UniversalClient, group string, names ...string) *GroupConsumer {
	c := &GroupConsumer{rdb: rdb}
	for _, n := range names {
		c.streams = append(c.streams, "{"+group+"}:"+n)
	}
	for range names {
		c.streams = append(c.streams, ">")
	}
	return c
}

func (c *GroupConsumer) Next(ctx context.Context) ([]redis.XStream, error) {
	return c.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: c.streams}).Result()
}

// Origin: ArtisanCloud/PowerLibs v3.3.2 (cache/redis.go, GRedis.SetByTags):
// one transaction adds the caller's key to each of the caller's tag sets,
// then sets the key: as many keys as the caller gives tags.
type Tagged struct {
	rdb redis.UniversalClient
}

func (t *Tagged) SetByTags(ctx context.Context, key string, val interface{}, tags []string) error { // want SetByTags:`keyWrapper\(MULTI/EXEC transaction "<tag>" "<key>" each of \$3\)`
	pipe := t.rdb.TxPipeline() // want `MULTI/EXEC transaction of the callers' keys "<tag>": callers in other modules are not checked`
	for _, tag := range tags {
		pipe.SAdd(ctx, tag, key)
	}
	pipe.Set(ctx, key, val, 0)
	_, err := pipe.Exec(ctx)
	return err
}

// Fixed: the tag sets and the key share the tag's hashtag, so the
// transaction takes one tag.
func (t *Tagged) SetByTag(ctx context.Context, id string, val interface{}, tag string) error {
	pipe := t.rdb.TxPipeline()
	pipe.SAdd(ctx, "{"+tag+"}:members", id)
	pipe.Set(ctx, "{"+tag+"}:"+id, val, 0)
	_, err := pipe.Exec(ctx)
	return err
}
