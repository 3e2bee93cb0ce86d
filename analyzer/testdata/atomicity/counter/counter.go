// Package counter keeps a counter between a floor and a ceiling.
package counter

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	floor   = 0
	ceiling = 10
)

var ErrBounds = errors.New("counter at its bound")

// up checks the ceiling, then writes the next value: two clients at 9 both
// write 10, and one increment is lost.
func up(ctx context.Context, rdb redis.UniversalClient, name string) error {
	key := "counter:" + name
	n, err := rdb.Get(ctx, key).Int()
	if err != nil && err != redis.Nil {
		return err
	}
	if n >= ceiling {
		return ErrBounds
	}
	n++
	return rdb.Set(ctx, key, n, 0).Err() // want `SET "counter:<name>" writes a value computed from GET "counter:<name>" at line 24`
}

// down keeps the counter in a hash, and the floor in a field of it.
func down(ctx context.Context, rdb *redis.Client, name string) error {
	vals, err := rdb.HGetAll(ctx, "counters").Result()
	if err != nil {
		return err
	}
	var c struct{ N int }
	c.N, _ = strconv.Atoi(vals[name])
	c.N--
	if c.N < floor {
		return ErrBounds
	}
	return rdb.HSet(ctx, "counters", name, c.N).Err() // want `HSET "counters" writes a value computed from HGETALL "counters" at line 37, with no WATCH around them: two clients that both read before either writes lose an update; use HINCRBY or HINCRBYFLOAT, or Watch with a bounded retry, or a Lua script`
}

// upDo does the same with Do.
func upDo(ctx context.Context, rdb *redis.Client) error {
	n, err := rdb.Do(ctx, "GET", "counter:a").Int()
	if err != nil {
		return err
	}
	return rdb.Do(ctx, "SET", "counter:a", min(n+1, ceiling)).Err() // want `SET "counter:a" writes a value computed from GET "counter:a" at line 52`
}

// upTx is the fix with WATCH: the check and the write are in one
// transaction, retried a bounded number of times, with a short backoff.
func upTx(ctx context.Context, rdb redis.UniversalClient, name string) error {
	key := "counter:" + name
	for i := range 10 {
		err := rdb.Watch(ctx, func(tx *redis.Tx) error {
			n, err := tx.Get(ctx, key).Int()
			if err != nil && err != redis.Nil {
				return err
			}
			if n >= ceiling || n < floor {
				return ErrBounds
			}
			_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
				pipe.Set(ctx, key, n+1, 0)
				return nil
			})
			return err
		}, key)
		if err == nil || !errors.Is(err, redis.TxFailedErr) {
			return err
		}
		time.Sleep(time.Duration(i+1) * time.Millisecond)
	}
	return errors.New("upTx: too many retries")
}

// upScript is the fix with a script: it checks and increments at once.
var upScript = redis.NewScript(`
local n = tonumber(redis.call("GET", KEYS[1]) or "0")
if n >= tonumber(ARGV[1]) then return -1 end
return redis.call("INCR", KEYS[1])
`)

func upLua(ctx context.Context, rdb *redis.Client, name string) (int64, error) {
	return upScript.Run(ctx, rdb, []string{"counter:" + name}, ceiling).Int64()
}

// upAtomic increments first and undoes past the ceiling: each command is
// atomic, and nothing read is written back.
func upAtomic(ctx context.Context, rdb *redis.Client, name string) error {
	key := "counter:" + name
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return err
	}
	if n > ceiling {
		rdb.Decr(ctx, key)
		return ErrBounds
	}
	return nil
}
