package callerkeys

import (
	"context"
	"encoding/json"

	"github.com/redis/go-redis/v9"
)

// Origin: jkratz55/redis-cache (cache.go, Cache.MSet): a cache library's
// MSet marshals each value of the caller's map into a map of its own and
// hands that map to go-redis's MSet, which sends the map's keys as the
// pairs' keys in one MSET (TestMSetFlattened): the caller's keys, of any slot.
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

// Origin: daqiancode/scache (redis_json.go, RedisJson.MSetJson): each
// value marshalled into a map of its own by a call that may fail, the
// map's entry and the error set by one assignment.
type JSONCache struct {
	rdb redis.UniversalClient
}

func (c *JSONCache) MSetJSON(ctx context.Context, objs map[string]any) error { // want MSetJSON:`keyWrapper\(MSET "<k>" each of \$1\)`
	raw := make(map[string]string, len(objs))
	var err error
	for k, v := range objs {
		raw[k], err = marshal(v)
		if err != nil {
			return err
		}
	}
	return c.rdb.MSet(ctx, raw).Err() // want `MSET of the callers' keys "<k>": callers in other modules are not checked`
}

func marshal(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// Fixed: one owner's entries, under the owner's hashtag.
func (c *JSONCache) MSetOwnedJSON(ctx context.Context, owner string, objs map[string]any) error {
	raw := make(map[string]string, len(objs))
	var err error
	for f, v := range objs {
		raw["json:{"+owner+"}:"+f], err = marshal(v)
		if err != nil {
			return err
		}
	}
	return c.rdb.MSet(ctx, raw).Err()
}
