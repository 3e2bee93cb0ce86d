// Package keyspace holds keyspace-wide commands (KEYS, SCAN, RANDOMKEY,
// FLUSHDB: keyspace-wide: true in rules.yaml's commands) on clients that may
// be a cluster, where they reach one node, and their fixed forms.
package keyspace

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// cluster reduces micolore/gsbt's redis/main.go (a ClusterClient over six
// addresses that deletes the keys of one family, lopdeals:goods:attr:*),
// written as go-redis v7 cache wrappers write a delete by pattern
// (DelByPattern: ClusterClient.Keys(pattern), then Del of each key),
// ported to v9.
type cluster struct {
	ClusterClient *redis.ClusterClient
}

// Bad: KEYS on a ClusterClient lists the keys of one master.
func (r *cluster) DelByPattern(ctx context.Context, pattern string) error {
	keys, err := r.ClusterClient.Keys(ctx, pattern).Result() // want `KEYS on r.ClusterClient, a client that may be a cluster, reads one node's keys only, with no error; run it on every master with ForEachMaster on the \*redis.ClusterClient, or keep the keys you list in a set under one hashtag`
	if err != nil {
		return err
	}
	for _, k := range keys {
		r.ClusterClient.Del(ctx, k)
	}
	return nil
}

// Fixed: KEYS on every master, each a *redis.Client of one node.
func (r *cluster) DelByPatternFixed(ctx context.Context, pattern string) error {
	return r.ClusterClient.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		keys, err := node.Keys(ctx, pattern).Result()
		if err != nil {
			return err
		}
		for _, k := range keys {
			node.Del(ctx, k)
		}
		return nil
	})
}

// deletePattern reduces LordRonz/quotes-api-go's DelByPattern
// (cmd/utils/redis/redis.go: Scan then Del of each key) and the
// Scan(ctx, 0, prefix+"*", 0).Iterator() loop of yisangwu/go-awsome-tools'
// redis_key_export.go, on a UniversalClient.
func deletePattern(ctx context.Context, rdb redis.UniversalClient, prefix string) error {
	iter := rdb.Scan(ctx, 0, prefix+"*", 0).Iterator() // want `SCAN on rdb, a client that may be a cluster, reads one node's keys only`
	for iter.Next(ctx) {
		rdb.Del(ctx, iter.Val())
	}
	keys, _, err := rdb.ScanType(ctx, 0, prefix+"*", 100, "hash").Result() // want `SCAN on rdb, a client that may be a cluster, reads one node's keys only`
	if err != nil {
		return err
	}
	rdb.RandomKey(ctx) // want `RANDOMKEY on rdb, a client that may be a cluster, reads one node's keys only`
	rdb.FlushDB(ctx)   // want `FLUSHDB on rdb, a client that may be a cluster, changes one node's keys only`
	_ = keys
	return iter.Err()
}

// Fixed: the keys of the prefix kept in a set under one hashtag, so that
// no command needs the whole keyspace.
func deletePatternFixed(ctx context.Context, rdb redis.UniversalClient, prefix string) error {
	index := "{" + prefix + "}:index"
	members, err := rdb.SMembers(ctx, index).Result()
	if err != nil {
		return err
	}
	for _, k := range members {
		rdb.Del(ctx, k)
	}
	return rdb.Del(ctx, index).Err()
}

// Not reported: a client of one server, a pipeline, and SCAN over one key's
// fields (HSCAN takes a key).
func oneNode(ctx context.Context, rdb *redis.Client, c *redis.ClusterClient) {
	rdb.Keys(ctx, "user:*")
	rdb.Scan(ctx, 0, "user:*", 0).Iterator()
	c.HScan(ctx, "{u}:h", 0, "*", 0)
	c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Get(ctx, "a")
		return nil
	})
}

// eachNode reduces mna/redisc's Cluster.EachNode (its cluster_test.go runs
// SCAN on each primary's connection in the callback): the callback's client
// is one node's, so a keyspace-wide command there is the fix, not the fault.
func eachNode(ctx context.Context, nodes []redis.UniversalClient, fn func(node redis.UniversalClient) error) error {
	for _, n := range nodes {
		if err := fn(n); err != nil {
			return err
		}
	}
	return nil
}

func scanEachNode(ctx context.Context, nodes []redis.UniversalClient) ([]string, error) {
	var all []string
	err := eachNode(ctx, nodes, func(node redis.UniversalClient) error {
		keys, _, err := node.Scan(ctx, 0, "eachnode:*", 0).Result()
		all = append(all, keys...)
		return err
	})
	return all, err
}
