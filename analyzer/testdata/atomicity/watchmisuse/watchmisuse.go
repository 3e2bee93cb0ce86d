// Package watchmisuse holds the two WATCH mistakes that leave a transaction
// with no protection: a WATCH queued inside MULTI (watch-in-multi), and raw
// WATCH, MULTI and EXEC sent with Do on a pooled client
// (pooled-transaction). Each bad form is followed by its fix.
//
// The pooled transfer is reduced from a public wallet service built on gin
// and go-redis v8 (its ProcessTransaction sends WATCH, WATCH and MULTI with
// rdb.Do on a *redis.Client, and its attemptTransaction the writes and
// EXEC), written anew for v9. The queued WATCH is reduced from a public
// Redis-compatible server's test suite, which sends pipe.Do(ctx, "WATCH",
// "guard") on a TxPipeline to check the server's answer.
package watchmisuse

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var ErrNoFunds = errors.New("not enough funds")

// A WATCH queued in TxPipelined: Redis refuses it, and nothing is watched.
func reserveQueued(ctx context.Context, rdb *redis.Client, stock string) error {
	n, err := rdb.Get(ctx, stock).Int()
	if err != nil {
		return err
	}
	if n <= 0 {
		return ErrNoFunds
	}
	_, err = rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Do(ctx, "WATCH", stock) // want `WATCH "<stock>" is queued inside the MULTI/EXEC of the TxPipelined at line 32: Redis answers "ERR WATCH inside MULTI is not allowed" and watches nothing; watch the keys before MULTI: use Watch\(ctx, fn, keys...\)`
		pipe.Decr(ctx, stock)
		return nil
	})
	return err
}

// The same on a TxPipeline held in a variable.
func guardQueued(ctx context.Context, rdb *redis.Client) error {
	pipe := rdb.TxPipeline()
	pipe.Do(ctx, "WATCH", "{guard}") // want `WATCH "{guard}" is queued inside the MULTI/EXEC of the TxPipeline at line 42`
	pipe.Set(ctx, "{guard}:must-not-commit", "value", 0)
	_, err := pipe.Exec(ctx)
	return err
}

// Inside a Watch function, a WATCH queued in tx.TxPipelined is refused too.
func reserveInWatch(ctx context.Context, rdb *redis.Client, stock, order string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		if n <= 0 {
			return ErrNoFunds
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Do(ctx, "WATCH", order) // want `WATCH "<order>" is queued inside the MULTI/EXEC of the TxPipelined at line 59: .* give them to Watch\(ctx, fn, keys...\), or call tx.Watch\(ctx, keys...\) in fn before TxPipelined`
			pipe.Decr(ctx, stock)
			pipe.Set(ctx, order, "reserved", 0)
			return nil
		})
		return err
	}, stock)
}

// Fixed: the keys are watched before MULTI, by Watch and by tx.Watch; a
// raw WATCH on the *redis.Tx runs at once, before MULTI, and is fine too.
func reserveFixed(ctx context.Context, rdb *redis.Client, stock, order, audit string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if err := tx.Watch(ctx, order).Err(); err != nil {
			return err
		}
		if err := tx.Do(ctx, "WATCH", audit).Err(); err != nil {
			return err
		}
		n, err := tx.Get(ctx, stock).Int()
		if err != nil {
			return err
		}
		if n <= 0 {
			return ErrNoFunds
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Decr(ctx, stock)
			pipe.Set(ctx, order, "reserved", 0)
			return nil
		})
		return err
	}, stock)
}

// A plain pipeline is not a transaction: a WATCH in it runs before the
// MULTI that follows on the same connection.
func pipelinedWatch(ctx context.Context, rdb *redis.Client, k string) error {
	_, err := rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Do(ctx, "WATCH", k)
		pipe.Do(ctx, "MULTI")
		pipe.Do(ctx, "INCR", k)
		pipe.Do(ctx, "EXEC")
		return nil
	})
	return err
}

