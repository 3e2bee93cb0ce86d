package paramkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: leor-w/kid v1.20.1 (database/redis/cmd.go): an exported client
// whose methods pass their arguments on to go-redis's, among them
// ZRangeStore of the destination and the source in the caller's
// ZRangeArgs: two keys of the caller's, nothing keeping them in one
// slot. The same of GeoRadiusStore and GeoRadiusByMemberStore: their
// STORE key is one of two fields of the caller's query, Store or
// StoreDist, and go-redis refuses a call that sets neither; GeoRadius,
// which sends no STORE, takes one key.
type KidClient struct {
	Client redis.UniversalClient
}

func (cli *KidClient) ZRangeStore(ctx context.Context, dst string, z redis.ZRangeArgs) *redis.IntCmd {
	return cli.Client.ZRangeStore(ctx, dst, z) // want `ZRANGESTORE of the callers' keys "<dst>" and "<z.Key>"`
}

func (cli *KidClient) GeoRadiusStore(ctx context.Context, key string, longitude, latitude float64, query *redis.GeoRadiusQuery) *redis.IntCmd {
	return cli.Client.GeoRadiusStore(ctx, key, longitude, latitude, query) // want `GEORADIUS of the callers' keys "<key>" and "<query.Store/StoreDist>"`
}

func (cli *KidClient) GeoRadiusByMemberStore(ctx context.Context, key, member string, query *redis.GeoRadiusQuery) *redis.IntCmd {
	return cli.Client.GeoRadiusByMemberStore(ctx, key, member, query) // want `GEORADIUSBYMEMBER of the callers' keys "<key>" and "<query.Store/StoreDist>"`
}

func (cli *KidClient) GeoRadius(ctx context.Context, key string, longitude, latitude float64, query *redis.GeoRadiusQuery) *redis.GeoLocationCmd {
	return cli.Client.GeoRadius(ctx, key, longitude, latitude, query)
}

// Fixed: both keys under the caller's tag.
func (cli *KidClient) ZRangeStoreTagged(ctx context.Context, tag, dst, src string, start, stop int64) *redis.IntCmd {
	return cli.Client.ZRangeStore(ctx, "{"+tag+"}:"+dst, redis.ZRangeArgs{Key: "{" + tag + "}:" + src, Start: start, Stop: stop})
}

func (cli *KidClient) GeoRadiusStoreTagged(ctx context.Context, tag, key, store string, longitude, latitude float64, radius float64) *redis.IntCmd {
	return cli.Client.GeoRadiusStore(ctx, "{"+tag+"}:"+key, longitude, latitude, &redis.GeoRadiusQuery{Radius: radius, Store: "{" + tag + "}:" + store})
}
