// Package callerkeys is a library: other modules call its exported
// functions, which send the keys their callers give.
package callerkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: grafana/xk6-redis v0.3.6 (redis/client.go, Client.Del, Exists
// and Mget): a load-testing extension hands its scripts' keys to DEL,
// EXISTS and MGET as they come. Its callers are scripts, never seen.
type Client struct {
	rdb redis.UniversalClient
}

func (c *Client) Del(ctx context.Context, keys ...string) (int64, error) { // want Del:`keyWrapper\(DEL "<keys...>"\)`
	return c.rdb.Del(ctx, keys...).Result() // want `DEL of the callers' keys "<keys...>": callers in other modules are not checked, and nothing here keeps the keys in one slot`
}

// Origin: latolukasz/beeorm v2.10.1 (redis_cache.go, redisCache.Exists and
// Eval): an unexported type that the package hands out as its exported
// RedisCache interface, each key joined to the cache's namespace.
type RedisCache interface {
	Exists(ctx context.Context, keys ...string) int64                                        // want Exists:`keyWrapper\(EXISTS "<r.namespace>:<k>" each of \$1 in redisCache\)`
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) interface{} // want Eval:`keyWrapper\(EVAL "<keys...>" script \$1 in redisCache\)`
	MSet(ctx context.Context, pairs ...interface{})
	XReadGroup(ctx context.Context, a *redis.XReadGroupArgs) []redis.XStream
}

type redisCache struct {
	rdb       redis.UniversalClient
	namespace string
}

func NewRedisCache(rdb redis.UniversalClient, namespace string) RedisCache {
	return &redisCache{rdb: rdb, namespace: namespace}
}

func (r *redisCache) Exists(ctx context.Context, keys ...string) int64 { // want Exists:`keyWrapper\(EXISTS "<r.namespace>:<k>" each of \$1\)`
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = r.namespace + ":" + k
	}
	return r.rdb.Exists(ctx, full...).Val() // want `EXISTS of the callers' keys "<r.namespace>:<k>": callers in other modules are not checked`
}

func (r *redisCache) Eval(ctx context.Context, script string, keys []string, args ...interface{}) interface{} { // want Eval:`keyWrapper\(EVAL "<keys...>" script \$1\)`
	return r.rdb.Eval(ctx, script, keys, args...).Val() // want `EVAL of the callers' keys "<keys...>": callers in other modules are not checked`
}

// Fixed: the callers give ids, and every key is the id under the cache's
// hashtag, so one command reads them in one slot; and a helper that the
// package alone calls is checked at each of its calls.
func (c *Client) DelIDs(ctx context.Context, prefix string, ids ...string) (int64, error) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = "{" + prefix + "}:" + id
	}
	return c.rdb.Del(ctx, keys...).Result()
}

func (c *Client) del(ctx context.Context, keys ...string) (int64, error) {
	return c.rdb.Del(ctx, keys...).Result()
}

func (c *Client) Logout(ctx context.Context, user string) {
	c.del(ctx, "{"+user+"}:session", "{"+user+"}:token")
}

// Origin: go-redis/redismock v9.2.0 (mock.go, mock.ExpectBLPop): a mock's
// expectation builds the command on a client that records it, and keeps
// it in a field to compare with what the test sends: nothing is sent.
type ExpectedStringSlice struct{ cmd *redis.StringSliceCmd }

type Mock struct {
	factory redis.Cmdable
}

func (m *Mock) ExpectBLPop(ctx context.Context, keys ...string) *ExpectedStringSlice { // want ExpectBLPop:`keyWrapper\(BLPOP "<keys...>"\)`
	e := &ExpectedStringSlice{}
	e.cmd = m.factory.BLPop(ctx, 0, keys...)
	return e
}
