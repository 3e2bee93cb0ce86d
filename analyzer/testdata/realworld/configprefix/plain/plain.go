// Package plain is the token store of package derived in a package that
// shows no prefix with a hashtag, after stacklok/toolhive
// (pkg/authserver/storage): its configured prefix may have none, and the
// keys under it may span slots.
package plain

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

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

func (s *Storage) InvalidateCode(ctx context.Context, code string) error {
	invalidated := redisKey(s.keyPrefix, "invalidated", code)
	key := redisKey(s.keyPrefix, "authcode", code)
	pipe := s.client.TxPipeline() // want `MULTI/EXEC transaction keys .* may hash to different slots`
	pipe.Set(ctx, invalidated, "1", time.Minute)
	pipe.Expire(ctx, key, time.Minute)
	_, err := pipe.Exec(ctx)
	return err
}
