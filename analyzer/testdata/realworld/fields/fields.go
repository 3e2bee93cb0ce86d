// Package fields uses the exported fields of cart.Session from another
// package: their values come through facts.
package fields

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/fields/cart"
)

// Origin: a handler package of a service built on a session store
// (rbcervilla/redisstore), moving a session into the global index.
func index(ctx context.Context, rdb *redis.ClusterClient, s *cart.Session) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "sess:\{<uid>\}:data" .* and "sessions:index" .* hash to different slots`
		p.Expire(ctx, s.Data, 0)
		p.SAdd(ctx, s.Index, "x")
		return nil
	})
}

func indexFixed(ctx context.Context, rdb *redis.ClusterClient, s *cart.Session) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Expire(ctx, s.Data, 0)
		p.Persist(ctx, s.Data)
		return nil
	})
}
