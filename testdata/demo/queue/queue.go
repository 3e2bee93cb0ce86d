// Package queue is a small job queue on Redis.
package queue

import (
	"context"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/testdata/demo/keys"
)

// enqueueScript stores a job and pushes its id on the queue's pending list.
// KEYS[1] is the job's key, KEYS[2] the pending list; ARGV[1] the job's id,
// ARGV[2] its payload.
var enqueueScript = redis.NewScript(`
redis.call("HSET", KEYS[1], "payload", ARGV[2], "state", "pending")
redis.call("LPUSH", KEYS[2], ARGV[1])
return 1
`)

// admitScript admits a job that was staged in bulk.
const admitScript = `
redis.call("HSET", KEYS[1], "state", "pending")
return redis.call("LPUSH", KEYS[2], ARGV[1])
`

// Queue is one named queue.
type Queue struct {
	rdb  redis.UniversalClient
	name string
}

// New returns the queue called name.
func New(rdb redis.UniversalClient, name string) *Queue { return &Queue{rdb: rdb, name: name} }

// Enqueue adds a job.
func (q *Queue) Enqueue(ctx context.Context, id, payload string) error {
	return enqueueScript.Run(ctx, q.rdb, []string{keys.Job.Key(q.name, id), keys.Pending.Key(q.name)}, id, payload).Err()
}

// AdmitAll admits staged jobs in one round trip: the script is loaded once,
// then run by its SHA in a pipeline.
func (q *Queue) AdmitAll(ctx context.Context, ids []string) error {
	sha, err := q.rdb.ScriptLoad(ctx, admitScript).Result()
	if err != nil {
		return err
	}
	_, err = q.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, id := range ids {
			pipe.EvalSha(ctx, sha, []string{keys.Job.Key(q.name, id), keys.Pending.Key(q.name)}, id)
		}
		return nil
	})
	return err
}

// Claim moves the next job from pending to active.
func (q *Queue) Claim(ctx context.Context) (string, error) {
	return q.rdb.LMove(ctx, keys.Pending.Key(q.name), keys.Active.Key(q.name), "RIGHT", "LEFT").Result()
}

// Transfer moves the next pending job of q to another queue.
func (q *Queue) Transfer(ctx context.Context, to *Queue) (string, error) {
	return q.rdb.LMove(ctx, keys.Pending.Key(q.name), keys.Pending.Key(to.name), "RIGHT", "LEFT").Result()
}
