// Package v8 holds the atomicity checks on go-redis v8.
package v8

import (
	"context"
	"errors"

	"github.com/go-redis/redis/v8"
)

func add(ctx context.Context, rdb *redis.Client, n int) error {
	cur, err := rdb.Get(ctx, "points").Int()
	if err != nil {
		return err
	}
	return rdb.Set(ctx, "points", cur+n, 0).Err() // want `SET "points" writes a value computed from GET "points" at line 12`
}

func addTx(ctx context.Context, rdb *redis.Client, n int) error {
	for { // want `this loop retries Watch on "points" on redis.TxFailedErr with no bound`
		err := rdb.Watch(ctx, func(tx *redis.Tx) error {
			cur, err := tx.Get(ctx, "points").Int()
			if err != nil {
				return err
			}
			tx.Set(ctx, "points", cur+n, 0) // want `SET "points" runs at once on the \*redis.Tx of Watch on "points", and the function queues no MULTI/EXEC`
			return nil
		}, "points")
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
}
