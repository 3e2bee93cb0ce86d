// Package lostupdate holds reads followed by writes of the same key. A lost
// update is a write whose value is computed from an earlier read of the
// key; a command the server checks itself (XCLAIM with MIN-IDLE, SET NX, a
// compare in Lua) and an idempotent removal of what was read (XACK, SREM,
// HDEL, ZREM of members listed earlier, a cleanup sweep) are not.
package lostupdate

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: go-redis's own counter example before it used INCR, and many
// "views" counters: the read value plus one written back.
func view(ctx context.Context, rdb *redis.Client, page string) {
	n, _ := rdb.Get(ctx, "views:"+page).Int()
	rdb.Set(ctx, "views:"+page, n+1, 0) // want `SET "views:<page>" writes a value computed from GET "views:<page>" at line \d+, with no WATCH around them`
}

func viewFixed(ctx context.Context, rdb *redis.Client, page string) {
	rdb.Incr(ctx, "views:"+page)
}

// Origin: wallet services keeping a balance in a hash field.
func pay(ctx context.Context, rdb *redis.Client, acct string, amount int64) {
	bal, _ := rdb.HGet(ctx, "acct:"+acct, "balance").Int64()
	rdb.HSet(ctx, "acct:"+acct, "balance", bal-amount) // want `HSET "acct:<acct>" writes a value computed from HGET "acct:<acct>" at line \d+`
}

func payFixed(ctx context.Context, rdb *redis.Client, acct string, amount int64) {
	rdb.HIncrBy(ctx, "acct:"+acct, "balance", -amount)
}

// Origin: redis/go-redis (digest_test.go, the compare-and-set of Redis
// 8.4): DIGEST, then SET ... IFDEQ of that digest. The server writes only
// while the value still has the digest read: it checks itself.
func casDigest(ctx context.Context, rdb *redis.Client, key, v string) error {
	d := rdb.Digest(ctx, key).Val()
	return rdb.SetIFDEQ(ctx, key, v, d, 0).Err()
}

// SET ... IFNE writes unless the value is the one given: another client's
// write in between is overwritten.
func casNotEqual(ctx context.Context, rdb *redis.Client, key, v string) error {
	old := rdb.Get(ctx, key).Val()
	return rdb.SetIFNE(ctx, key, old+v, v, 0).Err() // want `SET "<key>" writes a value computed from GET "<key>" at line \d+`
}

func casEqual(ctx context.Context, rdb *redis.Client, key, v string) error {
	old := rdb.Get(ctx, key).Val()
	return rdb.SetIFEQ(ctx, key, old+v, old, 0).Err()
}

// Origin: ThreeDotsLabs/watermill-redisstream (Subscriber's consumer
// cleanup): XINFO CONSUMERS, then XGROUP DELCONSUMER of each consumer idle
// long enough with nothing pending. A subcommand's key specs say what it
// does: DELCONSUMER removes (DELETE), and two cleaners removing the same
// consumer remove it once.
func dropIdle(ctx context.Context, rdb *redis.Client, stream, group string, idle time.Duration) {
	cs, _ := rdb.XInfoConsumers(ctx, stream, group).Result()
	for _, c := range cs {
		if c.Idle >= idle && c.Pending == 0 {
			rdb.XGroupDelConsumer(ctx, stream, group, c.Name)
		}
	}
}

// XGROUP SETID replaces the group's last ID (UPDATE): set from what XINFO
// GROUPS read, another client's SETID in between is lost.
func rewind(ctx context.Context, rdb *redis.Client, stream, group string) {
	gs, _ := rdb.XInfoGroups(ctx, stream).Result()
	for _, g := range gs {
		if g.Name == group {
			rdb.XGroupSetID(ctx, stream, group, g.LastDeliveredID) // want `XGROUP SETID "<stream>" writes a value computed from XINFO GROUPS "<stream>" at line \d+`
		}
	}
}

func rewindFixed(ctx context.Context, rdb *redis.Client, stream, group, id string) {
	rdb.XGroupSetID(ctx, stream, group, id)
}

