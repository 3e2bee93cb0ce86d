package matrix

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// GoRedis9 is go-redis v9's ClusterClient. The module goredis9old runs a
// copy of this file with go-redis v9's oldest release.
var GoRedis9 = Client{Name: "go-redis", Module: "github.com/redis/go-redis/v9", Cluster: true, Rows: []Row{
	{AloneOne, goRedis9AloneOne},
	{AloneCross, goRedis9AloneCross},
	{DelCross, goRedis9DelCross},
	{ExistsCross, goRedis9ExistsCross},
	{MSetCross, goRedis9MSetCross},
	{PipelineCross, goRedis9PipelineCross},
	{PipelineSpread, goRedis9PipelineSpread},
	{MultiOne, goRedis9MultiOne},
	{MultiCross, goRedis9MultiCross},
	{WatchOne, goRedis9WatchOne},
	{WatchCross, goRedis9WatchCross},
	{ScriptOne, goRedis9ScriptOne},
	{ScriptCross, goRedis9ScriptCross},
	{Keys, goRedis9Keys},
	{Scan, goRedis9Scan},
	{DB, goRedis9DB},
	{UniversalCross, goRedis9UniversalCross},
}}

func goRedis9Cluster(e *Env) *redis.ClusterClient {
	return redis.NewClusterClient(&redis.ClusterOptions{Addrs: e.Addrs})
}

func goRedis9AloneOne(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return anys(c.MGet(ctx, "{price}:1", "{price}:2").Result())
}

func goRedis9AloneCross(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return anys(c.MGet(ctx, "price:1", "price:2").Result())
}

func goRedis9DelCross(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return done(c.Del(ctx, "price:1", "price:2").Err())
}

func goRedis9ExistsCross(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return done(c.Exists(ctx, "price:1", "price:2").Err())
}

func goRedis9MSetCross(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return done(c.MSet(ctx, "price:1", "1", "price:2", "2").Err())
}

func goRedis9PipelineCross(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	pipe := c.Pipeline()
	mget := pipe.MGet(ctx, "price:1", "price:2")
	_, err := pipe.Exec(ctx)
	if err != nil {
		return done(err)
	}
	return anys(mget.Result())
}

func goRedis9PipelineSpread(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	var a, b *redis.StringCmd
	_, err := c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		a = pipe.Get(ctx, "price:1")
		b = pipe.Get(ctx, "price:2")
		return nil
	})
	if err != nil {
		return done(err)
	}
	return values(nil, a.Val(), b.Val())
}

func goRedis9MultiOne(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	_, err := c.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, "{order}:1", "1", 0)
		pipe.Set(ctx, "{order}:2", "2", 0)
		return nil
	})
	return done(err)
}

func goRedis9MultiCross(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	_, err := c.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, "order:1", "1", 0)
		pipe.Set(ctx, "order:2", "2", 0)
		return nil
	})
	return done(err)
}

func goRedis9WatchOne(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return done(c.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "{stock}:1", "1", 0)
			pipe.Set(ctx, "{stock}:2", "2", 0)
			return nil
		})
		return err
	}, "{stock}:1", "{stock}:2"))
}

func goRedis9WatchCross(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return done(c.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "stock:1", "1", 0)
			pipe.Set(ctx, "stock:2", "2", 0)
			return nil
		})
		return err
	}, "stock:1", "stock:2"))
}

var goRedis9ReadBoth = redis.NewScript(ReadBoth)

func goRedis9ScriptOne(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return strs(goRedis9ReadBoth.Run(ctx, c, []string{"{price}:1", "{price}:2"}).StringSlice())
}

func goRedis9ScriptCross(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	return strs(goRedis9ReadBoth.Run(ctx, c, []string{"price:1", "price:2"}).StringSlice())
}

func goRedis9Keys(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	keys, err := c.Keys(ctx, "scan:*").Result()
	return count(len(keys), err)
}

func goRedis9Scan(ctx context.Context, e *Env) Result {
	c := goRedis9Cluster(e)
	defer c.Close()
	n := 0
	iter := c.Scan(ctx, 0, "scan:*", 100).Iterator()
	for iter.Next(ctx) {
		n++
	}
	return count(n, iter.Err())
}

func goRedis9DB(ctx context.Context, e *Env) Result {
	c := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: e.Addrs, DB: 3})
	defer c.Close()
	return done(c.Set(ctx, "db:probe", "x", 0).Err())
}

func goRedis9UniversalCross(ctx context.Context, e *Env) Result {
	c := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: e.Addrs})
	defer c.Close()
	return anys(c.MGet(ctx, "price:1", "price:2").Result())
}
