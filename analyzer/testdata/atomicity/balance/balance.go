// Package balance withdraws from an account balance: two clients
// that withdraw 30 from 100 must leave 40, not 70.
package balance

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrInsufficient = errors.New("insufficient funds")

const maxRetries = 5

// withdrawPlain reads the balance and writes it back: both clients read
// 100, both write 70.
func withdrawPlain(ctx context.Context, rdb *redis.Client, amount int) error {
	bal, err := rdb.Get(ctx, "balance:1").Int()
	if err != nil {
		return err
	}
	if bal < amount {
		return ErrInsufficient
	}
	return rdb.Set(ctx, "balance:1", bal-amount, 0).Err() // want `SET "balance:1" writes a value computed from GET "balance:1" at line 22, with no WATCH around them: two clients that both read before either writes lose an update; use an atomic command \(INCRBY, DECRBY, INCRBYFLOAT, SET with GET\), or Watch with a bounded retry, or a Lua script`
}

// withdrawString goes through strconv and a variable built from the key.
func withdrawString(ctx context.Context, rdb redis.UniversalClient, account string, amount int) error {
	key := "balance:" + account
	s, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	next := strconv.Itoa(n - amount)
	return rdb.Set(ctx, key, next, 0).Err() // want `SET "balance:<account>" writes a value computed from GET "balance:<account>" at line 35`
}

// withdrawMulti wraps the write in MULTI/EXEC, which does not help: the
// read ran before it.
func withdrawMulti(ctx context.Context, rdb *redis.Client, amount int) error {
	bal, err := rdb.Get(ctx, "balance:1").Int()
	if err != nil {
		return err
	}
	_, err = rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, "balance:1", bal-amount, 0) // want `SET "balance:1" writes a value computed from GET "balance:1" at line 50, with no WATCH around them \(MULTI/EXEC alone does not help: the read ran before it\)`
		return nil
	})
	return err
}

// withdrawStale reads the balance before Watch: WATCH notices only the
// changes made after it.
func withdrawStale(ctx context.Context, rdb *redis.Client, amount int) error {
	bal, err := rdb.Get(ctx, "balance:1").Int() // want `GET "balance:1" is read outside the function of Watch on "balance:1", and its value is written by SET "balance:1" at line 70: WATCH sees only changes made after it, so the value is stale and the update can be lost; read the key inside the function, on the \*redis.Tx, so that each retry reads it again`
	if err != nil {
		return err
	}
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "balance:1", bal-amount, 0)
			return nil
		})
		return err
	}, "balance:1")
}

// withdrawStaleGuard decides before Watch whether there is enough.
func withdrawStaleGuard(ctx context.Context, rdb *redis.Client, amount int64) error {
	bal, err := rdb.Get(ctx, "balance:1").Int64() // want `GET "balance:1" is read outside the function of Watch on "balance:1", and its value decides whether to write DECRBY "balance:1" at line 88`
	if err != nil {
		return err
	}
	if bal < amount {
		return ErrInsufficient
	}
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.DecrBy(ctx, "balance:1", amount)
			return nil
		})
		return err
	}, "balance:1")
}

// withdrawAtOnce writes on the *redis.Tx: the SET runs at once, outside
// MULTI/EXEC.
func withdrawAtOnce(ctx context.Context, rdb *redis.Client, amount int) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		bal, err := tx.Get(ctx, "balance:1").Int()
		if err != nil {
			return err
		}
		if bal < amount {
			return ErrInsufficient
		}
		return tx.Set(ctx, "balance:1", bal-amount, 0).Err() // want `SET "balance:1" runs at once on the \*redis.Tx of Watch on "balance:1", and the function queues no MULTI/EXEC: WATCH guards nothing and each retry writes again; queue it in tx.TxPipelined`
	}, "balance:1")
}

// withdrawOnClient writes through the client inside the function.
func withdrawOnClient(ctx context.Context, rdb *redis.Client, amount int) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		bal, err := tx.Get(ctx, "balance:1").Int()
		if err != nil {
			return err
		}
		rdb.Set(ctx, "balance:1", bal-amount, 0) // want `SET "balance:1" is sent on rdb inside the function of Watch on "balance:1", and the function queues no MULTI/EXEC: WATCH guards nothing and each retry writes again; queue it in tx.TxPipelined`
		rdb.Incr(ctx, "metrics:withdraw:attempts")
		_, err = tx.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Incr(ctx, "{balance:1}:withdrawals") // want `INCR "\{balance:1\}:withdrawals" is sent in a plain pipeline inside the function of Watch on "balance:1", and the function queues no MULTI/EXEC: WATCH guards nothing and each retry writes again; queue it in tx.TxPipelined`
			return nil
		})
		return err
	}, "balance:1")
}

