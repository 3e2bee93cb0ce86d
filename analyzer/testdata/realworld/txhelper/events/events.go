// Package events queues commands on a transaction its caller opened, in
// another package than the caller: what it queues reaches the caller's
// transaction through a fact.
package events

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Append queues an event of an order on the caller's pipeline. Origin:
// asynq's rdb helpers that take a redis.Pipeliner, kept in a package of
// their own as in ThreeDotsLabs/watermill-redisstream.
func Append(ctx context.Context, p redis.Pipeliner, order, event string) { // want Append:`keyWrapper\(XADD "events:<order>" on \$1\)`
	p.XAdd(ctx, &redis.XAddArgs{Stream: "events:" + order, Values: map[string]any{"e": event}})
}

// AppendTagged keeps the order's hashtag.
func AppendTagged(ctx context.Context, p redis.Pipeliner, order, event string) { // want AppendTagged:`keyWrapper\(XADD "order:\{<order>\}:events" on \$1\)`
	p.XAdd(ctx, &redis.XAddArgs{Stream: "order:{" + order + "}:events", Values: map[string]any{"e": event}})
}
