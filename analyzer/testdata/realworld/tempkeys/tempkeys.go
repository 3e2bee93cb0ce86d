// Package tempkeys is reduced from aak1247/logtap (internal/metrics/
// redis.go, RedisRecorder's pfCountUnion and distributionUsersForDay): the
// unique users of several HyperLogLog keys are counted by merging them into
// a temporary key named after the time, "dist_users:tmp:<nanos>". The
// keys merged come from a KEYS reply grouped in a map, which shows nothing
// of them; the temporary key has no hashtag and a value of its own, so no
// other key is in its slot, whatever they are.
package tempkeys

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

type Recorder struct {
	rdb *redis.Client
}

func (r *Recorder) userKeysForDay(ctx context.Context, dim, day string) (map[string][]string, error) {
	keys, err := r.rdb.Keys(ctx, fmt.Sprintf("dist_users:%s:%s:*", dim, day)).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(keys))
	prefix := fmt.Sprintf("dist_users:%s:%s:", dim, day)
	for _, key := range keys {
		value := strings.TrimPrefix(key, prefix)
		out[value] = append(out[value], key)
	}
	return out, nil
}

func (r *Recorder) UsersForDay(ctx context.Context, dim, day string) (map[string]int64, error) {
	byValue, err := r.userKeysForDay(ctx, dim, day)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(byValue))
	for value, keys := range byValue {
		n, err := r.pfCountUnion(ctx, keys)
		if err != nil {
			return nil, err
		}
		out[value] = n
	}
	return out, nil
}

func (r *Recorder) pfCountUnion(ctx context.Context, keys []string) (int64, error) {
	if len(keys) == 1 {
		return r.rdb.PFCount(ctx, keys[0]).Result()
	}
	tmpKey := fmt.Sprintf("dist_users:tmp:%d", time.Now().UnixNano())
	if err := r.rdb.PFMerge(ctx, tmpKey, keys...).Err(); err != nil { // want `PFMERGE keys "dist_users:tmp:<time.Now\(\).UnixNano\(\)>" \(no hashtag\) and "<keys...>" \(hashtag unknown\) may hash to different slots; no other key is in the slot of "dist_users:tmp:<time.Now\(\).UnixNano\(\)>", which has no hashtag and is named after a value of its own; give the other keys one hashtag and build it under that hashtag`
		return 0, err
	}
	n, err := r.rdb.PFCount(ctx, tmpKey).Result()
	r.rdb.Del(ctx, tmpKey)
	return n, err
}

// The fix: PFCOUNT of several keys counts their union itself, with no
// temporary key (the keys must still share a slot: a day's keys under the
// day's hashtag).
func (r *Recorder) pfCountUnionFixed(ctx context.Context, keys []string) (int64, error) {
	return r.rdb.PFCount(ctx, keys...).Result()
}

// A temporary key under the hashtag its sources share is in their slot.
func (r *Recorder) dayUnion(ctx context.Context, day string) (int64, error) {
	tmpKey := fmt.Sprintf("{day:%s}:tmp:%d", day, time.Now().UnixNano())
	if err := r.rdb.PFMerge(ctx, tmpKey, "{day:"+day+"}:web", "{day:"+day+"}:app").Err(); err != nil {
		return 0, err
	}
	return r.rdb.PFCount(ctx, tmpKey).Result()
}
