// Package maybecrossslot shows the maybe-cross-slot check.
package maybecrossslot

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The set of queues has no hashtag; the pending list has the queue's.
func moveBad(ctx context.Context, rdb *redis.ClusterClient, queue, job string) {
	rdb.SMove(ctx, "emq:queues", "emq:{"+queue+"}:pending", job) // want `SMOVE keys "emq:queues" \(slot 8388\) and "emq:\{<queue>\}:pending" \(hashtag "\{<queue>\}"\) may hash to different slots`
}
