package replaced

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: splitio/go-split-commons v6.0.1 (storage/redis/miscstorage.go,
// ClearAll): a script template whose "{KEY_NAMESPACE}" placeholder is
// replaced with the storage's namespace, run with no KEYS; the script
// lists the namespace's keys with KEYS and deletes each of them.
const clearAllTemplate = `
	local toDelete = redis.call('KEYS', '{KEY_NAMESPACE}*')
	local count = 0
	for _, key in ipairs(toDelete) do
	    redis.call('DEL', key)
	    count = count + 1
	end
	return count
`

type miscStorage struct {
	rdb    redis.UniversalClient
	prefix string
}

func (m *miscStorage) ClearAll(ctx context.Context) error {
	finalPrefix := "SPLITIO."
	if m.prefix != "" {
		finalPrefix = fmt.Sprintf("%s.%s.", m.prefix, "SPLITIO")
	}
	luaCMD := strings.Replace(clearAllTemplate, "{KEY_NAMESPACE}", finalPrefix, 1)
	return m.rdb.Eval(ctx, luaCMD, []string{}).Err() // want `script clearAllTemplate line 2: redis.call\("KEYS", "SPLITIO.\*"\) reads the keys of one node` `script clearAllTemplate line 5: redis.call\("DEL", key\) touches a key not declared in KEYS: key holds a value read from Redis by redis.call\("KEYS", "SPLITIO.\*"\)`
}

// ClearAllFixed is the fixed form: the keys are listed on every master
// and deleted one by one, each in its own slot.
func (m *miscStorage) ClearAllFixed(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		iter := node.Scan(ctx, 0, "SPLITIO.*", 100).Iterator()
		for iter.Next(ctx) {
			if err := node.Del(ctx, iter.Val()).Err(); err != nil {
				return err
			}
		}
		return iter.Err()
	})
}

// Origin: latolukasz/beeorm v2.10.1 (redis_cache.go, redisCache.FlushDB):
// the script is joined in Go around the namespace, put inside the Lua
// string of its KEYS pattern, and run with no KEYS; it deletes every key
// it lists.
type namespacedCache struct {
	rdb       redis.UniversalClient
	namespace string
}

func (r *namespacedCache) FlushDB(ctx context.Context) {
	script := "for _,k in ipairs(redis.call('keys','" + r.namespace + ":*')) do redis.call('del',k) end return 1"
	r.rdb.Eval(ctx, script, nil) // want `script script line 1: redis.call\("keys", "<r.namespace>:\*"\) reads the keys of one node` `script script line 1: redis.call\("del", k\) touches a key not declared in KEYS: k holds a value read from Redis by redis.call\("keys", "<r.namespace>:\*"\)`
}

// A value joined where Lua code goes, not inside a string, leaves the
// script unknown: it is not read.
func (r *namespacedCache) Unknown(ctx context.Context, code string) {
	r.rdb.Eval(ctx, "return redis.call('del', "+code+")", nil)
}

// FlushDBFixed is the fixed form: the namespace's keys listed on every
// master with SCAN, and deleted one by one.
func (r *namespacedCache) FlushDBFixed(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		iter := node.Scan(ctx, 0, r.namespace+":*", 100).Iterator()
		for iter.Next(ctx) {
			if err := node.Del(ctx, iter.Val()).Err(); err != nil {
				return err
			}
		}
		return iter.Err()
	})
}
