package formatkeys

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: bitleak/lmstfy v1.0.11 (engine/redis/utils.go join, and
// deadletter.go DeadLetter.Respawn and Delete): every key is made by a
// helper that joins its arguments with "/", a one-letter prefix first;
// the dead letters of a queue are moved back to the queue with RPOPLPUSH,
// and deleted with their jobs by a script of both keys.
func join(args ...string) string {
	return strings.Join(args, "/")
}

type deadLetter struct {
	rdb              redis.UniversalClient
	namespace, queue string
}

func (dl *deadLetter) name() string { return join("d", dl.namespace, dl.queue) }

func (dl *deadLetter) respawn(ctx context.Context) error {
	queueName := join("q", dl.namespace, dl.queue)
	return dl.rdb.RPopLPush(ctx, dl.name(), queueName).Err() // want `RPOPLPUSH keys "d/<dl.namespace>/<dl.queue>" \(hashtag unknown\) and "q/<dl.namespace>/<dl.queue>" \(hashtag unknown\) may hash to different slots`
}

func (dl *deadLetter) delete(ctx context.Context, sha string) error {
	poolPrefix := join("j", dl.namespace, dl.queue)
	return dl.rdb.EvalSha(ctx, sha, []string{dl.name(), poolPrefix}, 100).Err() // want `EVALSHA keys "d/<dl.namespace>/<dl.queue>" \(hashtag unknown\) and "j/<dl.namespace>/<dl.queue>" \(hashtag unknown\) may hash to different slots`
}

// The fixed form puts the queue's namespace and name in a hashtag, after
// the prefix, so that a queue's lists and its jobs share one slot.
func (dl *deadLetter) taggedName() string {
	return join("d", "{"+dl.namespace, dl.queue+"}")
}

func (dl *deadLetter) respawnFixed(ctx context.Context) error {
	queueName := join("q", "{"+dl.namespace, dl.queue+"}")
	return dl.rdb.RPopLPush(ctx, dl.taggedName(), queueName).Err()
}
