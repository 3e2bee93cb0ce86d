// Package clusterdb shows the cluster-db check.
package clusterdb

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A Redis Cluster has only database 0.
func copyBad(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Copy(ctx, "{c}:a", "{c}:b", 2, false) // want `COPY to db 2 fails on Redis Cluster, which has only db 0; keep the data in db 0 and tell it apart by a key prefix`
}

// A ClusterClient built from several addresses drops DB: the data lands in
// database 0.
func openBad() redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs: []string{"redis-1:6379", "redis-2:6379", "redis-3:6379"},
		DB:    3, // want `UniversalOptions with 3 addresses in Addrs and DB 3: NewUniversalClient builds a ClusterClient, which drops DB, so every key goes to db 0 with no error`
	})
}