// The pooled transfer: each Do may run on another connection, so neither
// WATCH protects the balances, and MULTI leaves a connection in the pool
// inside a transaction. One finding, at the first WATCH; the lost update
// of the source balance is that same mistake and is not reported again.
func transfer(ctx context.Context, rdb *redis.Client, from, to string, amount int) error {
	if err := rdb.Do(ctx, "WATCH", "{wallet}:"+from).Err(); err != nil { // want `WATCH "{wallet}:<from>", then WATCH at line 116, MULTI at line 123, DISCARD at line 125, EXEC at line 129 sent with Do on rdb, a pooled \*redis.Client: each Do may take another connection from the pool, so the WATCH protects nothing, and a connection goes back to the pool inside MULTI; use rdb.Watch\(ctx, fn, keys...\) with TxPipelined inside fn, or hold one connection with rdb.Conn\(\)`
		return err
	}
	if err := rdb.Do(ctx, "WATCH", "{wallet}:"+to).Err(); err != nil {
		return err
	}
	bal, err := rdb.Do(ctx, "GET", "{wallet}:"+from).Int()
	if err != nil || bal < amount {
		return ErrNoFunds
	}
	rdb.Do(ctx, "MULTI")
	if err := rdb.Do(ctx, "SET", "{wallet}:"+from, bal-amount).Err(); err != nil {
		rdb.Do(ctx, "DISCARD")
		return err
	}
	rdb.Do(ctx, "INCRBY", "{wallet}:"+to, amount)
	return rdb.Do(ctx, "EXEC").Err()
}

// Fixed with Watch: one connection from WATCH to EXEC, and a retry on
// redis.TxFailedErr.
func transferWatch(ctx context.Context, rdb *redis.Client, from, to string, amount int) error {
	for i := 0; i < 10; i++ {
		err := rdb.Watch(ctx, func(tx *redis.Tx) error {
			bal, err := tx.Get(ctx, "{wallet}:"+from).Int()
			if err != nil || bal < amount {
				return ErrNoFunds
			}
			_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
				pipe.Set(ctx, "{wallet}:"+from, bal-amount, 0)
				pipe.IncrBy(ctx, "{wallet}:"+to, int64(amount))
				return nil
			})
			return err
		}, "{wallet}:"+from, "{wallet}:"+to)
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
	return errors.New("too much contention")
}

// Fixed with a Conn: the same raw commands on one connection are a
// check-and-set, and slotlint says nothing of their transaction.
func transferConn(ctx context.Context, rdb *redis.Client, from, to string, amount int) error {
	cn := rdb.Conn()
	defer cn.Close()
	if err := cn.Do(ctx, "WATCH", "{wallet}:"+from, "{wallet}:"+to).Err(); err != nil {
		return err
	}
	bal, err := cn.Do(ctx, "GET", "{wallet}:"+from).Int()
	if err != nil || bal < amount {
		cn.Do(ctx, "UNWATCH")
		return ErrNoFunds
	}
	cn.Do(ctx, "MULTI")
	cn.Do(ctx, "DECRBY", "{wallet}:"+from, amount)
	cn.Do(ctx, "INCRBY", "{wallet}:"+to, amount)
	return cn.Do(ctx, "EXEC").Err()
}

// MULTI and EXEC alone on a cluster client: the commands between them may
// run on other connections, outside the transaction. A ClusterClient has
// no Conn, so the fix is TxPipelined.
func bumpCluster(ctx context.Context, cc *redis.ClusterClient, id string) error {
	cc.Do(ctx, "MULTI") // want `MULTI, then EXEC at line 181 sent with Do on cc, a pooled \*redis.ClusterClient: each Do may take another connection from the pool, so a connection goes back to the pool inside MULTI, and the commands meant for the transaction may run outside it; queue the commands with cc.TxPipelined\(ctx, fn\)$`
	cc.Do(ctx, "INCR", "{user:"+id+"}:visits")
	cc.Do(ctx, "SET", "{user:"+id+"}:seen", "1")
	return cc.Do(ctx, "EXEC").Err()
}

