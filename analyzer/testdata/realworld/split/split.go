// Package split holds multi-key commands that Redis marks
// request_policy:multi_shard (MGET, DEL, EXISTS, UNLINK, TOUCH, MSET) sent
// on go-redis v9 clients of a cluster. go-redis splits them by slot only
// with the resolver that reads Redis's command tips (package
// splitresolver); without it, in every v9 release, the node answers
// CROSSSLOT, as internal/matrix's rows show on a real cluster. So slotlint
// reports them here, sent alone, in a transaction, in a script, and on a
// client of one node.
package split

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: go-redis/cache (Cache.Delete of several keys) and asynq's
// inspector (DeleteAllTasks): DEL and MGET of unrelated keys on a
// ClusterClient, which fail with CROSSSLOT.
func forget(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.Del(ctx, "cache:"+a, "cache:"+b)        // want `DEL keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
	rdb.MGet(ctx, "profile:"+a, "profile:"+b)   // want `MGET keys "profile:<a>" .* and "profile:<b>" .* hash to different slots`
	rdb.Exists(ctx, "session:"+a, "session:"+b) // want `EXISTS keys "session:<a>" .* and "session:<b>" .* hash to different slots`
}

func forgetFixed(ctx context.Context, rdb *redis.ClusterClient, user string) {
	rdb.Del(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
	rdb.MGet(ctx, "profile:{"+user+"}:a", "profile:{"+user+"}:b")
	rdb.Exists(ctx, "session:{"+user+"}:a", "session:{"+user+"}:b")
}

// Origin: redis/go-redis's example/cluster-mget: SET key0 ... key9 one by
// one on a ClusterClient, then MGET them all at once (the example keeps
// that MGET commented out, and sends an MGET of keys of one hashtag,
// {tag}, instead), and MSET of the same shape.
func clusterMGet(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, "key0", "key1", "key2")     // want `MGET keys "key0" .* and "key1" .* hash to different slots`
	rdb.MSet(ctx, "key0", "v0", "key1", "v1") // want `MSET keys "key0" .* and "key1" .* hash to different slots`
}

func clusterMGetFixed(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, "{tag}nilkeykey1", "{tag}exists")
	rdb.MSet(ctx, "{tag}key0", "v0", "{tag}key1", "v1")
}

// The same through a redis.UniversalClient, as asynq holds it.
func forgetUniversal(ctx context.Context, rdb redis.UniversalClient, a, b string) {
	rdb.Unlink(ctx, "cache:"+a, "cache:"+b) // want `UNLINK keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

func forgetUniversalFixed(ctx context.Context, rdb redis.UniversalClient, user string) {
	rdb.Unlink(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
}

// Origin: zeromicro/go-zero (core/stores/redis: RedisNode embeds
// red.Cmdable, which getRedis fills with a *red.ClusterClient for a
// cluster): MGET and EXISTS through a redis.Cmdable, which fail on a
// cluster client.
func forgetCmdable(ctx context.Context, rdb redis.Cmdable, a, b string) {
	rdb.MGet(ctx, "profile:"+a, "profile:"+b)   // want `MGET keys "profile:<a>" .* and "profile:<b>" .* hash to different slots`
	rdb.Exists(ctx, "session:"+a, "session:"+b) // want `EXISTS keys "session:<a>" .* and "session:<b>" .* hash to different slots`
}

func forgetCmdableFixed(ctx context.Context, rdb redis.Cmdable, user string) {
	rdb.MGet(ctx, "profile:{"+user+"}:a", "profile:{"+user+"}:b")
}

// A RENAME through a redis.Cmdable is not split by anyone.
func moveCmdable(ctx context.Context, rdb redis.Cmdable, a, b string) {
	rdb.Rename(ctx, "cache:"+a, "cache:"+b) // want `RENAME keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

func moveCmdableFixed(ctx context.Context, rdb redis.Cmdable, user string) {
	rdb.Rename(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
}

// In a MULTI/EXEC: CROSSSLOT.
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

// A client of one node: the node answers CROSSSLOT.
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
// MGET and DEL sent alone through it fail as on the cluster client.
type RedisNode interface {
	redis.Cmdable
	Do(ctx context.Context, args ...any) *redis.Cmd
}

func forgetNodeIface(ctx context.Context, node RedisNode, a, b string) {
	node.MGet(ctx, "profile:"+a, "profile:"+b) // want `MGET keys "profile:<a>" .* and "profile:<b>" .* hash to different slots`
	node.Del(ctx, "cache:"+a, "cache:"+b)      // want `DEL keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

func forgetNodeIfaceFixed(ctx context.Context, node RedisNode, user string) {
	node.Del(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
}

// In its MULTI/EXEC too.
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
