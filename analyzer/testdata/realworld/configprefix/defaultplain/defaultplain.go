// Package defaultplain is package defaulted's store with a default prefix
// that has no hashtag (the bad form of volcano-sh/kthena's batch store):
// the job and the queue are keys of their own slots.
package defaultplain

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// DefaultKeyPrefix has no hashtag.
const DefaultKeyPrefix = "kthena:batch:"

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
	pipe := s.client.TxPipeline() // want `MULTI/EXEC transaction keys .* may hash to different slots`
	pipe.HSet(ctx, s.jobKey(id), "status", "queued")
	pipe.ZAddNX(ctx, s.queueKey(), redis.Z{Score: score, Member: id})
	_, err := pipe.Exec(ctx)
	return err
}
