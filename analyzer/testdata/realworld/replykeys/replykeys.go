// Package replykeys deletes in one command keys that Redis listed: the
// members of tag sets, the keys a KEYS or SCAN reply names, through
// go-redis, radix and rueidis. Each member or listed key is a key of its
// own slot, whatever the caller passes.
package replykeys

import (
	"context"

	radix "github.com/mediocregopher/radix/v3"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// Origin: ArtisanCloud/PowerLibs (cache/redis.go, Invalidate): each tag
// set and the cache keys it lists go into one DEL.
type Tags struct {
	Pool redis.UniversalClient
}

func (t *Tags) Invalidate(ctx context.Context, tags []string) {
	keys := make([]string, 0)
	for _, tag := range tags {
		k, _ := t.Pool.SMembers(ctx, tag).Result()
		keys = append(keys, tag)
		keys = append(keys, k...)
	}
	t.Pool.Del(ctx, keys...) // want `DEL keys built as "<SMEMBERS reply>" from different values may hash to different slots; no common hashtag proves they share one; they are keys read from Redis, each what the code stored: write such keys under one hashtag, or send one command per key$`
}

// InvalidateFixed deletes one key a command, in a plain pipeline, which a
// cluster client sends to each key's node.
func (t *Tags) InvalidateFixed(ctx context.Context, tags []string) error {
	pipe := t.Pool.Pipeline()
	for _, tag := range tags {
		k, _ := t.Pool.SMembers(ctx, tag).Result()
		pipe.Del(ctx, tag)
		for _, key := range k {
			pipe.Del(ctx, key)
		}
	}
	_, err := pipe.Exec(ctx)
	return err
}

// Origin: gadelkareem/cachita (redis.go, InvalidateTags): radix reads the
// members of each tag set into a slice, and one DEL takes them all.
type Cache struct {
	pool   *radix.Pool
	prefix string
}

func (c *Cache) InvalidateTags(tags ...string) error {
	var rKeys []string
	for _, t := range tags {
		var keys []string
		if err := c.pool.Do(radix.Cmd(&keys, "SMEMBERS", c.prefix+":tags::"+t)); err != nil {
			return err
		}
		rKeys = append(rKeys, keys...)
	}
	if len(rKeys) == 0 {
		return nil
	}
	return c.pool.Do(radix.Cmd(nil, "DEL", rKeys...)) // want `DEL keys built as "<SMEMBERS reply>" from different values may hash to different slots`
}

// InvalidateTagsFixed deletes the members one at a time.
func (c *Cache) InvalidateTagsFixed(tags ...string) error {
	for _, t := range tags {
		var keys []string
		if err := c.pool.Do(radix.Cmd(&keys, "SMEMBERS", c.prefix+":tags::"+t)); err != nil {
			return err
		}
		for _, k := range keys {
			if err := c.pool.Do(radix.Cmd(nil, "DEL", k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Origin: darkweak/storages (redis/redis.go, DeleteMany): rueidis pages
// of a SCAN, every page's keys in one DEL. Here the pattern is the
// package's own; with the caller's pattern, as in DeleteMany itself, the
// pattern says nothing of the keys, and only the SCAN is reported.
type Store struct {
	ctx      context.Context
	inClient rueidis.Client
}

func (s *Store) DeleteCached() {
	var scan rueidis.ScanEntry
	var err error
	elements := []string{}
	for more := true; more; more = scan.Cursor != 0 {
		if scan, err = s.inClient.Do(s.ctx, s.inClient.B().Scan().Cursor(scan.Cursor).Match("cache:*").Build()).AsScanEntry(); err != nil { // want `SCAN on s.inClient, a client that may be a cluster, reads one node.s keys only`
			return
		}
		elements = append(elements, scan.Elements...)
	}
	_ = s.inClient.Do(s.ctx, s.inClient.B().Del().Key(elements...).Build()) // want `DEL keys built as "cache:<\*>" from different values may hash to different slots`
}

// DeleteAll lists the keys with KEYS.
func (s *Store) DeleteAll() {
	keys, err := s.inClient.Do(s.ctx, s.inClient.B().Keys().Pattern("cache:*").Build()).AsStrSlice() // want `KEYS on s.inClient, a client that may be a cluster, reads one node.s keys only`
	if err != nil {
		return
	}
	_ = s.inClient.Do(s.ctx, s.inClient.B().Del().Key(keys...).Build()) // want `DEL keys built as "cache:<\*>" from different values may hash to different slots`
}

// DeleteIndexed keeps its keys listed in a set and deletes them one
// command each, in one DoMulti, which a cluster client sends to each
// key's node.
func (s *Store) DeleteIndexed() error {
	keys, err := s.inClient.Do(s.ctx, s.inClient.B().Smembers().Key("{cache}:index").Build()).AsStrSlice()
	if err != nil {
		return err
	}
	cmds := make(rueidis.Commands, 0, len(keys))
	for _, k := range keys {
		cmds = append(cmds, s.inClient.B().Del().Key(k).Build())
	}
	for _, r := range s.inClient.DoMulti(s.ctx, cmds...) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}
