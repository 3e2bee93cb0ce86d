package fields

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: asheswook/redis-queue (queue.go, lua.go): a safe queue pops a
// message from its list and parks it in its ack set in one script. The
// queue's list and ack set are the exported fields Name and AckName,
// which its users set; the script reads KEYS[1] and KEYS[2] apart, a list
// and a sorted set. Two names a user picks hash to two slots unless they
// share a hashtag.
var ackPop = redis.NewScript(`
local msg = redis.call("LPOP", KEYS[1])
if not msg then return false end
redis.call("ZADD", KEYS[2], ARGV[1], msg)
return msg`)

type SafeQueue struct {
	Name    string
	AckName string
	rdb     redis.Scripter
}

func (q *SafeQueue) SafePop(ctx context.Context, deadline int64) (interface{}, error) {
	return ackPop.Run(ctx, q.rdb, []string{q.Name, q.AckName}, deadline).Result() // want `EVALSHA keys "<q.Name>" \(hashtag unknown\) and "<q.AckName>" \(hashtag unknown\) may hash to different slots`
}

// The fixed form: the queue names both from one name, in one hashtag.
type TaggedQueue struct {
	list string
	ack  string
	rdb  redis.Scripter
}

func NewTaggedQueue(rdb redis.Scripter, name string) *TaggedQueue {
	return &TaggedQueue{list: "{" + name + "}:list", ack: "{" + name + "}:ack", rdb: rdb}
}

func (q *TaggedQueue) SafePop(ctx context.Context, deadline int64) (interface{}, error) {
	return ackPop.Run(ctx, q.rdb, []string{q.list, q.ack}, deadline).Result()
}
