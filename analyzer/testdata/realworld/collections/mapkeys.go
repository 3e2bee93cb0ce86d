package collections

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: mgtv-tech/jetcache-go (cachegeneric.go, T.MGetWithErr and
// mGetRemote): the key of each id is gathered into a map, key to id, and
// the map's keys are ranged into the slice of keys to read. jetcache
// reads them with a plain pipeline of GETs, which is fine; the bad forms
// here read them with one MGET, as a cache that batches its reads would.
func mgetByIDs(ctx context.Context, rdb *redis.ClusterClient, ids []int64) {
	miss := make(map[string]int64, len(ids))
	for _, id := range ids {
		miss[fmt.Sprintf("user:%d", id)] = id
	}
	keys := make([]string, 0, len(miss))
	for k := range miss {
		keys = append(keys, k)
	}
	rdb.MGet(ctx, keys...) // want `MGET keys built as "user:<id>" from different values may hash to different slots`
}

// The values of the map, with a literal prefix.
func delByIDs(ctx context.Context, rdb *redis.ClusterClient, ids []string) {
	byID := map[string]string{}
	for _, id := range ids {
		byID[id] = "item:" + id
	}
	var keys []string
	for _, k := range byID {
		keys = append(keys, k)
	}
	rdb.Del(ctx, keys...) // want `DEL keys built as "item:<id>" from different values may hash to different slots`
}

// Fixed: every key holds the hashtag of its kind.
func mgetByIDsFixed(ctx context.Context, rdb *redis.ClusterClient, ids []int64) {
	miss := make(map[string]int64, len(ids))
	for _, id := range ids {
		miss[fmt.Sprintf("{user}:%d", id)] = id
	}
	keys := make([]string, 0, len(miss))
	for k := range miss {
		keys = append(keys, k)
	}
	rdb.MGet(ctx, keys...)
}

func delByIDsFixed(ctx context.Context, rdb *redis.ClusterClient, ids []string) {
	byID := map[string]string{}
	for _, id := range ids {
		byID[id] = "{item}:" + id
	}
	var keys []string
	for _, k := range byID {
		keys = append(keys, k)
	}
	rdb.Del(ctx, keys...)
}
