// Package rediscache is a cache over a cluster client whose type is
// unexported: it is handed out as the interface of another package, which
// its constructor returns, and its methods are called from other modules.
//
// Origin: dysnix/predictkube-libs v0.1.0 (external/cache/redis/core.go:
// NewCache; methods.go: Delete sends the callers' keys in one DEL on the
// cluster client).
package rediscache

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/ifacecache"
)

var _ ifacecache.Cache = (*cache)(nil)

type cache struct {
	writeClient *redis.ClusterClient
}

func NewCache(addrs []string) (ifacecache.Cache, error) {
	return &cache{writeClient: redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})}, nil
}

func (c *cache) Delete(ctx context.Context, keys ...string) error { // want Delete:`keyWrapper\(.*\)`
	return c.writeClient.Del(ctx, keys...).Err() // want `DEL of the callers' keys "<keys\.\.\.>"`
}

// Fixed: one DEL per key.
func (c *cache) DeleteEach(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		if err := c.writeClient.Del(ctx, k).Err(); err != nil {
			return err
		}
	}
	return nil
}
