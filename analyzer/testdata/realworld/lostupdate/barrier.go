package lostupdate

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// Origin: anyufly/go_async_tasks (barrier/redis/barrier.go, doDecr and
// decr): a barrier's count is read and written back less one inside a
// Watch function passed by name, c.doDecr, with the key watched: a change
// between the read and EXEC fails the transaction. The read goes through
// the client rather than the *redis.Tx, still after WATCH.
type barrier struct {
	rdb *redis.Client
	key string
}

var errBarrierDone = errors.New("barrier done")

func (c *barrier) doDecr(tx *redis.Tx) error {
	ctx := context.Background()
	value, err := c.rdb.Get(ctx, c.key).Uint64()
	if err != nil {
		return err
	}
	value--
	if value == 0 {
		return errBarrierDone
	}
	_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		return pipe.Set(ctx, c.key, value, 0).Err()
	})
	return err
}

func (c *barrier) decr(ctx context.Context) error {
	for i := 0; i < 10; i++ {
		err := c.rdb.Watch(ctx, c.doDecr, c.key)
		if err != redis.TxFailedErr {
			return err
		}
	}
	return redis.TxFailedErr
}

// Bad: the same read and write with no WATCH, the write queued in a
// MULTI/EXEC of the client.
func (c *barrier) decrUnwatched(ctx context.Context) error {
	value, err := c.rdb.Get(ctx, c.key).Uint64()
	if err != nil {
		return err
	}
	_, err = c.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		return pipe.Set(ctx, c.key, value-1, 0).Err() // want `SET "<c.key>" writes a value computed from GET "<c.key>" at line \d+, with no WATCH around them \(MULTI/EXEC alone does not help: the read ran before it\)`
	})
	return err
}
