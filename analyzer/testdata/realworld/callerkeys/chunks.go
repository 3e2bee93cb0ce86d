package callerkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: jkratz55/redis-cache (cache.go, slices.go): the exported
// generic MGet hands its caller's keys to an unexported helper that cuts
// them into chunks with a generic chunk function and queues one MGET per
// chunk on a plain pipeline. Each MGET still carries several of the
// caller's keys, of any slot; a pipeline is split by command, not by key.
type ChunkCache struct {
	redis redis.UniversalClient
}

func chunk[T any](slice []T, size int) [][]T {
	chunks := make([][]T, 0)
	for i := 0; i < len(slice); i += size {
		end := min(i+size, len(slice))
		chunks = append(chunks, slice[i:end])
	}
	return chunks
}

func MGet[R any](ctx context.Context, c *ChunkCache, keys ...string) ([]any, error) { // want MGet:`keyWrapper\(MGET "<keys...>"\)`
	if len(keys) > 100 {
		return mGetBatch[R](ctx, c, keys...)
	}
	return c.redis.MGet(ctx, keys...).Result() // want `MGET of the callers' keys "<keys...>": callers in other modules are not checked`
}

func mGetBatch[R any](ctx context.Context, c *ChunkCache, keys ...string) ([]any, error) {
	chunks := chunk(keys, 100)
	pipe := c.redis.Pipeline()
	cmds := make([]*redis.SliceCmd, 0, len(chunks))
	for i := 0; i < len(chunks); i++ {
		cmds = append(cmds, pipe.MGet(ctx, chunks[i]...)) // want `MGET of the callers' keys "<chunks\[i\]...>": callers in other modules are not checked`
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	var out []any
	for _, cmd := range cmds {
		out = append(out, cmd.Val()...)
	}
	return out, nil
}

// Fixed: one GET per key on the pipeline, which go-redis's cluster client
// sends to each key's node.
func mGetEach(ctx context.Context, c *ChunkCache, keys ...string) ([]any, error) {
	pipe := c.redis.Pipeline()
	cmds := make([]*redis.StringCmd, 0, len(keys))
	for _, k := range keys {
		cmds = append(cmds, pipe.Get(ctx, k))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	var out []any
	for _, cmd := range cmds {
		out = append(out, cmd.Val())
	}
	return out, nil
}

func MGetEach(ctx context.Context, c *ChunkCache, keys ...string) ([]any, error) {
	return mGetEach(ctx, c, keys...)
}