// Fixed: TxPipelined sends MULTI, the commands and EXEC on one connection.
func bumpClusterFixed(ctx context.Context, cc *redis.ClusterClient, id string) error {
	_, err := cc.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "{user:"+id+"}:visits")
		pipe.Set(ctx, "{user:"+id+"}:seen", "1", 0)
		return nil
	})
	return err
}

// A UniversalClient and a Ring are pooled too.
func universal(ctx context.Context, uc redis.UniversalClient, ring *redis.Ring, k string) {
	uc.Do(ctx, "WATCH", k) // want `WATCH "<k>" sent with Do on uc, a pooled redis.UniversalClient: each Do may take another connection from the pool, so the WATCH protects nothing; use uc.Watch\(ctx, fn, keys...\) with TxPipelined inside fn$`
	ring.Do(ctx, "EXEC")   // want `EXEC sent with Do on ring, a pooled \*redis.Ring: each Do may take another connection from the pool, so EXEC may run on another connection than its MULTI`
}

// A read-modify-write with no WATCH at all is still a lost update: the
// pooled MULTI is a second mistake, and fixing it leaves the first.
func withdrawNoWatch(ctx context.Context, rdb *redis.Client, k string, amount int) error {
	bal, err := rdb.Do(ctx, "GET", k).Int()
	if err != nil {
		return err
	}
	rdb.Do(ctx, "MULTI")              // want `MULTI, then EXEC at line 209 sent with Do on rdb, a pooled \*redis.Client`
	rdb.Do(ctx, "SET", k, bal-amount) // want `SET "<k>" writes a value computed from GET "<k>" at line 203, with no WATCH around them`
	return rdb.Do(ctx, "EXEC").Err()
}

// On a Conn, a read-modify-write under a raw WATCH is a check-and-set: EXEC
// fails if the balance changed after the WATCH. No finding.
func withdrawConn(ctx context.Context, cn *redis.Conn, k string, amount int) error {
	if err := cn.Do(ctx, "WATCH", k).Err(); err != nil {
		return err
	}
	bal, err := cn.Do(ctx, "GET", k).Int()
	if err != nil {
		return err
	}
	cn.Do(ctx, "MULTI")
	cn.Do(ctx, "SET", k, bal-amount)
	return cn.Do(ctx, "EXEC").Err()
}

// A helper handed the pipeliner queues the WATCH where it is called.
func watchOn(ctx context.Context, pipe redis.Pipeliner, k string) {
	pipe.Do(ctx, "WATCH", k)
}

func reserveHelper(ctx context.Context, rdb *redis.Client, stock string) error {
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		watchOn(ctx, pipe, stock) // want `WATCH "<stock>" \(through watchOn at watchmisuse.go:\d+\) is queued inside the MULTI/EXEC of the TxPipelined at line \d+`
		pipe.Decr(ctx, stock)
		return nil
	})
	return err
}

// The same helper on a plain pipeline sends WATCH before what follows.
func watchHelperPlain(ctx context.Context, rdb *redis.Client, stock string) error {
	_, err := rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		watchOn(ctx, pipe, stock)
		return nil
	})
	return err
}

// A service that keeps its client in a field.
type Wallets struct {
	rdb *redis.Client
}

func (w *Wallets) Withdraw(ctx context.Context, id string, amount int) error {
	k := "{wallet}:" + id
	w.rdb.Do(ctx, "WATCH", k) // want `WATCH "{wallet}:<id>", then MULTI at line \d+, EXEC at line \d+ sent with Do on w.rdb, a pooled \*redis.Client: .*; use w.rdb.Watch\(ctx, fn, keys...\) with TxPipelined inside fn, or hold one connection with w.rdb.Conn\(\)$`
	bal, err := w.rdb.Do(ctx, "GET", k).Int()
	if err != nil {
		return err
	}
	w.rdb.Do(ctx, "MULTI")
	w.rdb.Do(ctx, "SET", k, bal-amount)
	return w.rdb.Do(ctx, "EXEC").Err()
}
