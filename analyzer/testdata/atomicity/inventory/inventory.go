// Package inventory reserves stock for orders: the "sold out" guard
// must see the stock that EXEC then decrements.
package inventory

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var ErrSoldOut = errors.New("sold out")

// The stock read but not watched is the unwatched-decision-key check's own
// case (checks/unwatched-decision-key).

// reserveAtOnce decrements on the *redis.Tx: when EXEC fails, the stock
// stays decremented and the retry decrements it again.
func reserveAtOnce(ctx context.Context, rdb *redis.Client, sku, order string) error {
	stock := "inventory:{" + sku + "}"
	status := "order:{" + sku + "}:" + order
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		if n <= 0 {
			tx.Unwatch(ctx)
			return ErrSoldOut
		}
		tx.Decr(ctx, stock) // want `DECR "inventory:\{<sku>\}" runs at once on the \*redis.Tx of Watch on "inventory:\{<sku>\}", "order:\{<sku>\}:<order>", outside MULTI/EXEC`
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, status, "reserved", 0)
			return nil
		})
		return err
	}, stock, status)
}

// reserveTxWatch watches the stock with tx.Watch inside the function,
// before it reads it.
func reserveTxWatch(ctx context.Context, rdb *redis.Client, sku, order string) error {
	stock := "inventory:{" + sku + "}"
	status := "order:{" + sku + "}:" + order
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if err := tx.Watch(ctx, stock).Err(); err != nil {
			return err
		}
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		if n <= 0 {
			return ErrSoldOut
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, stock)
			pipe.Set(ctx, status, "reserved", 0)
			return nil
		})
		return err
	}, status)
}

// reserve is the fix: the stock is watched, read inside the function, and
// decremented in MULTI/EXEC; sold out, it unwatches before returning.
func reserve(ctx context.Context, rdb *redis.Client, sku, order string) error {
	stock := "inventory:{" + sku + "}"
	status := "order:{" + sku + "}:" + order
	for attempt := 0; attempt < 3; attempt++ {
		err := rdb.Watch(ctx, func(tx *redis.Tx) error {
			n, err := tx.Get(ctx, stock).Int()
			if err != nil && err != redis.Nil {
				return err
			}
			if n <= 0 {
				tx.Unwatch(ctx)
				return ErrSoldOut
			}
			_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
				pipe.Decr(ctx, stock)
				pipe.Set(ctx, status, "reserved", 0)
				return nil
			})
			return err
		}, stock, status)
		if err != redis.TxFailedErr {
			return err
		}
	}
	return errors.New("reserve: too much contention")
}

// reservePipeline queues the writes in a TxPipeline of the transaction.
func reservePipeline(ctx context.Context, rdb *redis.Client, sku, order string) error {
	stock := "inventory:{" + sku + "}"
	status := "order:{" + sku + "}:" + order
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		left, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		switch {
		case left <= 0:
			return ErrSoldOut
		}
		pipe := tx.TxPipeline()
		pipe.Decr(ctx, stock)
		pipe.Set(ctx, status, "reserved", 0)
		_, err = pipe.Exec(ctx)
		return err
	}, stock, status)
}

// reserveBundle checks a second item of a bundle, but watches only the
// first: the return from inside the loop decides whether the bundle is
// reserved.
func reserveBundle(ctx context.Context, rdb *redis.Client) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		left, err := tx.Get(ctx, "inventory:{bundle}:c").Int() // want `GET "inventory:\{bundle\}:c" is read inside the function of Watch on "inventory:\{bundle\}:a", and its value decides whether to write DECR "inventory:\{bundle\}:a" at line \d+, but "inventory:\{bundle\}:c" is not watched`
		if err != nil {
			return err
		}
		for i := 0; i < 1; i++ {
			if left <= 0 {
				return ErrSoldOut
			}
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, "inventory:{bundle}:a")
			return nil
		})
		return err
	}, "inventory:{bundle}:a")
}
