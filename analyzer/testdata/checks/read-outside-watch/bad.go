// Package readoutsidewatch shows the read-outside-watch check.
package readoutsidewatch

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// bal is read once, before WATCH: every retry writes the same stale result.
func withdrawBad(ctx context.Context, rdb *redis.Client) error {
	bal, _ := rdb.Get(ctx, "balance:1").Int() // want `GET "balance:1" is read outside the function of Watch on "balance:1", and its value is written by SET "balance:1" at line 15`
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "balance:1", bal-30, 0)
			return nil
		})
		return err
	}, "balance:1")
}
