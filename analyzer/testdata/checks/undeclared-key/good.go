package undeclaredkey

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Every key the script touches is in KEYS, and the keys share a hashtag.
const enqueueGood = `
redis.call("HSET", KEYS[1], "payload", ARGV[2])
redis.call("LPUSH", KEYS[2], ARGV[1])
redis.call("SADD", KEYS[3], ARGV[3])
`

func enqueue(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Eval(ctx, enqueueGood, []string{"emq:{q}:job:1", "emq:{q}:pending", "emq:{q}:queues"}, "1", "{}", "q")
}
