package fields

import (
	"context"
	"math/rand"

	"github.com/redis/go-redis/v9"
)

// Origin: kwertop/gostatix (hyperloglog_redis.go, HyperLogLogRedis.Merge
// and Equals; the same in its count-min sketch, cuckoo filter and top-k):
// each sketch keeps its registers under a key of its own, a random
// string made when it is made; merging or comparing two sketches runs a
// script over both keys, the field key of two objects: two keys of no
// common hashtag.
type HyperLogLog struct {
	rdb *redis.Client
	key string
}

func NewHyperLogLog(rdb *redis.Client) *HyperLogLog {
	return &HyperLogLog{rdb: rdb, key: randomKey(16)}
}

func randomKey(n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rand.Intn(len(letters))]
	}
	return string(b)
}

var mergeScript = redis.NewScript(`
local vals1 = redis.call('LRANGE', KEYS[1], 0, -1)
local vals2 = redis.call('LRANGE', KEYS[2], 0, -1)
for i = 1, #vals1 do
  vals1[i] = math.max(tonumber(vals1[i]), tonumber(vals2[i]))
end
redis.call('DEL', KEYS[1])
redis.call('RPUSH', KEYS[1], unpack(vals1))
return true
`)

// Merge merges g's registers into h's.
func (h *HyperLogLog) Merge(ctx context.Context, g *HyperLogLog) error {
	return h.mergeRegisters(ctx, g.key) // want `EVALSHA \(through mergeRegisters at siblings.go:\d+\) keys "<h.key>" \(hashtag unknown\) and "<g.key>" \(hashtag unknown\) may hash to different slots`
}

func (h *HyperLogLog) mergeRegisters(ctx context.Context, key string) error {
	return mergeScript.Run(ctx, h.rdb, []string{h.key, key}).Err()
}

// Fixed: the sketches' keys share the hashtag {hll}, so that any two can
// be merged.
type TaggedHyperLogLog struct {
	rdb *redis.Client
	key string
}

func NewTaggedHyperLogLog(rdb *redis.Client) *TaggedHyperLogLog {
	return &TaggedHyperLogLog{rdb: rdb, key: "{hll}:" + randomKey(16)}
}

func (h *TaggedHyperLogLog) Merge(ctx context.Context, g *TaggedHyperLogLog) error {
	return mergeScript.Run(ctx, h.rdb, []string{h.key, g.key}).Err()
}
