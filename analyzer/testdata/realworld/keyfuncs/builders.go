package keyfuncs

import (
	"context"
	"fmt"

	goredis "github.com/redis/go-redis/v9"
)

// Origin: slyslyan/GCFeed (apps/api/internal/infra/cache/feed_cache.go):
// a feed cache reads the cards and the counters of a page of videos with
// one MGET each, of the keys that cacheKeys makes by calling the key
// function it is given on each video ID: "video:card:v1:<id>" for every
// ID, one slot each.
type FeedCache struct{ client goredis.Cmdable }

func (c *FeedCache) GetCards(ctx context.Context, videoIDs []int64) ([]any, error) {
	return c.client.MGet(ctx, cacheKeys(videoIDs, feedCardKey)...).Result() // want `MGET keys built as "video:card:v1:<videoID>" from different values may hash to different slots`
}

func (c *FeedCache) GetStats(ctx context.Context, videoIDs []int64) ([]any, error) {
	return c.client.MGet(ctx, cacheKeys(videoIDs, feedStatKey)...).Result() // want `MGET keys built as "video:stat:v1:<videoID>" from different values may hash to different slots`
}

// Fixed: the cards under one hashtag, a slot of their own.
func (c *FeedCache) GetCardsTagged(ctx context.Context, videoIDs []int64) ([]any, error) {
	return c.client.MGet(ctx, cacheKeys(videoIDs, taggedCardKey)...).Result()
}

func cacheKeys(videoIDs []int64, build func(int64) string) []string {
	keys := make([]string, 0, len(videoIDs))
	for _, videoID := range videoIDs {
		keys = append(keys, build(videoID))
	}
	return keys
}

func feedCardKey(videoID int64) string { return fmt.Sprintf("video:card:v1:%d", videoID) }

func feedStatKey(videoID int64) string { return fmt.Sprintf("video:stat:v1:%d", videoID) }

func taggedCardKey(videoID int64) string { return fmt.Sprintf("video:card:v1:{cards}:%d", videoID) }
