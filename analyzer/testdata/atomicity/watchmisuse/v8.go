package watchmisuse

import (
	"context"

	redisv8 "github.com/go-redis/redis/v8"
)

// go-redis v8: the same mistakes; its Conn takes a context.
func transferV8(ctx context.Context, rdb *redisv8.Client, k string) error {
	rdb.Do(ctx, "WATCH", k) // want `WATCH "<k>", then MULTI at line 12, EXEC at line 14 sent with Do on rdb, a pooled \*redis.Client: .* or hold one connection with rdb.Conn\(ctx\)$`
	rdb.Do(ctx, "MULTI")
	rdb.Do(ctx, "INCR", k)
	return rdb.Do(ctx, "EXEC").Err()
}

func queuedV8(ctx context.Context, rdb *redisv8.Client, k string) error {
	_, err := rdb.TxPipelined(ctx, func(pipe redisv8.Pipeliner) error {
		pipe.Do(ctx, "WATCH", k) // want `WATCH "<k>" is queued inside the MULTI/EXEC of the TxPipelined at line 18`
		pipe.Incr(ctx, k)
		return nil
	})
	return err
}
