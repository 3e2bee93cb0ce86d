package scanned

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: xraph/forge v0.7.5 (extensions/streaming/backends/redis,
// PresenceStore.CountByStatus): every key under the store's prefix, read
// with KEYS, filtered in a loop to the users' presence keys, and read
// together with MGET. The users' keys are in as many slots as there are
// users.
type presenceStore struct {
	client redis.UniversalClient
	prefix string
}

func (s *presenceStore) CountByStatus(ctx context.Context) (int, error) {
	keys, err := s.client.Keys(ctx, s.prefix+":*").Result() // want `KEYS on s.client, a client that may be a cluster, reads one node.s keys only`
	if err != nil || len(keys) == 0 {
		return 0, err
	}
	var presenceKeys []string
	for _, key := range keys {
		if !strings.Contains(key, ":history:") && !strings.Contains(key, ":online") {
			presenceKeys = append(presenceKeys, key)
		}
	}
	if len(presenceKeys) == 0 {
		return 0, nil
	}
	results, err := s.client.MGet(ctx, presenceKeys...).Result() // want `MGET keys built as "<s.prefix>:<\*>" from different values may hash to different slots`
	return len(results), err
}

// Fixed: the users' keys are listed in a set, not found with KEYS, and
// each is read by its own GET in a plain pipeline, which needs no common
// slot.
func (s *presenceStore) CountByStatusFixed(ctx context.Context) (int, error) {
	keys, err := s.client.SMembers(ctx, "{"+s.prefix+"}:users").Result()
	if err != nil {
		return 0, err
	}
	pipe := s.client.Pipeline()
	for _, key := range keys {
		if !strings.Contains(key, ":history:") {
			pipe.Get(ctx, key)
		}
	}
	cmds, err := pipe.Exec(ctx)
	return len(cmds), err
}
