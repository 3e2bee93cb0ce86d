// Package scriptarity shows the script-arity check.
package scriptarity

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var complete = redis.NewScript(`
redis.call("LREM", KEYS[1], 1, ARGV[1])
return redis.call("HSET", KEYS[2], "state", "done")`)

// The script reads KEYS[2], and the call passes one key.
func completeBad(ctx context.Context, rdb *redis.ClusterClient, id string) {
	complete.Run(ctx, rdb, []string{"emq:{q}:active"}, id) // want `script complete line 3: KEYS\[2\] is nil: the call passes 1 key; pass the key in KEYS`
}

var moveDue = redis.NewScript(`
local due = redis.call("ZRANGEBYSCORE", KEYS[1], 0, ARGV[1], "LIMIT", 0, KEYS[3])
for _, id in ipairs(due) do
	redis.call("ZREM", KEYS[1], id)
	redis.call("LPUSH", KEYS[2], id)
end
return #due`)

type mover struct{ batch string }

// The batch size is passed in KEYS: a value, in a slot of its own on a
// cluster.
func (m *mover) moveDueBad(ctx context.Context, rdb *redis.ClusterClient) {
	now := strconv.FormatInt(time.Now().Unix(), 10)
	moveDue.Run(ctx, rdb, []string{"{q}:delayed", "{q}:ready", m.batch}, now) // want `script moveDue line 2: KEYS\[3\] \("<m.batch>"\) is an argument of redis.call\("ZRANGEBYSCORE", KEYS\[1\], 0, ARGV\[1\], ...\), and no command takes it as a key: the caller passes a value in KEYS, which on Redis Cluster must hash to the slot of the other keys; pass it in ARGV`
}
