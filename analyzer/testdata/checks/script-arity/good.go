package scriptarity

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func completeGood(ctx context.Context, rdb *redis.ClusterClient, id string) {
	complete.Run(ctx, rdb, []string{"emq:{q}:active", "emq:{q}:job:" + id}, id)
}
