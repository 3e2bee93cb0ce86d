// Package feed holds the sorted set of a timeline, whose methods queue
// their commands on a pipeline their caller hands them, from another
// package than the caller's transaction.
package feed

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Sorted is the shape of 21strive/redifu's SortedSet: the timeline holds
// one in a field and hands it its pipeline.
type Sorted struct{}

// SetItem queues the item's score on the caller's pipeline.
func (s *Sorted) SetItem(ctx context.Context, pipe redis.Pipeliner, score float64, id, param string) { // want SetItem:`keyWrapper\(ZADD "timeline:<param>" on \$1\)`
	pipe.ZAdd(ctx, "timeline:"+param, redis.Z{Score: score, Member: id})
}

// SetItemTagged keeps the timeline's hashtag.
func (s *Sorted) SetItemTagged(ctx context.Context, pipe redis.Pipeliner, score float64, id, param string) { // want SetItemTagged:`keyWrapper\(ZADD "timeline:\{<param>\}" on \$1\)`
	pipe.ZAdd(ctx, "timeline:{"+param+"}", redis.Z{Score: score, Member: id})
}
