// Package joinedlua is an object cache over go-redis whose scripts are
// put together at run time from //go:embed components with strings.Join,
// after zitadel/zitadel (internal/cache/connector/redis/redis.go): a
// generic cache type maps each index key to an object id, a fresh UUID.
package joinedlua

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

var (
	//go:embed _util.lua
	utilComponent string
	//go:embed set.lua
	setScript string
	//go:embed set_fixed.lua
	setFixedScript string
	//go:embed get.lua
	getScript string

	setParsed      = redis.NewScript(strings.Join([]string{utilComponent, setScript}, "\n"))
	setFixedParsed = redis.NewScript(strings.Join([]string{utilComponent, setFixedScript}, "\n"))
	getParsed      = redis.NewScript(strings.Join([]string{utilComponent, getScript}, "\n"))
)

type redisCache[I, K comparable] struct {
	client  redis.UniversalClient
	indices []I
	newID   func() string
}

// Origin: zitadel's set: the object id and every index key in one script,
// which also writes the object's set of keys, a key it is not given.
func (c *redisCache[I, K]) set(ctx context.Context, keys map[I][]K, object string) error {
	objectID := c.newID()
	all := []string{objectID}
	for _, index := range c.indices {
		all = append(all, c.redisIndexKeys(index, keys[index]...)...)
	}
	return setParsed.Run(ctx, c.client, all, object).Err() // want `EVALSHA keys built as "<index>:<k>" from different values may hash to different slots` `script setParsed line 11: redis.call\("SADD", setKey, KEYS\[i\]\) touches a key not declared in KEYS: setKey holds the concatenation KEYS\[1\] \.\. "-keys"`
}

// Origin: zitadel's Get: one index key, whose value names the object the
// script then reads, a key it is not given. One key is passed: the
// helper returns one key for the one it is handed.
func (c *redisCache[I, K]) get(ctx context.Context, index I, key K) (any, error) {
	return getParsed.Run(ctx, c.client, c.redisIndexKeys(index, key)).Result() // want `script getParsed line 10: redis.call\("HGET", object_id, "object"\) touches a key not declared in KEYS: object_id holds a value read from Redis by redis.call\("GET", KEYS\[1\]\)`
}

func (c *redisCache[I, K]) redisIndexKeys(index I, keys ...K) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%v:%v", index, k)
	}
	return out
}

// Fixed: the object's keys share its id as their hashtag, and the script
// is given the set of keys it writes.
func (c *redisCache[I, K]) setFixed(ctx context.Context, keys map[I][]K, object string) error {
	objectID := c.newID()
	all := []string{"{" + objectID + "}", "{" + objectID + "}-keys"}
	for _, index := range c.indices {
		for _, k := range keys[index] {
			all = append(all, fmt.Sprintf("{%s}:%v:%v", objectID, index, k))
		}
	}
	return setFixedParsed.Run(ctx, c.client, all, object).Err()
}
