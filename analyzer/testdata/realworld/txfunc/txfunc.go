// Package txfunc queues a transaction's commands in a function literal
// handed to a project's own transaction method, of another package.
package txfunc

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/txfunc/infra"
)

func saveArticle(ctx context.Context, r *infra.RedisClient, id string) error {
	return r.Tx(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "article:<id>" \(hashtag unknown\) and "article:views:<id>" \(hashtag unknown\) may hash to different slots`
		pipe.HSet(ctx, "article:"+id, "title", "t")
		pipe.Set(ctx, "article:views:"+id, 0, 0)
		return nil
	})
}

func saveArticleFixed(ctx context.Context, r *infra.RedisClient, id string) error {
	return r.Tx(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, "article:{"+id+"}", "title", "t")
		pipe.Set(ctx, "article:views:{"+id+"}", 0, 0)
		return nil
	})
}

func moveOrder(r *infra.RedisClient, id string) error {
	ctx := context.Background()
	return r.Transaction(func(tx redis.Pipeliner) { // want `MULTI/EXEC transaction keys "orders:pending" \(slot \d+\) and "orders:done" \(slot \d+\) hash to different slots`
		tx.SRem(ctx, "orders:pending", id)
		tx.SAdd(ctx, "orders:done", id)
	})
}

func moveOrderFixed(r *infra.RedisClient, id string) error {
	ctx := context.Background()
	return r.Transaction(func(tx redis.Pipeliner) {
		tx.SRem(ctx, "{orders}:pending", id)
		tx.SAdd(ctx, "{orders}:done", id)
	})
}

// A plain pipeline may span slots.
func warm(r *infra.RedisClient, id string) error {
	ctx := context.Background()
	return r.Pipeline(func(p redis.Pipeliner) {
		p.Get(ctx, "orders:pending")
		p.Get(ctx, "article:"+id)
	})
}

func transfer(ctx context.Context, r *infra.RedisClient, from, to string) error {
	return r.WatchRetry(ctx, []string{"balance:" + from}, func(tx *redis.Tx) error { // want `WATCH transaction keys "balance:<from>" \(hashtag unknown\) and "balance:<to>" \(hashtag unknown\) may hash to different slots`
		n, err := tx.Get(ctx, "balance:"+from).Int()
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "balance:"+from, n-1, 0)
			pipe.IncrBy(ctx, "balance:"+to, 1)
			return nil
		})
		return err
	})
}

func transferFixed(ctx context.Context, r *infra.RedisClient, from, to string) error {
	return r.WatchRetry(ctx, []string{"balance:{" + from + "}"}, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, "balance:{"+from+"}").Int()
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "balance:{"+from+"}", n-1, 0)
			pipe.Decr(ctx, "fees:{"+from+"}")
			return nil
		})
		return err
	})
}
