// Package callerkeys shows the caller-keys check.
package callerkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Cache is a library's cache: other modules call it.
type Cache struct {
	rdb    redis.UniversalClient
	prefix string
}

// GetMulti reads the callers' keys, each under the cache's prefix, in one
// MGET: nothing keeps them in one slot.
func (c *Cache) GetMulti(ctx context.Context, keys ...string) ([]interface{}, error) { // want GetMulti:`keyWrapper\(MGET "<c.prefix>:<k>" each of \$1\)`
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = c.prefix + ":" + k
	}
	return c.rdb.MGet(ctx, full...).Result() // want `MGET of the callers' keys "<c.prefix>:<k>": callers in other modules are not checked, and nothing here keeps the keys in one slot`
}

// Read reads the streams its caller puts in the arguments, in one XREAD.
func (c *Cache) Read(ctx context.Context, a *redis.XReadArgs) ([]redis.XStream, error) {
	return c.rdb.XRead(ctx, a).Result() // want `XREAD of the callers' keys "<a.Streams>": callers in other modules are not checked`
}

// Item is one entry the callers store.
type Item struct {
	Key, Value string
}

// SetAll stores the callers' entries in one MULTI/EXEC transaction.
func (c *Cache) SetAll(ctx context.Context, items []Item) error {
	_, err := c.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction of the callers' keys "<item.Key>": callers in other modules are not checked`
		for _, item := range items {
			pipe.Set(ctx, item.Key, item.Value, 0)
		}
		return nil
	})
	return err
}
