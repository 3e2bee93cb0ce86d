// Package pooledtransaction shows the pooled-transaction check.
package pooledtransaction

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// WATCH, GET, MULTI, SET and EXEC may each run on another connection.
func withdrawBad(ctx context.Context, rdb *redis.Client) error {
	rdb.Do(ctx, "WATCH", "{wallet}:1") // want `WATCH "\{wallet\}:1", then MULTI at line 14, EXEC at line 16 sent with Do on rdb, a pooled \*redis.Client`
	bal, _ := rdb.Do(ctx, "GET", "{wallet}:1").Int()
	rdb.Do(ctx, "MULTI")
	rdb.Do(ctx, "SET", "{wallet}:1", bal-30)
	return rdb.Do(ctx, "EXEC").Err()
}
