package paramkeys

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: iam1912/gemdelayqueue (client/dqclient/dqclient.go): a delay
// queue's client pops a job key from the caller's topic list with LINDEX
// and, in one MULTI/EXEC, marks the job, removes it from the topic and
// pushes it to a reserved bucket of the queue's own, "Bucket:ReservedBucket-<i>".
// The job key is a member the reply gives; the caller's topic and the
// bucket are two keys nothing keeps in one slot.
type DQClient struct {
	Rdb        *redis.Client
	delayIndex int
	delayCount int
}

func bucketName(s string, i int) string { return fmt.Sprintf("%s:%s-%d", "Bucket", s, i) }

func (c *DQClient) RPop(ctx context.Context, topic string) error { // want RPop:`keyWrapper\(MULTI/EXEC transaction "<cmd.val>" "<topic>" "Bucket:ReservedBucket-<c.delayIndex % c.delayCount>"\)`
	key, err := c.Rdb.LIndex(ctx, topic, -1).Result()
	if err != nil {
		return err
	}
	i := c.delayIndex % c.delayCount
	pipe := c.Rdb.TxPipeline() // want `MULTI/EXEC transaction of the callers' keys "<topic>" and "Bucket:ReservedBucket-<c.delayIndex % c.delayCount>": callers in other modules are not checked`
	pipe.HSet(ctx, key, "state", 2)
	pipe.LRem(ctx, topic, 0, key)
	pipe.LPush(ctx, bucketName("ReservedBucket", i), key)
	_, err = pipe.Exec(ctx)
	return err
}

// The fix: the buckets under the topic's hashtag, and the job keys the
// topic holds made under it too.
func (c *DQClient) RPopTagged(ctx context.Context, topic string) error {
	key, err := c.Rdb.LIndex(ctx, "{"+topic+"}", -1).Result()
	if err != nil {
		return err
	}
	pipe := c.Rdb.TxPipeline()
	pipe.HSet(ctx, key, "state", 2)
	pipe.LRem(ctx, "{"+topic+"}", 0, key)
	pipe.LPush(ctx, "{"+topic+"}:reserved", key)
	_, err = pipe.Exec(ctx)
	return err
}
