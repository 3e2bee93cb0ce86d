package keyspacewide

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// KEYS on every master, each a *redis.Client of one node.
func deleteSessions(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		keys, err := node.Keys(ctx, "session:*").Result()
		if err != nil {
			return err
		}
		for _, k := range keys {
			node.Del(ctx, k)
		}
		return nil
	})
}
