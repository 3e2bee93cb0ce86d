// Package split holds multi-key commands that go-redis's ClusterClient
// splits by slot when they are sent alone (MGET, DEL, EXISTS, UNLINK,
// TOUCH, MSET): since go-redis v9.18 they work across slots, one command
// per slot, without atomicity. This module builds with go-redis v9.23, so
// slotlint does not report them sent alone on a cluster client; it still
// reports them in a transaction, in a script, and on a client of one node.
package split

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: go-redis/cache (Cache.Delete of several keys) and asynq's
// inspector (DeleteAllTasks): DEL and MGET of unrelated keys on a
// ClusterClient, split by go-redis.
func forget(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.Del(ctx, "cache:"+a, "cache:"+b)
	rdb.MGet(ctx, "profile:"+a, "profile:"+b)
	rdb.Exists(ctx, "session:"+a, "session:"+b)
}

// The same through a redis.UniversalClient, as asynq holds it.
func forgetUniversal(ctx context.Context, rdb redis.UniversalClient, a, b string) {
	rdb.Unlink(ctx, "cache:"+a, "cache:"+b)
}

// Origin: zeromicro/go-zero (core/stores/redis: RedisNode embeds
// red.Cmdable, which getRedis fills with a *red.ClusterClient for a
// cluster): MGET and EXISTS through a redis.Cmdable, split by go-redis when
// it holds a cluster client.
func forgetCmdable(ctx context.Context, rdb redis.Cmdable, a, b string) {
	rdb.MGet(ctx, "profile:"+a, "profile:"+b)
	rdb.Exists(ctx, "session:"+a, "session:"+b)
}

// A RENAME through a redis.Cmdable is not split by anyone.
func moveCmdable(ctx context.Context, rdb redis.Cmdable, a, b string) {
	rdb.Rename(ctx, "cache:"+a, "cache:"+b) // want `RENAME keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

func moveCmdableFixed(ctx context.Context, rdb redis.Cmdable, user string) {
	rdb.Rename(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
}

// In a MULTI/EXEC the split does not happen: CROSSSLOT.
func forgetTx(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
		p.Del(ctx, "cache:"+a, "cache:"+b) // want `DEL keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
		return nil
	})
}

func forgetTxFixed(ctx context.Context, rdb *redis.ClusterClient, user string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
		return nil
	})
}

// In a script the keys must share a slot whatever the client.
func forgetScript(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.Eval(ctx, `return redis.call("DEL", KEYS[1], KEYS[2])`, []string{"cache:" + a, "cache:" + b}) // want `EVAL keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

// A client of one node does not split: the node answers CROSSSLOT.
func forgetNode(ctx context.Context, rdb *redis.Client, a, b string) {
	rdb.Del(ctx, "cache:"+a, "cache:"+b) // want `DEL keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

func forgetNodeFixed(ctx context.Context, rdb *redis.Client, user string) {
	rdb.Del(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
}

// RENAME is not split by anyone: reported on a ClusterClient too.
func move(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.Rename(ctx, "cache:"+a, "cache:"+b) // want `RENAME keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

// Origin: go-zero (core/stores/redis), RedisNode: the project's interface
// embeds redis.Cmdable, and holds a *redis.ClusterClient on a cluster, so
// MGET and DEL sent alone through it are split as on the cluster client.
type RedisNode interface {
	redis.Cmdable
	Do(ctx context.Context, args ...any) *redis.Cmd
}

func forgetNodeIface(ctx context.Context, node RedisNode, a, b string) {
	node.MGet(ctx, "profile:"+a, "profile:"+b)
	node.Del(ctx, "cache:"+a, "cache:"+b)
}

// In its MULTI/EXEC nothing is split.
func forgetNodeIfaceTx(ctx context.Context, node RedisNode, a, b string) {
	node.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
		p.Del(ctx, "cache:"+a, "cache:"+b) // want `DEL keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
		return nil
	})
}

func forgetNodeIfaceTxFixed(ctx context.Context, node RedisNode, user string) {
	node.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
		return nil
	})
}
