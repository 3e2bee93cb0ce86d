// Package shop reserves stock and caches user profiles.
package shop

import (
	"context"
	"errors"
	"strconv"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/testdata/demo/keys"
)

// ErrSoldOut is returned when nothing is left to reserve.
var ErrSoldOut = errors.New("sold out")

// RefreshProfile rebuilds a user's cached profile under a temporary key and
// swaps it in.
func RefreshProfile(ctx context.Context, rdb redis.UniversalClient, uid int, profile map[string]any) error {
	tmp := keys.TmpUserCache(uid)
	if err := rdb.HSet(ctx, tmp, profile).Err(); err != nil {
		return err
	}
	return rdb.Rename(ctx, tmp, keys.UserCache(uid)).Err()
}

// WarmAdminCache rebuilds the cached profile of the shop's admin, user 123,
// the same way.
func WarmAdminCache(ctx context.Context, rdb redis.UniversalClient, profile map[string]any) error {
	if err := rdb.HSet(ctx, "tmp:user:123:cache", profile).Err(); err != nil {
		return err
	}
	return rdb.Rename(ctx, "tmp:user:123:cache", "user:123:cache").Err()
}

// Reserve takes one unit of stock for an order.
func Reserve(ctx context.Context, rdb redis.UniversalClient) error {
	stock, status := "inventory:sku123", "order:456:status"
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		if n <= 0 {
			return ErrSoldOut
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, stock, strconv.Itoa(n-1), 0)
			pipe.Set(ctx, status, "reserved", 0)
			return nil
		})
		return err
	}, stock, status)
}

// ReserveFixed is Reserve with keys that share the SKU's hashtag.
func ReserveFixed(ctx context.Context, rdb redis.UniversalClient, sku string, order int) error {
	stock := "inventory:{" + sku + "}"
	status := "order:{" + sku + "}:" + strconv.Itoa(order)
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		if n <= 0 {
			return ErrSoldOut
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, stock, strconv.Itoa(n-1), 0)
			pipe.Set(ctx, status, "reserved", 0)
			return nil
		})
		return err
	}, stock, status)
}
