// Package scriptflags shows the script-flags check.
package scriptflags

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// flags=no-cluster: Redis 7 refuses the script on a cluster.
var retryBad = redis.NewScript("#!lua flags=no-cluster\nreturn redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])")

func scheduleBad(ctx context.Context, rdb *redis.ClusterClient) {
	retryBad.Run(ctx, rdb, []string{"emq:{q}:scheduled"}, 1, "id") // want `script retryBad line 1: flags=no-cluster makes Redis 7 refuse the script on a cluster`
}
