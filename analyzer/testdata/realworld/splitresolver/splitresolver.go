// Package splitresolver installs on its go-redis v9 ClusterClient the
// command policy resolver that reads Redis's command tips. With it,
// go-redis splits MGET, DEL and the other commands that Redis marks
// request_policy:multi_shard by slot when they are sent alone: one command
// per slot, without atomicity (internal/matrix's resolver rows show it on a
// real cluster). slotlint does not report them sent alone on a cluster
// client of this package; it still reports them in a transaction, in a
// script, on a client of one node, and commands that nothing splits.
package splitresolver

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: redis/go-redis's own cluster tests (osscluster_test.go,
// clusterScenario.newClusterClient) make every ClusterClient so.
func newClient(addrs []string) *redis.ClusterClient {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	c.SetCommandInfoResolver(c.NewDynamicResolver())
	return c
}

// Origin: go-redis/cache (Cache.Delete of several keys): DEL and MGET of
// unrelated keys, split by the resolver.
func forget(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.Del(ctx, "cache:"+a, "cache:"+b)
	rdb.MGet(ctx, "profile:"+a, "profile:"+b)
}

// RENAME is split by no one.
func move(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.Rename(ctx, "cache:"+a, "cache:"+b) // want `RENAME keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

func moveFixed(ctx context.Context, rdb *redis.ClusterClient, user string) {
	rdb.Rename(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
}

// In a MULTI/EXEC nothing is split: CROSSSLOT.
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

// A client of one node splits nothing.
func forgetNode(ctx context.Context, rdb *redis.Client, a, b string) {
	rdb.Del(ctx, "cache:"+a, "cache:"+b) // want `DEL keys "cache:<a>" .* and "cache:<b>" .* hash to different slots`
}

func forgetNodeFixed(ctx context.Context, rdb *redis.Client, user string) {
	rdb.Del(ctx, "cache:{"+user+"}:a", "cache:{"+user+"}:b")
}
