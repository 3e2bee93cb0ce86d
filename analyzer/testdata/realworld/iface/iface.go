// Package iface holds Redis calls made through a project's own interface
// over go-redis, through a struct that embeds a client, through a method
// value, and through a wrapper whose shape differs from the method it
// forwards to.
package iface

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// store is the small interface projects declare over go-redis so that tests
// can swap the client (hyman-m/redis-tools's RedisClient, Syncano/orion's
// rediser in pkg/cache, vx416/dcard-hw's RedisScripter). Its methods have
// the names and signatures of go-redis's, so each is that method.
type store interface {
	Del(ctx context.Context, keys ...string) *redis.IntCmd
	Rename(ctx context.Context, key, newkey string) *redis.StatusCmd
	RPopLPush(ctx context.Context, source, destination string) *redis.StringCmd
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.BoolCmd
	TxPipeline() redis.Pipeliner
	TxPipelined(ctx context.Context, fn func(redis.Pipeliner) error) ([]redis.Cmder, error)
}

// Origin: hyman-m/redis-tools (common.go), a lock release through the
// interface.
func purge(ctx context.Context, s store, id string) {
	s.Del(ctx, "lock:"+id, "owner:"+id) // want `DEL keys "lock:<id>" .* and "owner:<id>" .* hash to different slots`
}

func purgeFixed(ctx context.Context, s store, id string) {
	s.Del(ctx, "lock:{"+id+"}", "owner:{"+id+"}")
}

// Origin: Syncano/orion (pkg/cache), replacing a cached value by renaming
// the freshly written copy over it.
func publish(ctx context.Context, s store, id string) {
	s.Rename(ctx, "tmp:report:"+id, "report:"+id) // want `RENAME keys "tmp:report:<id>" .* and "report:<id>" .* hash to different slots`
}

func publishFixed(ctx context.Context, s store, id string) {
	s.Rename(ctx, "tmp:{report:"+id+"}", "{report:"+id+"}")
}

// Origin: asynq's RDB, whose client field is a redis.UniversalClient (an
// interface of go-redis itself): a reliable-queue move.
func claim(ctx context.Context, s store, q string) {
	s.RPopLPush(ctx, "queue:"+q+":pending", "queue:"+q+":active") // want `RPOPLPUSH keys "queue:<q>:pending" .* and "queue:<q>:active" .* hash to different slots`
}

func claimFixed(ctx context.Context, s store, q string) {
	s.RPopLPush(ctx, "queue:{"+q+"}:pending", "queue:{"+q+"}:active")
}

// Origin: zeromicro/go-zero's Redis (TxPipeline through its own type), a
// page counter and a visitor counter bumped together.
func count(ctx context.Context, s store, page, user string) {
	p := s.TxPipeline() // want `MULTI/EXEC transaction keys "hits:<page>" .* and "visits:<user>" .* hash to different slots`
	p.Incr(ctx, "hits:"+page)
	p.Incr(ctx, "visits:"+user)
	p.Exec(ctx)
}

func countFixed(ctx context.Context, s store, page string) {
	p := s.TxPipeline()
	p.Incr(ctx, "stats:{"+page+"}:hits")
	p.Incr(ctx, "stats:{"+page+"}:visits")
	p.Exec(ctx)
}

