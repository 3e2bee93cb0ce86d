// Package chunkcache writes chunks back to a cache through an interface
// whose Redis implementation, in another package, queues one SET per key
// in one MULTI/EXEC.
package chunkcache

import (
	"context"

	"slotlint.test/realworld/chunkcache/cache"
	"slotlint.test/realworld/chunkcache/schema"
)

type Chunk struct {
	Ref  schema.ChunkRef
	Data []byte
}

type Fetcher struct {
	cache cache.Cache
}

// Origin: grafana/loki v3.5.0 (pkg/storage/chunk/fetcher/fetcher.go,
// WriteBackCache, and pkg/storage/chunk/cache/redis_client.go, MSet): one
// key per chunk, "<user>/<fp>/<from>:<through>:<checksum>", collected in a
// loop and stored in one call; the Redis cache queues them in one
// MULTI/EXEC, which a cluster refuses when they span slots.
func (c *Fetcher) WriteBackCache(ctx context.Context, chunks []Chunk) error {
	keys := make([]string, 0, len(chunks))
	bufs := make([][]byte, 0, len(chunks))
	for i := range chunks {
		keys = append(keys, schema.ExternalKey(chunks[i].Ref))
		bufs = append(bufs, chunks[i].Data)
	}
	return c.cache.Store(ctx, keys, bufs) // want `MULTI/EXEC transaction \(through MSet at cache.go:\d+\) \(through Store at cache.go:\d+\) keys built as "<ref.UserID>/<ref.Fingerprint>/<ref.From>:<ref.Through>:<ref.Checksum>" from different values may hash to different slots`
}

// The fixed form: the chunks of one tenant, keyed with the tenant as
// their hashtag, are in one slot.
func (c *Fetcher) WriteBackTenant(ctx context.Context, tenant string, chunks []Chunk) error {
	keys := make([]string, 0, len(chunks))
	bufs := make([][]byte, 0, len(chunks))
	for i := range chunks {
		keys = append(keys, schema.TenantKey(tenant, chunks[i].Ref))
		bufs = append(bufs, chunks[i].Data)
	}
	return c.cache.Store(ctx, keys, bufs)
}

// Origin: loki's fetcher_test.go: the chunks written to a mock cache,
// which sends nothing to Redis.
func fillMock(ctx context.Context, chunks []Chunk) cache.MockCache {
	c1 := cache.NewMockCache()
	keys := make([]string, 0, len(chunks))
	bufs := make([][]byte, 0, len(chunks))
	for _, c := range chunks {
		keys = append(keys, schema.ExternalKey(c.Ref))
		bufs = append(bufs, c.Data)
	}
	_ = c1.Store(ctx, keys, bufs)
	return c1
}
