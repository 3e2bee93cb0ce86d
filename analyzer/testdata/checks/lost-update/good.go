package lostupdate

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// An atomic command...
func withdraw(ctx context.Context, rdb *redis.Client) error {
	return rdb.DecrBy(ctx, "balance:1", 30).Err()
}

// ...or a script, when there is a check to make first.
var withdrawScript = redis.NewScript(`
local bal = tonumber(redis.call("GET", KEYS[1]) or "0")
if bal < tonumber(ARGV[1]) then return -1 end
return redis.call("DECRBY", KEYS[1], ARGV[1])`)

func withdrawChecked(ctx context.Context, rdb *redis.Client) (int64, error) {
	return withdrawScript.Run(ctx, rdb, []string{"balance:1"}, 30).Int64()
}
