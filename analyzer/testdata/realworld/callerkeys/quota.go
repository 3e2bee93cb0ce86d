package callerkeys

import (
	"context"

	"github.com/gomodule/redigo/redis"

	"slotlint.test/realworld/callerkeys/quotakeys"
)

// Origin: LUCI (go.chromium.org/luci, server/quota/quota.go, GetAccounts
// and withRedisConn): the exported GetAccounts fetches its callers'
// accounts with one MGET of the key another package derives from each,
// appended in a loop to a variable that the callback a helper of the
// package runs on a connection captures. The keys are one template of
// the accounts' fields, with no hashtag.
var pool *redis.Pool

func withRedisConn(ctx context.Context, cb func(redis.Conn) error) error {
	conn, err := pool.GetContext(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return cb(conn)
}

func GetAccounts(ctx context.Context, accounts []*quotakeys.AccountID) ([]string, error) {
	if len(accounts) == 0 {
		return nil, nil
	}
	args := make(redis.Args, 0, len(accounts))
	for _, id := range accounts {
		args = append(args, quotakeys.AccountKey(id))
	}
	var out []string
	err := withRedisConn(ctx, func(conn redis.Conn) error {
		raw, err := redis.Strings(conn.Do("MGET", args...)) // want `MGET keys built as "a~a~<id.AppID>~<id.Realm>~<id.Namespace>~<id.Name>" from different values may hash to different slots`
		out = raw
		return err
	})
	return out, err
}

// Fixed: one account at a time.
func GetAccountBalance(ctx context.Context, account *quotakeys.AccountID) (int64, error) {
	var out int64
	err := withRedisConn(ctx, func(conn redis.Conn) error {
		n, err := redis.Int64(conn.Do("GET", quotakeys.AccountKey(account)))
		out = n
		return err
	})
	return out, err
}
