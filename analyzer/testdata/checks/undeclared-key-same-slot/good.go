package undeclaredkeysameslot

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The caller reads the id first, then passes the task key in KEYS.
var activate = redis.NewScript(`
if redis.call("LREM", KEYS[1], 1, ARGV[1]) == 0 then return 0 end
redis.call("LPUSH", KEYS[2], ARGV[1])
return redis.call("HSET", KEYS[3], "state", "active")`)

func activateGood(ctx context.Context, rdb *redis.ClusterClient, qname, id string) {
	activate.Run(ctx, rdb, []string{"q:{" + qname + "}:pending", "q:{" + qname + "}:active", "q:{" + qname + "}:t:" + id}, id)
}
