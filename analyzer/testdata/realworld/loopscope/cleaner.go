// Package loopscope holds transactions queued in a loop inside a
// goroutine that another loop starts: a key set outside the inner loop is
// one value at each of its turns, whatever the outer loop does; and a
// transaction that a loop opens on one turn only, which holds the
// commands of every turn after it (lazymulti.go).
package loopscope

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

type Queue struct {
	Dead       string // want Dead:`keyField\("uniqw:\{<q>\}:dead"\)`
	DeadExpiry string // want DeadExpiry:`keyField\("uniqw:\{<q>\}:dead_expiry"\)`
}

func For(q string) Queue {
	prefix := "uniqw:{" + q + "}:"
	return Queue{Dead: prefix + "dead", DeadExpiry: prefix + "dead_expiry"}
}

type Runtime struct {
	rdb  redis.UniversalClient
	qmap map[string]Queue
}

// Origin: UniQw/uniqw-go (internal/runtime/runtime.go): Start runs a dead
// cleaner per queue, each a goroutine started in a loop over the queues.
// It takes the queue's keys once, then removes each expired member from
// the dead list and its index in one MULTI/EXEC: both keys are
// "uniqw:{<queue>}:...", one queue's at every turn of the loop over the
// members.
func (rt *Runtime) Start(ctx context.Context, queues []string) {
	for _, q := range queues {
		go func(queue string) {
			kset := rt.qmap[queue]
			members, err := rt.rdb.ZRangeByScore(ctx, kset.DeadExpiry, &redis.ZRangeBy{Min: "0", Max: strconv.FormatInt(time.Now().UnixMilli(), 10)}).Result()
			if err != nil {
				return
			}
			rt.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
				for _, m := range members {
					p.LRem(ctx, kset.Dead, 1, m)
					p.ZRem(ctx, kset.DeadExpiry, m)
				}
				return nil
			})
		}(q)
	}
}

// StartAll is the bad form: one goroutine cleans every queue in one
// MULTI/EXEC, taking each queue's keys inside the loop, so the
// transaction spans queues of different slots.
func (rt *Runtime) StartAll(ctx context.Context, queues []string) {
	go func() {
		rt.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys built as "uniqw:\{<q>\}:dead" from different values may hash to different slots`
			for _, queue := range queues {
				kset := rt.qmap[queue]
				p.Del(ctx, kset.Dead)
			}
			return nil
		})
	}()
}
