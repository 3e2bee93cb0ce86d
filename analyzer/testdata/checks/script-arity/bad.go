// Package scriptarity shows the script-arity check.
package scriptarity

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var complete = redis.NewScript(`
redis.call("LREM", KEYS[1], 1, ARGV[1])
return redis.call("HSET", KEYS[2], "state", "done")`)

// The script reads KEYS[2], and the call passes one key.
func completeBad(ctx context.Context, rdb *redis.ClusterClient, id string) {
	complete.Run(ctx, rdb, []string{"emq:{q}:active"}, id) // want `script complete line 3: KEYS\[2\] is nil: the call passes 1 key; pass the key in KEYS`
}
