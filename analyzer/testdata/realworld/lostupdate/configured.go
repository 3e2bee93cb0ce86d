package lostupdate

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// EnvConfig is an environment's configuration.
type EnvConfig struct{ Prefix string }

// Origin: launchdarkly/ld-relay (internal/sdks/data_stores.go,
// GetRedisBasicProperties; internal/bigsegments/store_redis.go,
// applyPatch): the store's prefix is the configured one or a default,
// returned as the second of two named results; a patch is applied under
// WATCH of the lock key when the cursor it reads matches, and the cursor
// is not watched.
func basicProperties(url string, env EnvConfig) (redisURL, prefix string) {
	redisURL = url
	prefix = env.Prefix
	if prefix == "" {
		prefix = "launchdarkly"
	}
	return
}

type segmentStore struct {
	rdb    redis.UniversalClient
	prefix string
}

func newSegmentStore(url string, env EnvConfig) *segmentStore {
	_, prefix := basicProperties(url, env)
	return &segmentStore{rdb: redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{url}}), prefix: prefix}
}

func lockKey(prefix string) string   { return fmt.Sprintf("%s:big_segments_lock", prefix) }
func cursorKey(prefix string) string { return fmt.Sprintf("%s:big_segments_cursor", prefix) }

func (r *segmentStore) applyPatch(ctx context.Context, previous, version string) error {
	return r.rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "launchdarkly:big_segments_lock" \(slot 13677\) and "launchdarkly:big_segments_cursor" \(slot 3904\) hash to different slots`
		cursor, err := tx.Get(ctx, cursorKey(r.prefix)).Result() // want `GET "<env.Prefix>:big_segments_cursor" is read inside the function of Watch on "<env.Prefix>:big_segments_lock", and its value decides whether to write SET "<env.Prefix>:big_segments_lock" at line \d+, but "<env.Prefix>:big_segments_cursor" is not watched`
		if err != nil && err != redis.Nil {
			return err
		}
		if err == nil && cursor != previous {
			return nil
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, lockKey(r.prefix), "", 0)
			pipe.Set(ctx, cursorKey(r.prefix), version, 0)
			return nil
		})
		return err
	}, lockKey(r.prefix))
}

// Fixed: the cursor is watched beside the lock, both under the prefix's
// hashtag.
func taggedLockKey(prefix string) string   { return fmt.Sprintf("{%s}:big_segments_lock", prefix) }
func taggedCursorKey(prefix string) string { return fmt.Sprintf("{%s}:big_segments_cursor", prefix) }

func (r *segmentStore) applyPatchFixed(ctx context.Context, previous, version string) error {
	return r.rdb.Watch(ctx, func(tx *redis.Tx) error {
		cursor, err := tx.Get(ctx, taggedCursorKey(r.prefix)).Result()
		if err != nil && err != redis.Nil {
			return err
		}
		if err == nil && cursor != previous {
			return nil
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, taggedLockKey(r.prefix), "", 0)
			pipe.Set(ctx, taggedCursorKey(r.prefix), version, 0)
			return nil
		})
		return err
	}, taggedLockKey(r.prefix), taggedCursorKey(r.prefix))
}
