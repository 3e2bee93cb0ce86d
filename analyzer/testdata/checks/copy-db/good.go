package copydb

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The copy stays in database 0.
func copyGood(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Copy(ctx, "{c}:a", "{c}:b", 0, false)
}
