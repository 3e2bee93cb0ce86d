package partkeys

import (
	"context"
	"sort"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: daqiancode/scache (cache.go, CacheBase.MakeCacheKey and
// UniqueStrings; redis_cache.go, RedisCache.ClearCache): a record cache
// whose key is the table's prefix followed by each field of an index and
// its value, added in a loop over the index's fields; clearing records
// deletes the keys of all their ids, made unique, in one DEL.
type Index map[string]string

type RecordCache struct {
	rdb    *redis.Client
	prefix string
	table  string
}

func (s *RecordCache) cacheKey(index Index) string {
	r := s.prefix + "/" + s.table
	fields := make([]string, 0, len(index))
	for f := range index {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		r += "/" + strings.ToLower(f) + "/" + index[f]
	}
	return r
}

func uniqueStrings(strs []string) []string {
	m := make(map[string]bool)
	for _, v := range strs {
		m[v] = true
	}
	r := make([]string, len(m))
	i := 0
	for k := range m {
		r[i] = k
		i++
	}
	return r
}

func (s *RecordCache) Clear(ctx context.Context, ids ...string) error {
	var keys []string
	for _, id := range ids {
		keys = append(keys, s.cacheKey(Index{"id": id}))
	}
	return s.rdb.Del(ctx, uniqueStrings(keys)...).Err() // want `DEL keys built as "<s.prefix>/<s.table><r \+= ...>" from different values may hash to different slots`
}

// Fixed: one record's keys, its id and its indexes, under the record's
// hashtag, deleted together.
func (s *RecordCache) cacheKeyOf(id string, index Index) string {
	r := s.prefix + "/" + s.table + "/{" + id + "}"
	for f, v := range index {
		r += "/" + strings.ToLower(f) + "/" + v
	}
	return r
}

func (s *RecordCache) ClearOne(ctx context.Context, id string, indexes []Index) error {
	keys := []string{s.cacheKeyOf(id, nil)}
	for _, idx := range indexes {
		keys = append(keys, s.cacheKeyOf(id, idx))
	}
	return s.rdb.Del(ctx, uniqueStrings(keys)...).Err()
}
