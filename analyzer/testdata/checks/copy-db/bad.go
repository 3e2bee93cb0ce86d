// Package copydb shows the copy-db check.
package copydb

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A Redis Cluster has only database 0.
func copyBad(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Copy(ctx, "{c}:a", "{c}:b", 2, false) // want `COPY to db 2 fails on Redis Cluster, which has only db 0; copy within db 0`
}
