// Package valkey is checked with target: valkey-9 in the rules: Valkey 9's
// cluster mode has databases other than 0, so cluster-db stays silent, and
// keyspace-wide commands still reach one node.
package valkey

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The options of databases.newClient, which Valkey 9 keeps on a cluster.
func newClient() redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs: []string{"10.0.0.1:6379", "10.0.0.2:6379"},
		DB:    3,
	})
}

func archive(ctx context.Context, rdb redis.UniversalClient) {
	rdb.Copy(ctx, "{o}:1", "{o}:1:old", 2, false)
	rdb.Move(ctx, "order:1", 2)
	rdb.Keys(ctx, "order:*") // want `KEYS on rdb, a client that may be a cluster, reads one node's keys only`
}
