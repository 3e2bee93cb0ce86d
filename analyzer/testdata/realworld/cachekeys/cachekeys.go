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

// Origin: zhufuyi/sponge (internal/cache/userExample.go, MultiSet): a map
// filled in a loop, one entry per user, handed to the cache's MultiSet,
// whose Redis implementation sends every key in one MSET.
func (c *userCache) multiSet(ctx context.Context, users map[uint64]string) error {
	valMap := make(map[string]interface{})
	for id, name := range users {
		valMap[fmt.Sprintf("userExample:%d", id)] = name
	}
	return c.cache.SetMany(ctx, valMap) // want `MSET \(through SetMany at store.go:\d+\) keys built as "<c.cache.KeyPrefix>:userExample:<id>" from different values may hash to different slots`
}

func (c *userCache) multiSetFixed(ctx context.Context, users map[uint64]string) error {
	valMap := make(map[string]interface{})
	for id, name := range users {
		valMap[fmt.Sprintf("{userExample}:%d", id)] = name
	}
	return c.cache.SetMany(ctx, valMap)
}
