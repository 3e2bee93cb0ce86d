// Package delivered holds a Watch function that compares a second key only
// on a branch that always returns, after flashbots/mev-boost-relay
// (datastore/redis_test.go, the race test of CheckAndSetLastSlotAndHashDelivered):
// the last delivered slot is watched; the last delivered hash is read only
// when the slot is the same one, and that branch returns whatever it
// finds. The write comes after, on the other branch: the hash decides
// nothing there.
package delivered

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var errOther = errors.New("another payload was delivered for this slot")

type cache struct{ client *redis.Client }

func (c *cache) setDelivered(ctx context.Context, slot int64, hash string) error {
	return c.client.Watch(ctx, func(tx *redis.Tx) error {
		last, err := tx.Get(ctx, "{relay}:last-slot").Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if slot == last {
			lastHash, err := tx.Get(ctx, "{relay}:last-hash").Result()
			if err != nil && !errors.Is(err, redis.Nil) {
				return err
			}
			if hash != lastHash {
				return errOther
			}
			return nil
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "{relay}:last-slot", slot, 0)
			p.Set(ctx, "{relay}:last-hash", hash, 0)
			return nil
		})
		return err
	}, "{relay}:last-slot")
}

// setDeliveredBad reads the hash on the way to the write: its value
// decides whether the write happens, and it is not watched.
func (c *cache) setDeliveredBad(ctx context.Context, slot int64, hash string) error {
	return c.client.Watch(ctx, func(tx *redis.Tx) error {
		last, err := tx.Get(ctx, "{relay}:last-slot").Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		lastHash, err := tx.Get(ctx, "{relay}:last-hash").Result() // want `GET "\{relay\}:last-hash" is read inside the function of Watch on "\{relay\}:last-slot", and its value decides whether to write SET "\{relay\}:last-slot" at line 62, but "\{relay\}:last-hash" is not watched`
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if slot == last && hash != lastHash {
			return errOther
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "{relay}:last-slot", slot, 0)
			p.Set(ctx, "{relay}:last-hash", hash, 0)
			return nil
		})
		return err
	}, "{relay}:last-slot")
}
