package matrix

import (
	"context"

	"github.com/slotlint/slotlint/internal/matrix/resolver"
)

// GoRedis9Resolver is go-redis v9's ClusterClient with the resolver that
// reads Redis's command tips: the rows of package resolver.
var GoRedis9Resolver = Client{Name: "go-redis", Module: "github.com/redis/go-redis/v9", Cluster: true, Rows: []Row{
	{ResolverAlone, func(ctx context.Context, e *Env) Result { return anys(resolver.Alone(ctx, e.Addrs)) }},
	{ResolverDel, func(ctx context.Context, e *Env) Result { return count64(resolver.Del(ctx, e.Addrs)) }},
	{ResolverExists, func(ctx context.Context, e *Env) Result { return count64(resolver.Exists(ctx, e.Addrs)) }},
	{ResolverMSet, func(ctx context.Context, e *Env) Result { return done(resolver.MSet(ctx, e.Addrs)) }},
	{ResolverKeys, func(ctx context.Context, e *Env) Result { return count(resolver.Keys(ctx, e.Addrs)) }},
}}

// rowFunc names the function that holds a row's code, for the rows whose
// Run only calls it.
var rowFunc = map[Shape]string{ResolverAlone: "resolver.Alone", ResolverDel: "resolver.Del", ResolverExists: "resolver.Exists", ResolverMSet: "resolver.MSet", ResolverKeys: "resolver.Keys"}

// count64 is the Result of a command that counts keys.
func count64(n int64, err error) Result { return count(int(n), err) }
