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
