package callerkeys

import (
	"context"
	"encoding/json"

	"github.com/redis/go-redis/v9"
)

// Origin: jkratz55/redis-cache (cache.go, Cache.MSet): a cache library's
// MSet marshals each value of the caller's map into a map of its own and
// hands that map to go-redis's MSet, which sends the map's keys as the
// pairs' keys in one MSET (TestMSetMap): the caller's keys, of any slot.
type MapCache struct {
	redis redis.UniversalClient
}

func (c *MapCache) MSet(ctx context.Context, keyvalues map[string]any) error { // want MSet:`keyWrapper\(MSET "<k>" each of \$1\)`
	rawData := make(map[string]any)
	for k, v := range keyvalues {
		val, err := json.Marshal(v)
		if err != nil {
			return err
		}
		rawData[k] = val
	}
	return c.redis.MSet(ctx, rawData).Err() // want `MSET of the callers' keys "<k>": callers in other modules are not checked`
}

// Fixed: the cache keeps one owner's entries, the keys under its hashtag.
func (c *MapCache) MSetOwned(ctx context.Context, owner string, fields map[string]any) error {
	rawData := make(map[string]any)
	for f, v := range fields {
		val, err := json.Marshal(v)
		if err != nil {
			return err
		}
		rawData["cache:{"+owner+"}:"+f] = val
	}
	return c.redis.MSet(ctx, rawData).Err()
}
