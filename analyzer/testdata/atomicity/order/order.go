// Package order confirms an order against the inventory: the stock
// and the order's status both decide what the transaction writes.
package order

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"
)

var (
	ErrSoldOut  = errors.New("sold out")
	ErrNotReady = errors.New("order is not pending")
)

func stockKey(sku string) string        { return fmt.Sprintf("shop:{%s}:stock", sku) }
func orderKey(sku, order string) string { return fmt.Sprintf("shop:{%s}:order:%s", sku, order) }
func totalKey(sku, order string) string { return fmt.Sprintf("shop:{%s}:total:%s", sku, order) }
func priceKey(sku string) string        { return fmt.Sprintf("shop:{%s}:price", sku) }
func confirmedKey(sku string) string    { return fmt.Sprintf("shop:{%s}:confirmed", sku) }

// confirmHalfWatched watches the stock but not the order, whose status
// decides whether to confirm: a concurrent cancel goes unnoticed.
func confirmHalfWatched(ctx context.Context, rdb *redis.Client, sku, order string) error {
	stock, status := stockKey(sku), orderKey(sku, order)
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		st, err := tx.HGet(ctx, status, "state").Result() // want `HGET "shop:\{<sku>\}:order:<order>" is read inside the function of Watch on "shop:\{<sku>\}:stock", and its value decides whether to write DECR "shop:\{<sku>\}:stock" at line 41, but "shop:\{<sku>\}:order:<order>" is not watched`
		if err != nil {
			return err
		}
		if n <= 0 || st != "pending" {
			return ErrNotReady
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, stock)
			pipe.HSet(ctx, status, "state", "confirmed")
			pipe.SAdd(ctx, confirmedKey(sku), order)
			return nil
		})
		return err
	}, stock)
}

// confirmPriced reads the price before the transaction and writes the
// order's total from it.
func confirmPriced(ctx context.Context, rdb *redis.Client, sku, order string, qty int) error {
	stock, status := stockKey(sku), orderKey(sku, order)
	price, err := rdb.Get(ctx, priceKey(sku)).Int() // want `GET "shop:\{<sku>\}:price" is read outside the function of Watch on "shop:\{<sku>\}:stock", "shop:\{<sku>\}:order:<order>", and its value is written by SET "shop:\{<sku>\}:total:<order>" at line 72`
	if err != nil {
		return err
	}
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		st, err := tx.HGet(ctx, status, "state").Result()
		if err != nil {
			return err
		}
		if n < qty || st != "pending" {
			return ErrNotReady
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.DecrBy(ctx, stock, int64(qty))
			pipe.Set(ctx, totalKey(sku, order), price*qty, 0)
			pipe.HSet(ctx, status, "state", "confirmed")
			return nil
		})
		return err
	}, stock, status)
}

// confirm is the fix: every key that decides is watched and read inside
// the function, and the keys share the SKU's hashtag.
func confirm(ctx context.Context, rdb *redis.Client, sku, order string, qty int) error {
	stock, status, price := stockKey(sku), orderKey(sku, order), priceKey(sku)
	txf := func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		st, err := tx.HGet(ctx, status, "state").Result()
		if err != nil {
			return err
		}
		p, err := tx.Get(ctx, price).Int()
		if err != nil {
			return err
		}
		if n < qty {
			return ErrSoldOut
		}
		if st != "pending" {
			return ErrNotReady
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.DecrBy(ctx, stock, int64(qty))
			pipe.Set(ctx, totalKey(sku, order), p*qty, 0)
			pipe.HSet(ctx, status, "state", "confirmed")
			pipe.SAdd(ctx, confirmedKey(sku), order)
			return nil
		})
		return err
	}
	for range 8 {
		err := rdb.Watch(ctx, txf, stock, status, price)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, redis.TxFailedErr):
			continue
		default:
			return err
		}
	}
	return errors.New("confirm: too much contention")
}

// confirmKeys watches keys from a slice it does not see: nothing is
// reported about what it does not watch.
func confirmKeys(ctx context.Context, rdb *redis.Client, sku, order string, keys []string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		st, err := tx.HGet(ctx, orderKey(sku, order), "state").Result()
		if err != nil || st != "pending" {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.HSet(ctx, orderKey(sku, order), "state", "confirmed")
			return nil
		})
		return err
	}, keys...)
}

// confirmAll takes one unit from each warehouse's stock, one transaction
// each, and reads the keys it ranges over: the range variable is a watched
// key, and each of the slice's keys shares the sku's hashtag.
func confirmAll(ctx context.Context, rdb *redis.Client, sku string) error {
	stocks := []string{stockKey(sku) + ":east", stockKey(sku) + ":west"}
	for _, stock := range stocks {
		err := rdb.Watch(ctx, func(tx *redis.Tx) error {
			for _, k := range stocks {
				n, err := tx.Get(ctx, k).Int()
				if err != nil || n <= 0 {
					return ErrSoldOut
				}
			}
			_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
				pipe.Decr(ctx, stock)
				return nil
			})
			return err
		}, stocks...)
		if err != nil {
			return err
		}
	}
	return nil
}
