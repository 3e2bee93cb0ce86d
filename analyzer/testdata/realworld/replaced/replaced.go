// Package replaced builds keys, and scripts, from templates whose
// placeholders strings.Replace fills with a name.
package replaced

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: adjust/rmq (redis_keys.go and queue.go, newQueue and
// consumeBatch): a queue's ready and unacked lists, from templates whose
// "{queue}" and "{connection}" placeholders are replaced with the names,
// moved between with RPOPLPUSH.
const (
	phConnection   = "{connection}"
	phQueue        = "{queue}"
	readyTemplate  = "rmq::queue::[{queue}]::ready"
	unackedTempate = "rmq::connection::{connection}::queue::[{queue}]::unacked"
)

type queue struct {
	rdb                 *redis.Client
	readyKey, unackedKy string
}

func newQueue(rdb *redis.Client, name, connection string) *queue {
	readyKey := strings.Replace(readyTemplate, phQueue, name, 1)
	unackedKey := strings.Replace(unackedTempate, phConnection, connection, 1)
	unackedKey = strings.Replace(unackedKey, phQueue, name, 1)
	return &queue{rdb: rdb, readyKey: readyKey, unackedKy: unackedKey}
}

func (q *queue) consume(ctx context.Context) (string, error) {
	return q.rdb.RPopLPush(ctx, q.readyKey, q.unackedKy).Result() // want `RPOPLPUSH keys "rmq::queue::\[<name>\]::ready" \(hashtag unknown\) and "rmq::connection::<connection>::queue::\[<name>\]::unacked" \(hashtag unknown\) may hash to different slots`
}

// The fixed form: the queue's name is the hashtag of both lists, before
// anything else in braces.
const (
	readyTemplateFixed   = "rmq::queue::{%queue%}::ready"
	unackedTemplateFixed = "rmq::queue::{%queue%}::connection::%connection%::unacked"
)

type queueFixed struct {
	rdb                 *redis.Client
	readyKey, unackedKy string
}

func newQueueFixed(rdb *redis.Client, name, connection string) *queueFixed {
	readyKey := strings.ReplaceAll(readyTemplateFixed, "%queue%", name)
	unackedKey := strings.ReplaceAll(strings.ReplaceAll(unackedTemplateFixed, "%connection%", connection), "%queue%", name)
	return &queueFixed{rdb: rdb, readyKey: readyKey, unackedKy: unackedKey}
}

func (q *queueFixed) consume(ctx context.Context) (string, error) {
	return q.rdb.RPopLPush(ctx, q.readyKey, q.unackedKy).Result()
}
