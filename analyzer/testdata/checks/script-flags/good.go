package scriptflags

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var retry = redis.NewScript("#!lua\nreturn redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])")

func schedule(ctx context.Context, rdb *redis.ClusterClient) {
	retry.Run(ctx, rdb, []string{"emq:{q}:scheduled"}, 1, "id")
}
