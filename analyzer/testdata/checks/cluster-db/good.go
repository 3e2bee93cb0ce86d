package clusterdb

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The copy stays in database 0.
func copyGood(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Copy(ctx, "{c}:a", "{c}:b", 0, false)
}

// Database 0, with the keys kept apart by a prefix instead.
func open() redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs: []string{"redis-1:6379", "redis-2:6379", "redis-3:6379"},
	})
}
