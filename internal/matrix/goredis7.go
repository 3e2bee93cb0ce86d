package matrix

import (
	"context"

	"github.com/go-redis/redis/v7"
)

// GoRedis7 is go-redis v7's ClusterClient.
var GoRedis7 = Client{Name: "go-redis", Module: "github.com/go-redis/redis/v7", Cluster: true, Rows: []Row{
	{Connect, goRedis7Connect},
	{AloneOne, goRedis7AloneOne},
	{AloneCross, goRedis7AloneCross},
	{PipelineCross, goRedis7PipelineCross},
	{PipelineSpread, goRedis7PipelineSpread},
	{MultiOne, goRedis7MultiOne},
	{MultiCross, goRedis7MultiCross},
	{WatchOne, goRedis7WatchOne},
	{WatchCross, goRedis7WatchCross},
	{ScriptOne, goRedis7ScriptOne},
	{ScriptCross, goRedis7ScriptCross},
	{Keys, goRedis7Keys},
	{Scan, goRedis7Scan},
	{DB, goRedis7DB},
}}

// goRedis7Cluster is a ClusterClient given the cluster's slots: go-redis v7
// fails to read them from a Redis 7 server (row goRedis7Connect).
func goRedis7Cluster(e *Env) *redis.ClusterClient {
	return redis.NewClusterClient(&redis.ClusterOptions{ClusterSlots: goRedis7Slots(e)})
}

func goRedis7Slots(e *Env) func() ([]redis.ClusterSlot, error) {
	return func() ([]redis.ClusterSlot, error) {
		var slots []redis.ClusterSlot
		for _, s := range e.Slots {
			slots = append(slots, redis.ClusterSlot{Start: s.Start, End: s.End, Nodes: []redis.ClusterNode{{Addr: s.Addr}}})
		}
		return slots, nil
	}
}

func goRedis7Connect(ctx context.Context, e *Env) Result {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: e.Addrs})
	defer c.Close()
	return done(c.Get("{price}:1").Err())
}

func goRedis7AloneOne(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	return anys(c.MGet("{price}:1", "{price}:2").Result())
}

func goRedis7AloneCross(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	return anys(c.MGet("price:1", "price:2").Result())
}

func goRedis7PipelineCross(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	pipe := c.Pipeline()
	mget := pipe.MGet("price:1", "price:2")
	_, err := pipe.Exec()
	if err != nil {
		return done(err)
	}
	return anys(mget.Result())
}

func goRedis7PipelineSpread(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	var a, b *redis.StringCmd
	_, err := c.Pipelined(func(pipe redis.Pipeliner) error {
		a = pipe.Get("price:1")
		b = pipe.Get("price:2")
		return nil
	})
	if err != nil {
		return done(err)
	}
	return values(nil, a.Val(), b.Val())
}

func goRedis7MultiOne(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	_, err := c.TxPipelined(func(pipe redis.Pipeliner) error {
		pipe.Set("{order}:1", "1", 0)
		pipe.Set("{order}:2", "2", 0)
		return nil
	})
	return done(err)
}

func goRedis7MultiCross(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	_, err := c.TxPipelined(func(pipe redis.Pipeliner) error {
		pipe.Set("order:1", "1", 0)
		pipe.Set("order:2", "2", 0)
		return nil
	})
	return done(err)
}

func goRedis7WatchOne(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	return done(c.Watch(func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(func(pipe redis.Pipeliner) error {
			pipe.Set("{stock}:1", "1", 0)
			pipe.Set("{stock}:2", "2", 0)
			return nil
		})
		return err
	}, "{stock}:1", "{stock}:2"))
}

func goRedis7WatchCross(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	return done(c.Watch(func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(func(pipe redis.Pipeliner) error {
			pipe.Set("stock:1", "1", 0)
			pipe.Set("stock:2", "2", 0)
			return nil
		})
		return err
	}, "stock:1", "stock:2"))
}

var goRedis7ReadBoth = redis.NewScript(ReadBoth)

func goRedis7ScriptOne(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	return list(goRedis7ReadBoth.Run(c, []string{"{price}:1", "{price}:2"}).Result())
}

func goRedis7ScriptCross(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	return list(goRedis7ReadBoth.Run(c, []string{"price:1", "price:2"}).Result())
}

func goRedis7Keys(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	keys, err := c.Keys("scan:*").Result()
	return count(len(keys), err)
}

func goRedis7Scan(ctx context.Context, e *Env) Result {
	c := goRedis7Cluster(e)
	defer c.Close()
	n := 0
	iter := c.Scan(0, "scan:*", 100).Iterator()
	for iter.Next() {
		n++
	}
	return count(n, iter.Err())
}

func goRedis7DB(ctx context.Context, e *Env) Result {
	// The options a UniversalClient of several addresses turns into.
	opt := (&redis.UniversalOptions{Addrs: e.Addrs, DB: 3}).Cluster()
	opt.ClusterSlots = goRedis7Slots(e)
	c := redis.NewClusterClient(opt)
	defer c.Close()
	return done(c.Set("db:probe", "x", 0).Err())
}
