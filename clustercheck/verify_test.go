package clustercheck_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// parityKeys returns keys that exercise the hashtag rule: plain keys, tagged
// keys, empty and unclosed braces, and arbitrary bytes.
func parityKeys(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	keys := []string{"", "a", "b", "{", "}", "{}", "{}x", "x{}", "{a}", "x{a}y", "{a}{b}", "{{a}}", "a}{b}", "{}{a}", "user:{123}:cart", "\x00\xff{\x01}"}
	for len(keys) < n {
		b := make([]byte, r.IntN(24))
		for i := range b {
			switch r.IntN(8) {
			case 0:
				b[i] = '{'
			case 1:
				b[i] = '}'
			default:
				b[i] = byte(r.IntN(256))
			}
		}
		keys = append(keys, string(b))
	}
	return keys
}

func TestVerifyParity(t *testing.T) {
	c := redistest.Shared(t)
	ctx := testCtx(t)
	keys := parityKeys(3000)
	for name, client := range map[string]redis.UniversalClient{
		"cluster client": c.Client(t),
		"node client":    c.Nodes[1].Client(t),
	} {
		t.Run(name, func(t *testing.T) {
			res, err := clustercheck.Verify(ctx, client, keys)
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			if len(res.Keys) != len(keys) {
				t.Fatalf("got %d results for %d keys", len(res.Keys), len(keys))
			}
			for i, k := range res.Keys {
				if k.Key != keys[i] || k.Slot != slot.Of(keys[i]) || !k.OK() {
					t.Fatalf("key %d: %+v", i, k)
				}
				owner, err := c.Owner(k.ServerSlot)
				if err != nil {
					t.Fatal(err)
				}
				if k.Node != owner.Addr {
					t.Fatalf("key %q in slot %d: node %q, want %q", k.Key, k.ServerSlot, k.Node, owner.Addr)
				}
			}
		})
	}
}

func TestFetchTopology(t *testing.T) {
	c := redistest.Shared(t)
	topo, err := clustercheck.FetchTopology(testCtx(t), c.Client(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(topo.Shards) != len(c.Nodes) || topo.Unassigned() != 0 {
		t.Fatalf("topology: %+v", topo.Shards)
	}
	for i, n := range c.Nodes {
		if topo.Shards[i].Master.Addr != n.Addr || topo.Shards[i].Master.ID != n.ID {
			t.Errorf("shard %d: master %+v, want %s %s", i, topo.Shards[i].Master, n.Addr, n.ID)
		}
	}
	if m, ok := topo.Master(0); !ok || m.Addr != c.Nodes[0].Addr {
		t.Errorf("Master(0) = %+v, %v", m, ok)
	}
}

func TestVerifyStandalone(t *testing.T) {
	s := redistest.StartStandalone(t)
	_, err := clustercheck.Verify(testCtx(t), s.Client(t), []string{"a"})
	if !errors.Is(err, clustercheck.ErrNotCluster) {
		t.Fatalf("Verify on a standalone server: %v, want ErrNotCluster", err)
	}
	if !strings.Contains(err.Error(), "cluster support disabled") {
		t.Errorf("error %q does not carry the server's reply", err)
	}
}

// fakeTB records what the assertions report.
type fakeTB struct {
	errors, fatals []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}

func TestAssertSameSlot(t *testing.T) {
	var f fakeTB
	if !clustercheck.AssertSameSlot(&f, "{user:1}:cart", "{user:1}:profile", "x{user:1}") || len(f.errors) > 0 {
		t.Fatalf("same-slot keys reported: %q", f.errors)
	}
	if clustercheck.AssertSameSlot(&f, "a", "b") {
		t.Fatal("AssertSameSlot(a, b) passed")
	}
	want := `keys do not share a slot: "a" (slot 15495), "b" (slot 3300): keys "a" (slot 15495) and "b" (slot 3300) hash to different slots; give them a common hashtag such as "{a}"`
	if len(f.errors) != 1 || f.errors[0] != want {
		t.Fatalf("message:\n%q\nwant\n%q", f.errors, want)
	}
	f = fakeTB{}
	clustercheck.AssertSameSlot(&f, "user:1:cart", "user:1:profile")
	if len(f.errors) != 1 || !strings.Contains(f.errors[0], `"user:1:cart" (slot `) || !strings.Contains(f.errors[0], `common hashtag such as "{user:1}"`) {
		t.Fatalf("message: %q", f.errors)
	}
}

func TestAssertSameSlotLive(t *testing.T) {
	c := redistest.Shared(t)
	ctx := testCtx(t)
	client := c.Client(t)
	var f fakeTB
	if !clustercheck.AssertSameSlotLive(&f, ctx, client, "{o:7}:a", "{o:7}:b") || len(f.errors)+len(f.fatals) > 0 {
		t.Fatalf("same-slot keys reported: %q %q", f.errors, f.fatals)
	}
	if clustercheck.AssertSameSlotLive(&f, ctx, client, "a", "b") {
		t.Fatal("AssertSameSlotLive(a, b) passed")
	}
	if len(f.errors) != 1 || !strings.HasPrefix(f.errors[0], `keys do not share a slot by CLUSTER KEYSLOT: "a" (slot 15495), "b" (slot 3300): `) {
		t.Fatalf("message: %q", f.errors)
	}
	f = fakeTB{}
	s := redistest.StartStandalone(t)
	clustercheck.AssertSameSlotLive(&f, ctx, s.Client(t), "a")
	if len(f.fatals) != 1 || !strings.Contains(f.fatals[0], "not in cluster mode") {
		t.Fatalf("standalone: %q", f.fatals)
	}
}
