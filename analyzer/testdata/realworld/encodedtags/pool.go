package encodedtags

import (
	"context"
	"encoding/base64"

	"github.com/redis/go-redis/v9"
)

// Origin: opensandbox-group/OpenSandbox (sdks/sandbox/go/poolredis,
// store.go): a pool's state keys are the configured prefix, the pool's
// name in base64 without padding as the hashtag, and a suffix; a script
// takes an idle sandbox off the pool's list and its expiry set.
type poolStore struct {
	client    redis.UniversalClient
	keyPrefix string
}

func newPoolStore(client redis.UniversalClient, prefix string) *poolStore {
	if prefix == "" {
		prefix = "opensandbox:pool"
	}
	return &poolStore{client: client, keyPrefix: prefix}
}

func (s *poolStore) poolKey(poolName, suffix string) string {
	encoded := base64.URLEncoding.WithPadding(base64.NoPadding).EncodeToString([]byte(poolName))
	return s.keyPrefix + ":{" + encoded + "}:" + suffix
}

var takeIdle = redis.NewScript(`
local id = redis.call("LPOP", KEYS[1])
if id then redis.call("ZREM", KEYS[2], id) end
return id
`)

// Fixed, as the project has it: one pool's keys share its hashtag.
func (s *poolStore) TakeIdle(ctx context.Context, poolName string) error {
	return takeIdle.Run(ctx, s.client, []string{s.poolKey(poolName, "idle:list"), s.poolKey(poolName, "idle:expires")}).Err()
}

// The bug the hashtag prevents: the expiry set of another pool.
func (s *poolStore) TakeIdleFrom(ctx context.Context, poolName, expiresOf string) error {
	return takeIdle.Run(ctx, s.client, []string{s.poolKey(poolName, "idle:list"), s.poolKey(expiresOf, "idle:expires")}).Err() // want `EVALSHA keys "<s.keyPrefix>:\{<base64.URLEncoding.WithPadding\(base64...>\}:idle:list" \(hashtag unknown\) and "<s.keyPrefix>:\{<base64.URLEncoding.WithPadding\(base64...>\}:idle:expires" \(hashtag unknown\) may hash to different slots`
}
