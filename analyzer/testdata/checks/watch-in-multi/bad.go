// Package watchinmulti shows the watch-in-multi check.
package watchinmulti

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The WATCH is sent after MULTI, and the stock is not watched.
func reserveBad(ctx context.Context, rdb *redis.Client, stock string) error {
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Do(ctx, "WATCH", stock) // want `WATCH "<stock>" is queued inside the MULTI/EXEC of the TxPipelined at line 12: Redis answers "ERR WATCH inside MULTI is not allowed"`
		pipe.Decr(ctx, stock)
		return nil
	})
	return err
}
