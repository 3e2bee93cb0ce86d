package paramkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: leor-w/kid v1.20.1 (database/redis/cmd.go): an exported client
// whose methods pass their arguments on to go-redis's, among them
// ZRangeStore of the destination and the source in the caller's
// ZRangeArgs: two keys of the caller's, nothing keeping them in one
// slot. GeoRadiusStore's STORE key is one of two fields of the caller's
// query, of which GeoRadius leaves both empty: it is not read (a gap).
type KidClient struct {
	Client redis.UniversalClient
}

func (cli *KidClient) ZRangeStore(ctx context.Context, dst string, z redis.ZRangeArgs) *redis.IntCmd {
	return cli.Client.ZRangeStore(ctx, dst, z) // want `ZRANGESTORE of the callers' keys "<dst>" and "<z.Key>"`
}

func (cli *KidClient) GeoRadiusStore(ctx context.Context, key string, longitude, latitude float64, query *redis.GeoRadiusQuery) *redis.IntCmd {
	return cli.Client.GeoRadiusStore(ctx, key, longitude, latitude, query)
}

// Fixed: both keys under the caller's tag.
func (cli *KidClient) ZRangeStoreTagged(ctx context.Context, tag, dst, src string, start, stop int64) *redis.IntCmd {
	return cli.Client.ZRangeStore(ctx, "{"+tag+"}:"+dst, redis.ZRangeArgs{Key: "{" + tag + "}:" + src, Start: start, Stop: stop})
}
