// Package tx holds WATCH transactions and MULTI/EXEC pipelines.
package tx

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

func reserve(ctx context.Context, rdb *redis.Client) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "inventory:sku123" \(slot 5242\) and "order:456:status" \(slot 9813\) hash to different slots; give them a common hashtag such as "\{sku123\}"`
		n, err := tx.Get(ctx, "inventory:sku123").Int()
		if err != nil {
			return err
		}
		if n <= 0 {
			return errors.New("sold out")
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, "inventory:sku123")
			pipe.Set(ctx, "order:456:status", "reserved", 0)
			return nil
		})
		return err
	}, "inventory:sku123")
}

func reserveFixed(ctx context.Context, rdb *redis.Client) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, "inventory:{sku123}").Int()
		if err != nil || n <= 0 {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, "inventory:{sku123}")
			pipe.Set(ctx, "order:{sku123}:456", "reserved", 0)
			return nil
		})
		return err
	}, "inventory:{sku123}", "order:{sku123}:456")
}

func watchedKeys(ctx context.Context, rdb *redis.ClusterClient) error {
	fn := func(tx *redis.Tx) error { return nil }
	return rdb.Watch(ctx, fn, "a", "b") // want `WATCH transaction keys "a" .* and "b" .* hash to different slots`
}

func txPipelined(ctx context.Context, rdb redis.UniversalClient, user string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "counter:a" .* and "counter:b" .* hash to different slots`
		pipe.Incr(ctx, "counter:a")
		pipe.Incr(ctx, "counter:b")
		return nil
	})
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "counter:{"+user+"}:a")
		pipe.Expire(ctx, "counter:{"+user+"}:a", 0)
		pipe.HSet(ctx, "profile:{"+user+"}", "seen", 1)
		return nil
	})
}

func txPipeline(ctx context.Context, rdb *redis.Client) {
	pipe := rdb.TxPipeline() // want `MULTI/EXEC transaction keys "stats:hits" .* and "stats:misses" .* hash to different slots`
	pipe.Incr(ctx, "stats:hits")
	pipe.Incr(ctx, "stats:misses")
	pipe.Exec(ctx)

	plain := rdb.Pipeline()
	plain.Incr(ctx, "stats:hits")
	plain.Incr(ctx, "stats:misses")
	plain.Exec(ctx)
}

// A command sent with Do and queued in the transaction is one of its
// commands: its keys must share the watched keys' slot.
func rawInWatch(ctx context.Context, rdb *redis.Client) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "balance:\{7\}" .* and "audit:7" .* hash to different slots`
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Do(ctx, "SET", "audit:7", "seen")
			return nil
		})
		return err
	}, "balance:{7}")
}

func rawInWatchFixed(ctx context.Context, rdb *redis.Client) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Do(ctx, "SET", "audit:{7}", "seen")
			return nil
		})
		return err
	}, "balance:{7}")
}

// A pipeline kept with var is a pipeline like one kept with :=.
func txPipelineVar(ctx context.Context, rdb *redis.Client) {
	var pipe = rdb.TxPipeline() // want `MULTI/EXEC transaction keys "stats:hits" .* and "stats:misses" .* hash to different slots`
	pipe.Incr(ctx, "stats:hits")
	pipe.Incr(ctx, "stats:misses")
	pipe.Exec(ctx)
}

// A type of the application named Tx is not go-redis's *redis.Tx: its
// TxPipelined is a transaction of its own. Only the rules' types say which
// types are go-redis's.
type Tx struct{ *redis.Client }

func ownTx(ctx context.Context, tx Tx) {
	tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "counter:a" .* and "counter:b" .* hash to different slots`
		pipe.Incr(ctx, "counter:a")
		pipe.Incr(ctx, "counter:b")
		return nil
	})
}

// One variable holds two transactions in turn: each has its own keys, and
// neither is cross-slot.
func txPipelineReused(ctx context.Context, rdb *redis.Client) {
	p := rdb.TxPipeline()
	p.Incr(ctx, "stats:hits")
	p.Exec(ctx)
	p = rdb.TxPipeline()
	p.Incr(ctx, "stats:misses")
	p.Exec(ctx)
}
