// Package unwatcheddecisionkey shows the unwatched-decision-key check.
package unwatcheddecisionkey

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var errSoldOut = errors.New("sold out")

// The "sold out" test reads the stock, but only the order is watched.
func reserveBad(ctx context.Context, rdb *redis.Client, stock, status string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int() // want `GET "<stock>" is read inside the function of Watch on "<status>", and its value decides whether to write DECR "<stock>" at line 24, but "<stock>" is not watched`
		if err != nil {
			return err
		}
		if n <= 0 {
			return errSoldOut
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, stock)
			pipe.Set(ctx, status, "reserved", 0)
			return nil
		})
		return err
	}, status)
}
