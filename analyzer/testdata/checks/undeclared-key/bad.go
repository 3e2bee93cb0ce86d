// Package undeclaredkey shows the undeclared-key check.
package undeclaredkey

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The set of queues is named inside the script, not passed in KEYS.
const enqueueBad = `
local id = ARGV[1]
redis.call("HSET", KEYS[1], "payload", ARGV[2])
redis.call("LPUSH", KEYS[2], id)
redis.call("SADD", "emq:queues", ARGV[3])
`

func enqueueBadly(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Eval(ctx, enqueueBad, []string{"emq:{q}:job:1", "emq:{q}:pending"}, "1", "{}", "q") // want `script enqueueBad line 5: redis.call\("SADD", "emq:queues", ARGV\[3\]\) touches a key not declared in KEYS: the string literal "emq:queues"`
}
