// Package pubsub holds sharded pub/sub over channels in different slots:
// sharded channels are keys in SSUBSCRIBE's key specs, and a cluster
// refuses channels of several slots in one SSUBSCRIBE (cross-slot).
package pubsub

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// client reduces richelieu-yang/chimera's redisKit.Client
// (src/database/redisKit/command_subscribe.go), whose SSubscribe passes
// its channels to the UniversalClient's.
type client struct {
	universalClient redis.UniversalClient
}

func (c *client) SSubscribe(ctx context.Context, channels ...string) *redis.PubSub { // want SSubscribe:`keyWrapper\(SSUBSCRIBE "<channels...>"\)`
	return c.universalClient.SSubscribe(ctx, channels...)
}

func listen(ctx context.Context, c *client, rdb *redis.ClusterClient) {
	c.SSubscribe(ctx, "orders", "payments")          // want `SSUBSCRIBE \(through SSubscribe at pubsub.go:20\) keys "orders" \(slot \d+\) and "payments" \(slot \d+\) hash to different slots`
	ps := rdb.SSubscribe(ctx, "orders:eu")           //
	ps.SSubscribe(ctx, "orders:us", "orders:asia")   // want `SSUBSCRIBE keys "orders:us" \(slot \d+\) and "orders:asia" \(slot \d+\) hash to different slots; give them a common hashtag`
	ps.SUnsubscribe(ctx, "orders:us", "orders:asia") // want `SUNSUBSCRIBE keys "orders:us" .* hash to different slots`
	rdb.SPublish(ctx, "orders:eu", "m")              // one channel: no slots to share
	// Fixed: the channels share a hashtag, or each SSUBSCRIBE has one slot.
	c.SSubscribe(ctx, "{orders}:eu", "{orders}:us")
	ps.SSubscribe(ctx, "orders:us")
	ps.SSubscribe(ctx, "orders:asia")
}
