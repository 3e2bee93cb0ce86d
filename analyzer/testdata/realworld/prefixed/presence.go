package prefixed

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/prefixed/streaming"
)

// Origin: xraph/forge (extensions/streaming/backends/redis, PresenceStore's
// GetMultiple and DeleteMultiple): exported methods that join the store's
// prefix to each id of their parameter and send the keys in one MGET, and
// in one DEL of a pipeline. Their callers reach them through the
// interface of the package streaming, which does not import this one and
// never sees what they carry: the keys are checked where they are built,
// as keys of one template without a hashtag.
type PresenceStore struct {
	client *redis.Client
	prefix string
}

func NewPresenceStore(client *redis.Client, prefix string) streaming.PresenceStore {
	if prefix == "" {
		prefix = "streaming:presence"
	}
	return &PresenceStore{client: client, prefix: prefix}
}

func (s *PresenceStore) GetMultiple(ctx context.Context, userIDs []string) ([]interface{}, error) {
	keys := make([]string, len(userIDs))
	for i, userID := range userIDs {
		keys[i] = s.prefix + ":" + userID
	}
	return s.client.MGet(ctx, keys...).Result() // want `MGET keys built as .* from different values may hash to different slots`
}

func (s *PresenceStore) DeleteMultiple(ctx context.Context, userIDs []string) error {
	keys := make([]string, len(userIDs))
	for i, userID := range userIDs {
		keys[i] = s.prefix + ":" + userID
	}
	pipe := s.client.Pipeline()
	pipe.Del(ctx, keys...) // want `DEL keys built as .* from different values may hash to different slots`
	_, err := pipe.Exec(ctx)
	return err
}

// The fixed store keeps one presence key per user in a hash, so one HMGET
// or HDEL reads or drops them all.
type PresenceHashStore struct {
	client *redis.Client
	prefix string
}

func NewPresenceHashStore(client *redis.Client, prefix string) streaming.PresenceStore {
	if prefix == "" {
		prefix = "streaming:presence"
	}
	return &PresenceHashStore{client: client, prefix: prefix}
}

func (s *PresenceHashStore) GetMultiple(ctx context.Context, userIDs []string) ([]interface{}, error) {
	return s.client.HMGet(ctx, s.prefix+":users", userIDs...).Result()
}

func (s *PresenceHashStore) DeleteMultiple(ctx context.Context, userIDs []string) error {
	return s.client.HDel(ctx, s.prefix+":users", userIDs...).Err()
}
