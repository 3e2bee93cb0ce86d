package replykeys

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

// Origin: iam1912/gemdelayqueue (delayqueue/bucket.go, ScannDelayBucket):
// a delay queue keeps the keys of its jobs in a sorted set by due time,
// reads those that are due with ZRangeWithScores, and moves each in one
// MULTI/EXEC: the job's hash, the job's topic list, and the delay bucket.
// The member is a job's key, a key of its own; the bucket "DelayBucket"
// has no hashtag, and nothing puts the job's key in its slot.
type DelayQueue struct{ Client *redis.Client }

func (dq *DelayQueue) scanDelayBucket(ctx context.Context, topic string) error {
	result, err := dq.Client.ZRangeWithScores(ctx, "DelayBucket", 0, time.Now().Unix()).Result()
	if err != nil {
		return err
	}
	for _, member := range result {
		key, ok := member.Member.(string)
		if !ok {
			return errors.New("assertion failed")
		}
		pipe := dq.Client.TxPipeline() // want `MULTI/EXEC transaction keys "<ZRANGE reply>" \(hashtag unknown\) and "DelayBucket" \(slot 2271\) may hash to different slots; no common hashtag proves they share one; "<ZRANGE reply>" is a key read from Redis, what the code stored: write such keys under one hashtag with the others, such as "\{DelayBucket\}"$`
		pipe.HSet(ctx, key, "state", 1)
		pipe.ZRem(ctx, "DelayBucket", member.Member)
		if _, err := pipe.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// The fix: the set holds the jobs' ids, and each job's key is made under
// the bucket's hashtag.
func (dq *DelayQueue) scanDelayBucketTagged(ctx context.Context, topic string) error {
	result, err := dq.Client.ZRangeWithScores(ctx, "{delay}:bucket", 0, time.Now().Unix()).Result()
	if err != nil {
		return err
	}
	for _, member := range result {
		id, ok := member.Member.(string)
		if !ok {
			return errors.New("assertion failed")
		}
		pipe := dq.Client.TxPipeline()
		pipe.HSet(ctx, "{delay}:job:"+id, "state", 1)
		pipe.ZRem(ctx, "{delay}:bucket", member.Member)
		if _, err := pipe.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
