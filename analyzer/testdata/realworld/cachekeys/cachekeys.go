// Package cachekeys holds keys built in a loop and handed to a cache
// interface of another package, whose Redis implementation sends them in
// one MGET.
package cachekeys

import (
	"context"
	"fmt"

	"slotlint.test/realworld/cachekeys/store"
)

// Origin: go-eagle/eagle (internal/cache/user_base.go,
// MultiGetUserBaseCache): one key per user, "eagle:user:base:<id>", built
// in a loop and handed to the cache's MultiGet.
type userCache struct{ cache store.Cache }

func (c *userCache) multiGet(ctx context.Context, ids []uint64) error {
	var keys []string
	for _, id := range ids {
		keys = append(keys, fmt.Sprintf("eagle:user:base:%d", id))
	}
	// The cache's Redis implementation sends them, each joined to its
	// prefix, in one MGET; its memory implementation sends nothing.
	_, err := c.cache.MultiGet(ctx, keys) // want `MGET \(through MultiGet at store.go:\d+\) keys built as "eagle:user:base:<id>" from different values may hash to different slots`
	return err
}

func (c *userCache) multiGetFixed(ctx context.Context, ids []uint64) error {
	var keys []string
	for _, id := range ids {
		keys = append(keys, fmt.Sprintf("{eagle:user:base}:%d", id))
	}
	_, err := c.cache.MultiGet(ctx, keys)
	return err
}
