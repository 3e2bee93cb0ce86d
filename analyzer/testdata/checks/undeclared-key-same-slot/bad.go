// Package undeclaredkeysameslot shows the undeclared-key-same-slot check.
package undeclaredkeysameslot

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The task key is built inside the script from a prefix with KEYS[1]'s
// hashtag: Redis Cluster runs it, cluster proxies do not.
var claim = redis.NewScript(`
local id = redis.call("RPOPLPUSH", KEYS[1], KEYS[2])
if not id then return nil end
redis.call("HSET", ARGV[1] .. id, "state", "active")
return id`)

func claimBad(ctx context.Context, rdb *redis.ClusterClient, qname string) {
	claim.Run(ctx, rdb, []string{"q:{" + qname + "}:pending", "q:{" + qname + "}:active"}, "q:{"+qname+"}:t:") // want `keeps the hashtag "\{<qname>\}" of KEYS\[1\], so it works on Redis Cluster but breaks cluster proxies`
}
