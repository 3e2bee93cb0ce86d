package maybecrossslot

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The same value builds both hashtags.
func moveGood(ctx context.Context, rdb *redis.ClusterClient, queue, job string) {
	rdb.SMove(ctx, "emq:{"+queue+"}:queued", "emq:{"+queue+"}:pending", job)
}
