// Package scanned holds keys read from Redis, reduced from real projects:
// the reply of SCAN or KEYS, or the values of SCAN's iterator, deleted
// together. Each key that a pattern matches has the pattern's text and
// something else where its wildcards are: without a hashtag outside the
// wildcards, two of them may be in different slots.
package scanned

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: afiff2/go-chat-server (internal/service/redis, deleteByPatternBatch
// and DelKeysWithPrefix): SCAN by the pattern prefix + "*", each batch of
// keys DEL'd at once. The prefix is the one its callers pass for a user's
// contact list cache.
func deleteContactLists(ctx context.Context, rdb *redis.Client, ownerID string) error {
	var cursor uint64
	for {
		keys, next, err := rdb.Scan(ctx, cursor, "contact_user_list_"+ownerID+"*", 100).Result()
		if err != nil {
			return err
		}
		if len(keys) > 0 {
			if err := rdb.Del(ctx, keys...).Err(); err != nil { // want `DEL keys built as "contact_user_list_<ownerID><\*>" from different values may hash to different slots`
				return err
			}
		}
		if next == 0 {
			return nil
		}
		cursor = next
	}
}

// The pattern's text up to the wildcard in a hashtag: every key it matches
// is in that hashtag's slot.
func deleteContactListsFixed(ctx context.Context, rdb *redis.Client, ownerID string) error {
	var cursor uint64
	for {
		keys, next, err := rdb.Scan(ctx, cursor, "{contact_user_list_"+ownerID+"}*", 100).Result()
		if err != nil {
			return err
		}
		if len(keys) > 0 {
			if err := rdb.Del(ctx, keys...).Err(); err != nil {
				return err
			}
		}
		if next == 0 {
			return nil
		}
		cursor = next
	}
}

// Origin: flexprice/flexprice (internal/cache/redis.go,
// RedisCache.DeleteByPrefix as its comments write it): SCAN's iterator,
// its keys appended and deleted in batches. The client is a
// UniversalClient, for standalone and cluster deployments alike.
func deleteByPrefix(ctx context.Context, rdb redis.UniversalClient) {
	iter := rdb.Scan(ctx, 0, "flexprice:plan:*", 100).Iterator() // want `SCAN on rdb, a client that may be a cluster`
	var keysToDelete []string
	for iter.Next(ctx) {
		keysToDelete = append(keysToDelete, iter.Val())
		if len(keysToDelete) >= 1000 {
			rdb.Del(ctx, keysToDelete...) // want `DEL keys built as "flexprice:plan:<\*>" from different values may hash to different slots`
			keysToDelete = keysToDelete[:0]
		}
	}
	if len(keysToDelete) > 0 {
		rdb.Del(ctx, keysToDelete...) // want `DEL keys built as "flexprice:plan:<\*>" from different values may hash to different slots`
	}
}

func deleteByPrefixFixed(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		iter := node.Scan(ctx, 0, "{flexprice:plan}:*", 100).Iterator()
		var keysToDelete []string
		for iter.Next(ctx) {
			keysToDelete = append(keysToDelete, iter.Val())
		}
		if len(keysToDelete) > 0 {
			node.Del(ctx, keysToDelete...)
		}
		return iter.Err()
	})
}

// The same with KEYS, in the shape of go-chat-server's earlier scanKeys
// (Keys, then the keys deleted together).
func purgeSessions(ctx context.Context, rdb *redis.Client) {
	keys, err := rdb.Keys(ctx, "session_list_*").Result()
	if err != nil || len(keys) == 0 {
		return
	}
	rdb.Del(ctx, keys...) // want `DEL keys built as "session_list_<\*>" from different values may hash to different slots`
}

func purgeSessionsFixed(ctx context.Context, rdb *redis.Client) {
	keys, err := rdb.Keys(ctx, "{session_list}_*").Result()
	if err != nil || len(keys) == 0 {
		return
	}
	rdb.Del(ctx, keys...)
}

// A pattern with no text at all says nothing of the keys: not reported.
func purgeAll(ctx context.Context, rdb *redis.Client, pattern string) {
	keys, _ := rdb.Keys(ctx, pattern).Result()
	rdb.Del(ctx, keys...)
}

// The members of an index set, deleted together: the tag-set flush of a
// cache by tags, as a Go service in the public code index writes it
// (SMembers of "tag:<md5>", then Del of its members; the index does not
// name its repository). Each member is a key the cache wrote, of its own
// slot.
func flushTag(ctx context.Context, rdb *redis.Client, tag string) error {
	members, err := rdb.SMembers(ctx, "tag:"+tag).Result()
	if err != nil || len(members) == 0 {
		return err
	}
	return rdb.Del(ctx, members...).Err() // want `DEL keys built as "<SMEMBERS reply>" from different values may hash to different slots`
}

// Fixed: one DEL a member, in a plain pipeline, which a cluster client
// sends to each member's node.
func flushTagFixed(ctx context.Context, rdb *redis.Client, tag string) error {
	members, err := rdb.SMembers(ctx, "tag:"+tag).Result()
	if err != nil || len(members) == 0 {
		return err
	}
	_, err = rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, m := range members {
			pipe.Del(ctx, m)
		}
		return nil
	})
	return err
}
