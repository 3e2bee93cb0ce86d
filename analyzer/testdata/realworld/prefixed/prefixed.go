// Package prefixed holds keys built in a loop from one template without a
// hashtag, reduced from a real project: a prefix the caller gives joined
// to each element of the caller's slice. The keys have one shape and
// differ by their element: sent in one command they may span slots. The
// function shows nothing of its keys' slots, since the prefix is a
// parameter, so its callers are checked with their prefixes.
package prefixed

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.ClusterClient

// Origin: afiff2/go-chat-server (internal/service/redis, DelKeysWithPrefixA
// and DelKeys): the keys prefix + each uuid, deleted by a plain pipeline
// of one DEL per key, which needs no common slot.
func delKeys(ctx context.Context, keys []string) error {
	pipe := rdb.Pipeline()
	for _, key := range keys {
		pipe.Del(ctx, key)
	}
	_, err := pipe.Exec(ctx)
	return err
}

func delKeysWithPrefix(ctx context.Context, prefix string, uuids []string) error {
	keys := make([]string, 0, len(uuids))
	for _, id := range uuids {
		keys = append(keys, prefix+id)
	}
	return delKeys(ctx, keys)
}

// The same keys in one DEL, as the project's deleteByPatternBatch deletes a
// batch: the callers' prefix decides.
func delKeysWithPrefixAtOnce(ctx context.Context, prefix string, uuids []string) error {
	keys := make([]string, 0, len(uuids))
	for _, id := range uuids {
		keys = append(keys, prefix+id)
	}
	return rdb.Del(ctx, keys...).Err()
}

func forgetContacts(ctx context.Context, ownerIDs []string) {
	_ = delKeysWithPrefix(ctx, "contact_user_list_", ownerIDs)
	_ = delKeysWithPrefixAtOnce(ctx, "contact_user_list_", ownerIDs) // want `DEL \(through delKeysWithPrefixAtOnce at prefixed.go:\d+\) keys built as "contact_user_list_<id>" from different values may hash to different slots`
}

func forgetContactsFixed(ctx context.Context, ownerIDs []string) {
	_ = delKeysWithPrefixAtOnce(ctx, "{contact_user_list}_", ownerIDs)
}
