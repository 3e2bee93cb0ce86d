package matrix

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// GoRedis9Resolver is go-redis v9's ClusterClient with the command policy
// resolver that reads Redis's own command tips
// (SetCommandInfoResolver(NewDynamicResolver())), which go-redis's default
// resolver does not: the default one knows only RediSearch's FT.*
// commands. go-redis's oldest v9 releases have no resolver, so these rows
// are not in goredis9old.
var GoRedis9Resolver = Client{Name: "go-redis", Module: "github.com/redis/go-redis/v9", Cluster: true, Rows: []Row{
	{ResolverAlone, goRedis9ResolverAlone},
	{ResolverDel, goRedis9ResolverDel},
	{ResolverKeys, goRedis9ResolverKeys},
}}

func goRedis9Dynamic(e *Env) *redis.ClusterClient {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: e.Addrs})
	c.SetCommandInfoResolver(c.NewDynamicResolver())
	return c
}

func goRedis9ResolverAlone(ctx context.Context, e *Env) Result {
	c := goRedis9Dynamic(e)
	defer c.Close()
	return anys(c.MGet(ctx, "price:1", "price:2").Result())
}

func goRedis9ResolverDel(ctx context.Context, e *Env) Result {
	c := goRedis9Dynamic(e)
	defer c.Close()
	return done(c.Del(ctx, "price:1", "price:2").Err())
}

func goRedis9ResolverKeys(ctx context.Context, e *Env) Result {
	c := goRedis9Dynamic(e)
	defer c.Close()
	keys, err := c.Keys(ctx, "scan:*").Result()
	return count(len(keys), err)
}