// Origin: sao-lang/blog-data's RedisClient.Tx, TxPipelined through the
// project's interface.
func like(ctx context.Context, s store, post, user string) {
	s.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "post:<post>:likes" .* and "user:<user>:liked" .* hash to different slots`
		p.Incr(ctx, "post:"+post+":likes")
		p.SAdd(ctx, "user:"+user+":liked", post)
		return nil
	})
}

func likeFixed(ctx context.Context, s store, post, user string) {
	s.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "post:{"+post+"}:likes")
		p.SAdd(ctx, "post:{"+post+"}:likers", user)
		return nil
	})
}

// cache embeds the client, as tair-opensource/tair-go's TairClient embeds
// *redis.Client: the promoted methods are go-redis's.
type cache struct {
	*redis.ClusterClient
	prefix string
}

// Origin: tair-opensource/tair-go, a promoted method of an embedded client.
func (c *cache) rotate(ctx context.Context, day string) {
	c.Rename(ctx, "log:today", "log:"+day) // want `RENAME keys "log:today" .* and "log:<day>" .* hash to different slots`
}

func (c *cache) rotateFixed(ctx context.Context, day string) {
	c.Rename(ctx, "{log}:today", "{log}:"+day)
}

// universal embeds go-redis's own interface, as go-redis/cache's Options
// hold a rediser and many services hold a redis.UniversalClient.
type universal struct {
	redis.UniversalClient
}

// Origin: go-redis/cache (a rediser field), a set union kept by a store.
func (u universal) merge(ctx context.Context, a, b string) {
	u.SUnionStore(ctx, "tags:all", "tags:"+a, "tags:"+b) // want `SUNIONSTORE keys "tags:all" .* and "tags:<a>" .* hash to different slots`
}

func (u universal) mergeFixed(ctx context.Context, a, b string) {
	u.SUnionStore(ctx, "{tags}:all", "{tags}:"+a, "{tags}:"+b)
}

// Origin: RichardKnop/machinery's redis broker passes go-redis methods as
// values to its retry helpers; a method value is the method.
func requeue(ctx context.Context, rdb *redis.Client, q string) {
	move := rdb.LMove
	move(ctx, "jobs:"+q+":failed", "jobs:"+q+":ready", "LEFT", "RIGHT") // want `LMOVE keys "jobs:<q>:failed" .* and "jobs:<q>:ready" .* hash to different slots`
}

func requeueFixed(ctx context.Context, rdb *redis.Client, q string) {
	move := rdb.LMove
	move(ctx, "jobs:{"+q+"}:failed", "jobs:{"+q+"}:ready", "LEFT", "RIGHT")
}

// A method value of the project's interface.
func swap(ctx context.Context, s store, id string) {
	rename := s.Rename
	rename(ctx, "draft:"+id, "page:"+id) // want `RENAME keys "draft:<id>" .* and "page:<id>" .* hash to different slots`
}

func swapFixed(ctx context.Context, s store, id string) {
	rename := s.Rename
	rename(ctx, "draft:{"+id+"}", "page:{"+id+"}")
}

// runner is a wrapper whose shape differs from what it forwards to: it
// takes a raw command, as NamalSanjaya/sonnet's txPipeliner and go-zero's
// Redis.Do forward to Pipeliner.Do. Its body is visible, so the command
// and keys of each call are followed through it.
type runner struct{ pipe redis.Pipeliner }

func (r *runner) Do(ctx context.Context, args ...interface{}) *redis.Cmd { // want Do:`keyWrapper\(Do raw \$1\.\.\.\)`
	return r.pipe.Do(ctx, args...)
}

// Origin: NamalSanjaya/sonnet (pkgs/txpipeline), a raw command through the
// project's Do.
func (r *runner) archive(ctx context.Context, id string) {
	r.Do(ctx, "RENAME", "order:"+id, "archive:"+id) // want `RENAME .*keys "order:<id>" .* and "archive:<id>" .* hash to different slots`
}

func (r *runner) archiveFixed(ctx context.Context, id string) {
	r.Do(ctx, "RENAME", "order:{"+id+"}", "archive:{"+id+"}")
}

// mover is an interface whose method has no go-redis counterpart; the
// test's rules file declares it as an LMOVE wrapper (wrappers:), because
// no body says what it sends.
type mover interface {
	MoveJob(ctx context.Context, from, to string) error
}

// Origin: gocraft/work-style job mover behind an interface.
func retry(ctx context.Context, m mover, q string) {
	m.MoveJob(ctx, "work:"+q+":dead", "work:"+q+":retry") // want `LMOVE keys "work:<q>:dead" .* and "work:<q>:retry" .* hash to different slots`
}

func retryFixed(ctx context.Context, m mover, q string) {
	m.MoveJob(ctx, "work:{"+q+"}:dead", "work:{"+q+"}:retry")
}

// Origin: bsm/redislock, a lock taken through the interface: one key, and
// keys built from a parameter with a shared hashtag stay silent.
func lock(ctx context.Context, s store, res string) bool {
	return s.SetNX(ctx, "lock:{"+res+"}", "token", time.Minute).Val()
}
