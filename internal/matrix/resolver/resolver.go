// Package resolver holds the matrix's rows of go-redis v9's ClusterClient
// with the command policy resolver that reads Redis's command tips
// (SetCommandInfoResolver(NewDynamicResolver())), which go-redis's default
// resolver does not: the default one knows only RediSearch's FT.*
// commands. They are a package of their own because slotlint takes a
// package that installs this resolver as splitting MGET, DEL and the like
// on all its cluster clients. go-redis's oldest v9 releases have no
// resolver.
package resolver

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func dynamic(addrs []string) *redis.ClusterClient {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	c.SetCommandInfoResolver(c.NewDynamicResolver())
	return c
}

// Alone sends MGET price:1 price:2.
func Alone(ctx context.Context, addrs []string) ([]any, error) {
	c := dynamic(addrs)
	defer c.Close()
	return c.MGet(ctx, "price:1", "price:2").Result()
}

// Del sends DEL price:1 price:2 and returns how many keys it deleted.
func Del(ctx context.Context, addrs []string) (int64, error) {
	c := dynamic(addrs)
	defer c.Close()
	return c.Del(ctx, "price:1", "price:2").Result()
}

// Exists sends EXISTS price:1 price:2 and returns how many keys exist.
func Exists(ctx context.Context, addrs []string) (int64, error) {
	c := dynamic(addrs)
	defer c.Close()
	return c.Exists(ctx, "price:1", "price:2").Result()
}

// MSet sends MSET price:1 1 price:2 2.
func MSet(ctx context.Context, addrs []string) error {
	c := dynamic(addrs)
	defer c.Close()
	return c.MSet(ctx, "price:1", "1", "price:2", "2").Err()
}

// Keys sends KEYS scan:* and returns how many keys it found.
func Keys(ctx context.Context, addrs []string) (int, error) {
	c := dynamic(addrs)
	defer c.Close()
	keys, err := c.Keys(ctx, "scan:*").Result()
	return len(keys), err
}
