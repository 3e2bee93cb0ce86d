// Package txhelper holds helpers handed the redis.Pipeliner or *redis.Tx of
// a TxPipelined, a TxPipeline or a Watch: what they queue belongs to that
// transaction.
package txhelper

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/txhelper/events"
)

// addEvent and enqueue are the helpers of the example, in the shape
// of asynq's rdb (internal/rdb) where a task's hash and its queue's list
// are written in one transaction.
func addEvent(ctx context.Context, p redis.Pipeliner, id string) {
	p.HSet(ctx, "task:"+id, "state", "pending")
}

func enqueue(ctx context.Context, p redis.Pipeliner, id string) {
	p.LPush(ctx, "queue:default", id)
}

func enqueueTagged(ctx context.Context, p redis.Pipeliner, id string) {
	p.LPush(ctx, "task:{"+id+"}:queue", id)
}

// Origin: hibiken/asynq (internal/rdb), TxPipelined with helpers.
func submit(ctx context.Context, rdb *redis.ClusterClient, id string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "task:<id>" .* and "queue:default" .* hash to different slots`
		addEvent(ctx, p, id)
		enqueue(ctx, p, id)
		return nil
	})
}

func submitFixed(ctx context.Context, rdb *redis.ClusterClient, id string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		addEvent(ctx, p, "{"+id+"}")
		enqueueTagged(ctx, p, id)
		return nil
	})
}

// Origin: zeromicro/go-zero (TxPipeline handed to a helper), with a helper
// of another package.
func ship(ctx context.Context, rdb *redis.ClusterClient, order string) {
	p := rdb.TxPipeline() // want `MULTI/EXEC transaction keys "order:<order>:state" .* and "events:<order>" .* hash to different slots`
	p.Set(ctx, "order:"+order+":state", "shipped", 0)
	events.Append(ctx, p, order, "shipped")
	p.Exec(ctx)
}

func shipFixed(ctx context.Context, rdb *redis.ClusterClient, order string) {
	p := rdb.TxPipeline()
	p.Set(ctx, "order:{"+order+"}:state", "shipped", 0)
	events.AppendTagged(ctx, p, order, "shipped")
	p.Exec(ctx)
}

// reserve is handed the *redis.Tx of a Watch: its commands are the
// transaction's, and what it queues in TxPipelined too.
func reserve(ctx context.Context, tx *redis.Tx, sku, order string) error {
	_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Decr(ctx, "stock:"+sku)
		p.SAdd(ctx, "order:"+order+":items", sku)
		return nil
	})
	return err
}

func reserveTagged(ctx context.Context, tx *redis.Tx, sku string) error {
	_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Decr(ctx, "stock:{"+sku+"}")
		p.SAdd(ctx, "stock:{"+sku+"}:holds", "1")
		return nil
	})
	return err
}

// Origin: go-redsync/redsync-style checkout built on Watch, the body in a
// helper (as in many shop services).
func checkout(ctx context.Context, rdb *redis.ClusterClient, sku, order string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "stock:<sku>" .* and "order:<order>:items" .* hash to different slots`
		return reserve(ctx, tx, sku, order)
	}, "stock:"+sku)
}

func checkoutFixed(ctx context.Context, rdb *redis.ClusterClient, sku string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		return reserveTagged(ctx, tx, sku)
	}, "stock:{"+sku+"}")
}

// A plain pipeline handed to the same helpers is no transaction: nothing
// to report.
func batch(ctx context.Context, rdb *redis.ClusterClient, id string) {
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		addEvent(ctx, p, id)
		enqueue(ctx, p, id)
		return nil
	})
}