// withdraw is the fix: read inside the function, write in MULTI/EXEC, retry
// a bounded number of times on redis.TxFailedErr only.
func withdraw(ctx context.Context, rdb *redis.Client, amount int) error {
	txf := func(tx *redis.Tx) error {
		bal, err := tx.Get(ctx, "balance:1").Int()
		if err != nil && err != redis.Nil {
			return err
		}
		if bal < amount {
			return ErrInsufficient
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "balance:1", bal-amount, 0)
			return nil
		})
		return err
	}
	for i := 0; i < maxRetries; i++ {
		err := rdb.Watch(ctx, txf, "balance:1")
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
	return errors.New("withdraw: too many retries")
}

// withdrawAtomic needs no read: DECRBY is atomic.
func withdrawAtomic(ctx context.Context, rdb *redis.Client, amount int64) (int64, error) {
	return rdb.DecrBy(ctx, "balance:1", amount).Result()
}

// withdrawScript checks and writes in one script.
var withdrawScript = redis.NewScript(`
local bal = tonumber(redis.call("GET", KEYS[1]) or "0")
if bal < tonumber(ARGV[1]) then return -1 end
return redis.call("DECRBY", KEYS[1], ARGV[1])
`)

func withdrawLua(ctx context.Context, rdb *redis.Client, amount int) (int64, error) {
	return withdrawScript.Run(ctx, rdb, []string{"balance:1"}, amount).Int64()
}

// cached reads, and on a miss computes and stores: the value written is
// not the one read.
func cached(ctx context.Context, rdb *redis.Client, load func() string) (string, error) {
	v, err := rdb.Get(ctx, "report:1").Result()
	if err == redis.Nil {
		v = load()
		err = rdb.Set(ctx, "report:1", v, 0).Err()
	}
	return v, err
}

// transfer copies a value to another key: not an update of the key read.
func transfer(ctx context.Context, rdb *redis.Client) error {
	v, err := rdb.Get(ctx, "balance:1").Result()
	if err != nil {
		return err
	}
	return rdb.Set(ctx, "balance:1:backup", v, 0).Err()
}

// withdrawCaptured reads the balance after it wrote the function that uses
// it, but still before Watch.
func withdrawCaptured(ctx context.Context, rdb *redis.Client, amount int) error {
	var bal int
	txf := func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "balance:1", bal-amount, 0)
			return nil
		})
		return err
	}
	bal, _ = rdb.Get(ctx, "balance:1").Int() // want `GET "balance:1" is read outside the function of Watch on "balance:1", and its value is written by SET "balance:1" at line 195`
	return rdb.Watch(ctx, txf, "balance:1")
}

type ledger struct {
	Balance int
	Entries []int
}

// appendEntry decodes the ledger, changes it and stores it back.
func appendEntry(ctx context.Context, rdb *redis.Client, amount int) error {
	b, err := rdb.Get(ctx, "ledger:1").Bytes()
	if err != nil {
		return err
	}
	var l ledger
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	l.Balance -= amount
	l.Entries = append(l.Entries, -amount)
	out, err := json.Marshal(l)
	if err != nil {
		return err
	}
	return rdb.Set(ctx, "ledger:1", out, 0).Err() // want `SET "ledger:1" writes a value computed from GET "ledger:1" at line 211`
}

// cachedLedger fills a cache on a miss: what it stores was not read.
func cachedLedger(ctx context.Context, rdb *redis.Client, load func() ledger) (ledger, error) {
	var l ledger
	if b, err := rdb.Get(ctx, "cache:ledger:1").Bytes(); err == nil {
		if json.Unmarshal(b, &l) == nil {
			return l, nil
		}
	}
	l = load()
	out, err := json.Marshal(l)
	if err != nil {
		return l, err
	}
	return l, rdb.Set(ctx, "cache:ledger:1", out, time.Minute).Err()
}
