// Package defaulted is a batch store whose configured key prefix defaults
// to a constant with a hashtag, after volcano-sh/kthena
// (pkg/kthena-router/batch/redis_store.go, NewRedisStore): the default
// shows that the prefix is meant to put every key under it in one slot,
// and the keys under one prefix are not reported.
package defaulted

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// DefaultKeyPrefix keeps every key of the store in one slot.
const DefaultKeyPrefix = "kthena:batch:{b}:"

type Store struct {
	client *redis.Client
	prefix string
}

// NewStore builds a store; an empty prefix uses DefaultKeyPrefix.
func NewStore(client *redis.Client, prefix string) *Store {
	if prefix == "" {
		prefix = DefaultKeyPrefix
	}
	return &Store{client: client, prefix: prefix}
}

func (s *Store) jobKey(id string) string { return s.prefix + "job:" + id }
func (s *Store) queueKey() string        { return s.prefix + "queue" }

func (s *Store) Submit(ctx context.Context, id string, score float64) error {
	pipe := s.client.TxPipeline()
	pipe.HSet(ctx, s.jobKey(id), "status", "queued")
	pipe.ZAddNX(ctx, s.queueKey(), redis.Z{Score: score, Member: id})
	_, err := pipe.Exec(ctx)
	return err
}
