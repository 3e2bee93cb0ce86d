package slot_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// publishedVectors are slots from the Redis Cluster specification and
// slotlint's documentation.
var publishedVectors = []struct {
	key  string
	slot int
}{
	{"123456789", 12739},
	{"foo", 12182},
	{"bar", 5061},
	{"{user1000}.following", 3443},
	{"foo{}{bar}", 8363},
	{"foo{{bar}}zap", 4015},
	{"foo{bar}{zap}", 5061},
	{"", 0},
	{"emq:{orders}:pending", 105},
	{"tmp:user:123:cache", 4489},
	{"user:123:cache", 7641},
}

// parityKeys returns the keys that the parity test sends to the server:
// more than 200,000 of them, the same on every run.
func parityKeys() []string {
	r := rand.New(rand.NewPCG(1, 2))
	var keys []string
	for _, v := range publishedVectors {
		keys = append(keys, v.key)
	}
	randomBytes := func(n int, alphabet string) string {
		b := make([]byte, n)
		for i := range b {
			if alphabet == "" {
				b[i] = byte(r.IntN(256))
			} else {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		return string(b)
	}
	// Every placement of one '{' and one '}' (or neither) in short keys,
	// across the lengths where scanning strategies change.
	for n := range 41 {
		for open := -1; open < n; open++ {
			for close := -1; close < n; close++ {
				if close == open {
					continue
				}
				b := []byte(randomBytes(n, "abcxyz:0129"))
				if open >= 0 {
					b[open] = '{'
				}
				if close >= 0 {
					b[close] = '}'
				}
				keys = append(keys, string(b))
			}
		}
	}
	// Arbitrary bytes of random lengths.
	for range 140_000 {
		keys = append(keys, randomBytes(r.IntN(80), ""))
	}
	// Keys full of braces.
	for range 40_000 {
		keys = append(keys, randomBytes(r.IntN(48), "{{{}}}a\x00\xff"))
	}
	// Long keys, up to a few KiB, with braces near the end or none.
	for range 400 {
		n := 1024 + r.IntN(3*1024)
		b := []byte(randomBytes(n, "abcdefghijklmnopqrstuvwxyz:0123456789"))
		switch r.IntN(3) {
		case 0:
			i := n - 1 - r.IntN(64)
			b[i] = '{'
			if j := i + 1 + r.IntN(8); j < n {
				b[j] = '}'
			}
		case 1:
			b[r.IntN(n)] = '{'
		}
		keys = append(keys, string(b))
	}
	return keys
}

// keySlots asks the server for the slot of every key, pipelined.
func keySlots(t *testing.T, rdb *redis.Client, keys []string) []int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	slots := make([]int, 0, len(keys))
	const batch = 10_000
	for start := 0; start < len(keys); start += batch {
		cmds := make([]*redis.IntCmd, 0, batch)
		_, err := rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, k := range keys[start:min(start+batch, len(keys))] {
				cmds = append(cmds, p.ClusterKeySlot(ctx, k))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("CLUSTER KEYSLOT pipeline: %v", err)
		}
		for _, c := range cmds {
			slots = append(slots, int(c.Val()))
		}
	}
	return slots
}

func TestParityWithServer(t *testing.T) {
	c := redistest.Shared(t)
	rdb := c.Nodes[0].Client(t)

	keys := parityKeys()
	if len(keys) < 200_000 {
		t.Fatalf("only %d keys", len(keys))
	}
	slots := keySlots(t, rdb, keys)
	bad := 0
	for i, k := range keys {
		if got := slot.Of(k); got != slots[i] {
			t.Errorf("Of(%q) = %d, CLUSTER KEYSLOT says %d", trim(k), got, slots[i])
			bad++
		}
		if got := slot.OfBytes([]byte(k)); got != slots[i] {
			t.Errorf("OfBytes(%q) = %d, CLUSTER KEYSLOT says %d", trim(k), got, slots[i])
			bad++
		}
		if bad >= 10 {
			t.Fatal("too many differences")
		}
	}
	for i, v := range publishedVectors {
		if slots[i] != v.slot {
			t.Errorf("CLUSTER KEYSLOT %q = %d, published as %d", v.key, slots[i], v.slot)
		}
	}
}

func TestTagForWithServer(t *testing.T) {
	c := redistest.Shared(t)
	rdb := c.Nodes[0].Client(t)
	keys := make([]string, 0, 2*slot.Count)
	for s := range slot.Count {
		tag := slot.TagFor(s)
		keys = append(keys, "{"+tag+"}:anything", tag)
	}
	slots := keySlots(t, rdb, keys)
	for i, k := range keys {
		if want := i / 2; slots[i] != want {
			t.Fatalf("TagFor(%d) gives key %q, which the server puts in slot %d", want, k, slots[i])
		}
	}
}

func trim(k string) string {
	if len(k) > 80 {
		return k[:40] + "..." + k[len(k)-40:]
	}
	return k
}
