package matrix

import (
	"context"

	"github.com/go-redis/redis/v8"
)

// GoRedis8 is go-redis v8's ClusterClient.
var GoRedis8 = Client{Name: "go-redis", Module: "github.com/go-redis/redis/v8", Cluster: true, Rows: []Row{
	{Connect, goRedis8Connect},
	{AloneOne, goRedis8AloneOne},
	{AloneCross, goRedis8AloneCross},
	{PipelineCross, goRedis8PipelineCross},
	{PipelineSpread, goRedis8PipelineSpread},
	{MultiOne, goRedis8MultiOne},
	{MultiCross, goRedis8MultiCross},
	{WatchOne, goRedis8WatchOne},
	{WatchCross, goRedis8WatchCross},
	{ScriptOne, goRedis8ScriptOne},
	{ScriptCross, goRedis8ScriptCross},
	{Keys, goRedis8Keys},
	{Scan, goRedis8Scan},
	{DB, goRedis8DB},
}}

// goRedis8Cluster is a ClusterClient given the cluster's slots: go-redis v8
// fails to read them from a Redis 7 server (row goRedis8Connect).
func goRedis8Cluster(e *Env) *redis.ClusterClient {
	return redis.NewClusterClient(&redis.ClusterOptions{ClusterSlots: goRedis8Slots(e)})
}

func goRedis8Slots(e *Env) func(context.Context) ([]redis.ClusterSlot, error) {
	return func(context.Context) ([]redis.ClusterSlot, error) {
		var slots []redis.ClusterSlot
		for _, s := range e.Slots {
			slots = append(slots, redis.ClusterSlot{Start: s.Start, End: s.End, Nodes: []redis.ClusterNode{{Addr: s.Addr}}})
		}
		return slots, nil
	}
}

func goRedis8Connect(ctx context.Context, e *Env) Result {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: e.Addrs})
	defer c.Close()
	return done(c.Get(ctx, "{price}:1").Err())
}

func goRedis8AloneOne(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	return anys(c.MGet(ctx, "{price}:1", "{price}:2").Result())
}

func goRedis8AloneCross(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	return anys(c.MGet(ctx, "price:1", "price:2").Result())
}

func goRedis8PipelineCross(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	pipe := c.Pipeline()
	mget := pipe.MGet(ctx, "price:1", "price:2")
	_, err := pipe.Exec(ctx)
	if err != nil {
		return done(err)
	}
	return anys(mget.Result())
}

func goRedis8PipelineSpread(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
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

func goRedis8MultiOne(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	_, err := c.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, "{order}:1", "1", 0)
		pipe.Set(ctx, "{order}:2", "2", 0)
		return nil
	})
	return done(err)
}

func goRedis8MultiCross(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	_, err := c.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, "order:1", "1", 0)
		pipe.Set(ctx, "order:2", "2", 0)
		return nil
	})
	return done(err)
}

func goRedis8WatchOne(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
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

func goRedis8WatchCross(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
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

var goRedis8ReadBoth = redis.NewScript(ReadBoth)

func goRedis8ScriptOne(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	return strs(goRedis8ReadBoth.Run(ctx, c, []string{"{price}:1", "{price}:2"}).StringSlice())
}

func goRedis8ScriptCross(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	return strs(goRedis8ReadBoth.Run(ctx, c, []string{"price:1", "price:2"}).StringSlice())
}

func goRedis8Keys(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	keys, err := c.Keys(ctx, "scan:*").Result()
	return count(len(keys), err)
}

func goRedis8Scan(ctx context.Context, e *Env) Result {
	c := goRedis8Cluster(e)
	defer c.Close()
	n := 0
	iter := c.Scan(ctx, 0, "scan:*", 100).Iterator()
	for iter.Next(ctx) {
		n++
	}
	return count(n, iter.Err())
}

func goRedis8DB(ctx context.Context, e *Env) Result {
	// The options a UniversalClient of several addresses turns into.
	opt := (&redis.UniversalOptions{Addrs: e.Addrs, DB: 3}).Cluster()
	opt.ClusterSlots = goRedis8Slots(e)
	c := redis.NewClusterClient(opt)
	defer c.Close()
	return done(c.Set(ctx, "db:probe", "x", 0).Err())
}
