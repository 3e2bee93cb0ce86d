package scriptarity

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

func completeGood(ctx context.Context, rdb *redis.ClusterClient, id string) {
	complete.Run(ctx, rdb, []string{"emq:{q}:active", "emq:{q}:job:" + id}, id)
}

var moveDueFixed = redis.NewScript(`
local due = redis.call("ZRANGEBYSCORE", KEYS[1], 0, ARGV[1], "LIMIT", 0, ARGV[2])
for _, id in ipairs(due) do
	redis.call("ZREM", KEYS[1], id)
	redis.call("LPUSH", KEYS[2], id)
end
return #due`)

func (m *mover) moveDueGood(ctx context.Context, rdb *redis.ClusterClient) {
	now := strconv.FormatInt(time.Now().Unix(), 10)
	moveDueFixed.Run(ctx, rdb, []string{"{q}:delayed", "{q}:ready"}, now, m.batch)
}
