// Package arraykeys is reduced from oshankkumar/taskqueue-go
// (redis/redisq.go): a job queue passes each script its KEYS as a slice
// of an array literal, keys[:], with its ARGV the same way. The queue's
// pending set and the job's hash are two keys under the namespace, with
// no hashtag.
package arraykeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var ackScript = redis.NewScript(`
redis.call("ZREM", KEYS[1], ARGV[1])
return redis.call("HSET", KEYS[2], "status", ARGV[2])
`)

type Queue struct {
	client    redis.UniversalClient
	namespace string
}

func redisKeyPendingQueue(ns, queue string) string { return ns + ":queue:" + queue + ":pending" }

func redisKeyJob(ns, id string) string { return ns + ":job:" + id }

func (q *Queue) ack(ctx context.Context, queue, id string) error {
	keys := [...]string{
		redisKeyPendingQueue(q.namespace, queue),
		redisKeyJob(q.namespace, id),
	}
	args := [...]interface{}{id, time.Now().Unix()}
	return ackScript.Run(ctx, q.client, keys[:], args[:]...).Err() // want `EVALSHA keys "<q.namespace>:queue:<queue>:pending" \(hashtag unknown\) and "<q.namespace>:job:<id>" \(hashtag unknown\) may hash to different slots`
}

// The fix: the queue's name as the hashtag of both keys.
func (q *Queue) ackTagged(ctx context.Context, queue, id string) error {
	keys := [...]string{
		q.namespace + ":{" + queue + "}:pending",
		q.namespace + ":{" + queue + "}:job:" + id,
	}
	args := [...]interface{}{id, time.Now().Unix()}
	return ackScript.Run(ctx, q.client, keys[:], args[:]...).Err()
}
