// Package scriptruns holds one script run from several places, each run a
// site with its own KEYS and ARGV: each is checked, and a key the script
// touches undeclared is reported at each run. A finding about the script's
// text alone (its syntax, its flags) is reported once, at the first run.
package scriptruns

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: bsm/redislock-style lockers (a lockerImpl's refresh and its
// watchdog, as in XdpCs/redis-lock and the lockers built on it): one
// refresh script run from Refresh and from the watchdog's loop.
var luaRefresh = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

type locker struct {
	rdb   *redis.ClusterClient
	key   string
	token string
}

func (l *locker) refresh(ctx context.Context, ttl time.Duration) error {
	return luaRefresh.Run(ctx, l.rdb, []string{l.key}, l.token, strconv.FormatInt(int64(ttl/time.Millisecond), 10)).Err()
}

// The watchdog's run passes the token among the keys.
func (l *locker) watchdog(ctx context.Context) error {
	return luaRefresh.Run(ctx, l.rdb, []string{l.key, l.token}, "30000").Err() // want `script luaRefresh: the call passes 2 keys but the script never reads KEYS\[2\]`
}

func (l *locker) watchdogFixed(ctx context.Context) error {
	return luaRefresh.Run(ctx, l.rdb, []string{l.key}, l.token, "30000").Err()
}

// Origin: a delay queue moving due jobs from its delayed set to its ready
// list (the shape of asynq's forward script, run for the scheduled and the
// retry sets): one script, two runs with their own keys.
var forward = redis.NewScript(`
local ids = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", ARGV[1], "LIMIT", 0, 100)
for _, id in ipairs(ids) do
	redis.call("LPUSH", KEYS[2], id)
	redis.call("ZREM", KEYS[1], id)
end
return table.getn(ids)`)

func forwardScheduled(ctx context.Context, rdb *redis.ClusterClient, q string, now int64) error {
	return forward.Run(ctx, rdb, []string{"asynq:{" + q + "}:scheduled", "asynq:{" + q + "}:pending"}, now).Err()
}

// The second run's keys differ: the retry set lost its hashtag.
func forwardRetry(ctx context.Context, rdb *redis.ClusterClient, q string, now int64) error {
	return forward.Run(ctx, rdb, []string{"asynq:" + q + ":retry", "asynq:{" + q + "}:pending"}, now).Err() // want `EVALSHA keys "asynq:<q>:retry" .* and "asynq:\{<q>\}:pending" .* may hash to different slots`
}

func forwardRetryFixed(ctx context.Context, rdb *redis.ClusterClient, q string, now int64) error {
	return forward.Run(ctx, rdb, []string{"asynq:{" + q + "}:retry", "asynq:{" + q + "}:pending"}, now).Err()
}

// A script that touches a key it does not declare: each run fails on a
// cluster, and each is reported.
var stats = redis.NewScript(`
redis.call("INCR", KEYS[1])
return redis.call("INCR", "stats:total")`)

func countA(ctx context.Context, rdb *redis.ClusterClient, id string) {
	stats.Run(ctx, rdb, []string{"count:{" + id + "}"}) // want `script stats line 3: .*"stats:total".* not declared in KEYS`
}

func countB(ctx context.Context, rdb *redis.ClusterClient, id string) {
	stats.Run(ctx, rdb, []string{"other:{" + id + "}"}) // want `script stats line 3: .*"stats:total".* not declared in KEYS`
}

// The same mistake at two runs is two sites to fix: each is reported.
func (l *locker) extend(ctx context.Context) error {
	return luaRefresh.Run(ctx, l.rdb, []string{l.key, l.token}, "60000").Err() // want `script luaRefresh: the call passes 2 keys but the script never reads KEYS\[2\]`
}

// A run that passes no key at all: KEYS[1] is nil there, and at the
// second such run too.
func (l *locker) refreshLost(ctx context.Context) error {
	return luaRefresh.Run(ctx, l.rdb, nil, l.token, "30000").Err() // want `script luaRefresh line 1: KEYS\[1\] is nil: the call passes no keys`
}

func (l *locker) refreshLostAgain(ctx context.Context) error {
	return luaRefresh.Run(ctx, l.rdb, []string{}, l.token, "30000").Err() // want `script luaRefresh line 1: KEYS\[1\] is nil: the call passes no keys`
}
