// Package derived is a token store whose key prefix comes from its
// caller's settings, after stacklok/toolhive (pkg/authserver/storage): the
// package derives its prefixes with a hashtag ("thv:auth:{ns:name}:"), so
// the configured prefix is taken to be one of those, and the keys under
// it to share its slot. The store in package plain, whose package shows
// no such prefix, is reported.
package derived

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// DeriveKeyPrefix makes the key prefix of one server's store; the hash
// tag {ns:name} puts all of its keys in one slot.
func DeriveKeyPrefix(namespace, name string) string { // want DeriveKeyPrefix:`keyFunc\("thv:auth:{<namespace>:<name>}:"\)`
	return fmt.Sprintf("thv:auth:{%s:%s}:", namespace, name)
}

type Config struct {
	KeyPrefix string
}

type Storage struct {
	client    redis.UniversalClient
	keyPrefix string
}

func New(client redis.UniversalClient, cfg Config) *Storage {
	return &Storage{client: client, keyPrefix: cfg.KeyPrefix}
}

func redisKey(prefix, keyType, id string) string {
	return fmt.Sprintf("%s%s:%s", prefix, keyType, id)
}

// InvalidateCode marks a code used and extends the code's TTL, in one
// MULTI/EXEC.
func (s *Storage) InvalidateCode(ctx context.Context, code string) error {
	invalidated := redisKey(s.keyPrefix, "invalidated", code)
	key := redisKey(s.keyPrefix, "authcode", code)
	pipe := s.client.TxPipeline()
	pipe.Set(ctx, invalidated, "1", time.Minute)
	pipe.Expire(ctx, key, time.Minute)
	_, err := pipe.Exec(ctx)
	return err
}
