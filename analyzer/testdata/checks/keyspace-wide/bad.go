// Package keyspacewide shows the keyspace-wide check.
package keyspacewide

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// KEYS on a ClusterClient lists the keys of one master, with no error.
func deleteSessionsBad(ctx context.Context, rdb *redis.ClusterClient) error {
	keys, err := rdb.Keys(ctx, "session:*").Result() // want `KEYS on rdb, a client that may be a cluster, reads one node's keys only, with no error`
	if err != nil {
		return err
	}
	for _, k := range keys {
		rdb.Del(ctx, k)
	}
	return nil
}