// Origin: robinjoseph08/redisqueue (Consumer.reclaim): XPENDING, then
// XCLAIM of the pending IDs with MinIdle. The server claims only the
// entries still idle that long: it checks itself.
func reclaim(ctx context.Context, rdb *redis.Client, stream, group, me string) {
	pending, _ := rdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: stream, Group: group, Start: "-", End: "+", Count: 10}).Result()
	for _, p := range pending {
		rdb.XClaim(ctx, &redis.XClaimArgs{Stream: stream, Group: group, Consumer: me, MinIdle: time.Minute, Messages: []string{p.ID}})
	}
}

// Origin: robinjoseph08/redisqueue (Consumer.process): XACK of the IDs
// that XREADGROUP returned. Acknowledging twice is harmless.
func ack(ctx context.Context, rdb *redis.Client, stream, group, me string) {
	res, _ := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: group, Consumer: me, Streams: []string{stream, ">"}}).Result()
	for _, s := range res {
		for _, m := range s.Messages {
			rdb.XAck(ctx, stream, group, m.ID)
		}
	}
}

// Origin: session stores' cleanup sweeps (rbcervilla/redisstore-like):
// members of an index whose session expired are removed. SREM of members
// listed earlier is idempotent.
func sweep(ctx context.Context, rdb *redis.Client, user string) {
	ids, _ := rdb.SMembers(ctx, "user:{"+user+"}:sessions").Result()
	for _, id := range ids {
		if rdb.Exists(ctx, "session:"+id).Val() == 0 {
			rdb.SRem(ctx, "user:{"+user+"}:sessions", id)
		}
	}
}

// Origin: hibiken/asynq (RDB.ClearServerState / ListServers): expired
// entries found by ZRANGEBYSCORE are removed by ZREM.
func expire(ctx context.Context, rdb *redis.Client, now int64) {
	gone, _ := rdb.ZRangeByScore(ctx, "servers", &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(now, 10)}).Result()
	if len(gone) > 0 {
		rdb.ZRem(ctx, "servers", gone)
	}
}

// Origin: gocraft/work's heartbeater: fields of dead workers read with
// HKEYS and removed with HDEL.
func prune(ctx context.Context, rdb *redis.Client, alive map[string]bool) {
	fields, _ := rdb.HKeys(ctx, "workers").Result()
	for _, f := range fields {
		if !alive[f] {
			rdb.HDel(ctx, "workers", f)
		}
	}
}

// Origin: bsm/redislock and go-redis/cache (Once): a value computed from a
// read, written with SET NX: the server writes it only when the key is
// still missing.
func initOnce(ctx context.Context, rdb *redis.Client, key string) {
	cur, _ := rdb.Get(ctx, key).Result()
	rdb.SetNX(ctx, key, cur+":init", time.Minute)
}

// Origin: go-redsync/redsync's compare-and-delete: the read value is passed
// to a script that compares it on the server.
var casScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("SET", KEYS[1], ARGV[2])
end
return 0`)

func extend(ctx context.Context, rdb *redis.Client, key string) {
	old, _ := rdb.Get(ctx, key).Result()
	casScript.Run(ctx, rdb, []string{key}, old, old+"+")
}

// Origin: go-redis's Watch example, written without EXEC: the write runs at
// once on the *redis.Tx and no MULTI/EXEC follows, so the message must not
// speak of EXEC failing.
func bumpNoExec(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, _ := tx.Get(ctx, "n:"+id).Int()
		return tx.Set(ctx, "n:"+id, n+1, 0).Err() // want `SET "n:<id>" runs at once on the \*redis.Tx of Watch on "n:<id>", and the function queues no MULTI/EXEC: WATCH guards nothing and each retry writes again; queue it in tx.TxPipelined$`
	}, "n:"+id)
}

// With an EXEC after it, the write of a watched key makes EXEC fail.
func bumpBeforeExec(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, _ := tx.Get(ctx, "n:"+id).Int()
		tx.Set(ctx, "n:"+id, n+1, 0) // want `SET "n:<id>" runs at once on the \*redis.Tx of Watch on "n:<id>", outside MULTI/EXEC: .*so EXEC always fails`
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Expire(ctx, "n:"+id, time.Hour)
			return nil
		})
		return err
	}, "n:"+id)
}

func bumpFixed(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, _ := tx.Get(ctx, "n:"+id).Int()
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "n:"+id, n+1, 0)
			return nil
		})
		return err
	}, "n:"+id)
}
