package replykeys

import (
	"fmt"

	"github.com/go-redis/redis"
)

// Origin: beono/recache (redis.go, ClearByTag): a cache keeps the ids of
// the entries of each tag in a set, and clears a tag by SSCANning the set
// page by page and DELeting each page's ids, every entry a key of its own,
// in one command, queued with the tag in a pipeline (its errors.Wrap is
// fmt.Errorf here).
type TagCache struct{ redis *redis.Client }

func (m *TagCache) ClearByTag(tag string) error {
	tag = "tag:" + tag
	var cursor uint64
	for {
		keys, cursor, err := m.redis.SScan(tag, cursor, "", 0).Result()
		if err != nil {
			return fmt.Errorf("can't sscan: %w", err)
		}
		pipe := m.redis.Pipeline()
		pipe.Del(tag)
		pipe.Del(keys...) // want `DEL keys built as "<SSCAN reply>" from different values may hash to different slots`
		if _, err = pipe.Exec(); err != nil {
			return fmt.Errorf("can't exec: %w", err)
		}
		if cursor == 0 {
			return nil
		}
	}
}

// Fixed: each entry deleted by itself, in the one pipeline.
func (m *TagCache) ClearByTagFixed(tag string) error {
	tag = "tag:" + tag
	var cursor uint64
	for {
		keys, cursor, err := m.redis.SScan(tag, cursor, "", 0).Result()
		if err != nil {
			return err
		}
		pipe := m.redis.Pipeline()
		pipe.Del(tag)
		for _, k := range keys {
			pipe.Del(k)
		}
		if _, err = pipe.Exec(); err != nil {
			return err
		}
		if cursor == 0 {
			return nil
		}
	}
}
