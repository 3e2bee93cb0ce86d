package matrix

import (
	"context"

	"github.com/go-redis/redis"
)

// GoRedis6 is go-redis v6's ClusterClient.
var GoRedis6 = Client{Name: "go-redis", Module: "github.com/go-redis/redis", Cluster: true, Rows: []Row{
	{Connect, goRedis6Connect},
	{AloneOne, goRedis6AloneOne},
	{AloneCross, goRedis6AloneCross},
	{PipelineCross, goRedis6PipelineCross},
	{PipelineSpread, goRedis6PipelineSpread},
	{MultiOne, goRedis6MultiOne},
	{MultiCross, goRedis6MultiCross},
	{WatchOne, goRedis6WatchOne},
	{WatchCross, goRedis6WatchCross},
	{ScriptOne, goRedis6ScriptOne},
	{ScriptCross, goRedis6ScriptCross},
	{Keys, goRedis6Keys},
	{Scan, goRedis6Scan},
	{DB, goRedis6DB},
}}

// goRedis6Cluster is a ClusterClient given the cluster's slots: go-redis v6
// fails to read them from a Redis 7 server (row goRedis6Connect).
func goRedis6Cluster(e *Env) *redis.ClusterClient {
	return redis.NewClusterClient(&redis.ClusterOptions{ClusterSlots: goRedis6Slots(e)})
}

func goRedis6Slots(e *Env) func() ([]redis.ClusterSlot, error) {
	return func() ([]redis.ClusterSlot, error) {
		var slots []redis.ClusterSlot
		for _, s := range e.Slots {
			slots = append(slots, redis.ClusterSlot{Start: s.Start, End: s.End, Nodes: []redis.ClusterNode{{Addr: s.Addr}}})
		}
		return slots, nil
	}
}

func goRedis6Connect(ctx context.Context, e *Env) Result {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: e.Addrs})
	defer c.Close()
	return done(c.Get("{price}:1").Err())
}

func goRedis6AloneOne(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	return anys(c.MGet("{price}:1", "{price}:2").Result())
}

func goRedis6AloneCross(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	return anys(c.MGet("price:1", "price:2").Result())
}

func goRedis6PipelineCross(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	pipe := c.Pipeline()
	mget := pipe.MGet("price:1", "price:2")
	_, err := pipe.Exec()
	if err != nil {
		return done(err)
	}
	return anys(mget.Result())
}

func goRedis6PipelineSpread(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
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

func goRedis6MultiOne(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	_, err := c.TxPipelined(func(pipe redis.Pipeliner) error {
		pipe.Set("{order}:1", "1", 0)
		pipe.Set("{order}:2", "2", 0)
		return nil
	})
	return done(err)
}

func goRedis6MultiCross(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	_, err := c.TxPipelined(func(pipe redis.Pipeliner) error {
		pipe.Set("order:1", "1", 0)
		pipe.Set("order:2", "2", 0)
		return nil
	})
	return done(err)
}

func goRedis6WatchOne(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
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

func goRedis6WatchCross(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
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

var goRedis6ReadBoth = redis.NewScript(ReadBoth)

func goRedis6ScriptOne(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	return list(goRedis6ReadBoth.Run(c, []string{"{price}:1", "{price}:2"}).Result())
}

func goRedis6ScriptCross(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	return list(goRedis6ReadBoth.Run(c, []string{"price:1", "price:2"}).Result())
}

func goRedis6Keys(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	keys, err := c.Keys("scan:*").Result()
	return count(len(keys), err)
}

func goRedis6Scan(ctx context.Context, e *Env) Result {
	c := goRedis6Cluster(e)
	defer c.Close()
	n := 0
	iter := c.Scan(0, "scan:*", 100).Iterator()
	for iter.Next() {
		n++
	}
	return count(n, iter.Err())
}

func goRedis6DB(ctx context.Context, e *Env) Result {
	// v6 turns the options into cluster options that it does not export,
	// so that the cluster's slots cannot be given: on Redis 7 this fails as
	// goRedis6Connect does.
	c := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: e.Addrs, DB: 3})
	defer c.Close()
	return done(c.Set("db:probe", "x", 0).Err())
}
