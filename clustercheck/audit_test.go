package clustercheck_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

const auditRules = `version: 1
families:
  job: "emq:{<queue>}:job:<id>"
  pending: "emq:{<queue>}:pending"
  user: "user:<id>"
`

func testRules(t testing.TB) *ruleset.Rules {
	r, err := ruleset.ParseRules("rules.yaml", []byte(auditRules))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// loadKeys writes keys with pipelined SETs through a cluster client.
func loadKeys(t testing.TB, ctx context.Context, c *redis.ClusterClient, keys []string) {
	t.Helper()
	for i := 0; i < len(keys); i += 500 {
		_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, k := range keys[i:min(i+500, len(keys))] {
				p.Set(ctx, k, "v", 0)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// auditKeys returns keys of the test families and some that fit none.
func auditKeys(jobs int) (keys []string, want map[string]int64) {
	want = map[string]int64{}
	for i := range jobs {
		keys = append(keys, fmt.Sprintf("emq:{q%d}:job:%d", i%50, i))
		want["job"]++
	}
	for i := range 50 {
		keys = append(keys, fmt.Sprintf("emq:{q%d}:pending", i))
		want["pending"]++
	}
	for i := range 200 {
		keys = append(keys, fmt.Sprintf("user:%d", i))
		want["user"]++
	}
	for _, k := range []string{"stray", "x{}y", "{}", "open{brace", "a{b"} {
		keys = append(keys, k)
		want["unmatched"]++
	}
	return keys, want
}

func TestAudit(t *testing.T) {
	cl := redistest.Shared(t)
	ctx := testCtx(t)
	c := cl.Client(t)
	if err := cl.FlushAll(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.FlushAll() })
	keys, want := auditKeys(2000)
	loadKeys(t, ctx, c, keys)

	var calls int
	r, err := clustercheck.Audit(ctx, c, clustercheck.AuditOptions{
		Rules: testRules(t), Count: 100,
		Progress: func(p clustercheck.AuditProgress) {
			calls++
			if p.Total != int64(len(keys)) || p.Nodes != 3 {
				t.Errorf("progress %+v", p)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Keys != int64(len(keys)) || calls == 0 {
		t.Fatalf("counted %d keys of %d (%d progress calls)", r.Keys, len(keys), calls)
	}
	for _, f := range r.Families {
		if f.Keys != want[f.Name] {
			t.Errorf("family %s: %d keys, want %d", f.Name, f.Keys, want[f.Name])
		}
	}
	if r.Unmatched.Keys != want["unmatched"] || r.EmptyTag.Keys != 2 || r.UnclosedTag.Keys != 2 || r.Orphans.Keys != 0 {
		t.Errorf("unmatched %+v, empty %+v, unclosed %+v, orphans %+v", r.Unmatched, r.EmptyTag, r.UnclosedTag, r.Orphans)
	}
	if !strings.Contains(strings.Join(r.EmptyTag.Examples, " "), "x{}y") || !strings.Contains(strings.Join(r.UnclosedTag.Examples, " "), "open{brace") {
		t.Errorf("examples: %q %q", r.EmptyTag.Examples, r.UnclosedTag.Examples)
	}
	// Per slot and per node, against the server.
	perSlot := make([]int64, slot.Count)
	for _, k := range keys {
		perSlot[slot.Of(k)]++
	}
	perNode := map[string]int64{}
	for s, n := range perSlot {
		if r.SlotKeys[s] != n {
			t.Fatalf("slot %d: %d keys, want %d", s, r.SlotKeys[s], n)
		}
		if n > 0 {
			o, _ := cl.Owner(s)
			perNode[o.Addr] += n
		}
	}
	if len(r.Nodes) != 3 {
		t.Fatalf("nodes %+v", r.Nodes)
	}
	for i, n := range r.Nodes {
		if n.Addr != cl.Nodes[i].Addr || n.ID != cl.Nodes[i].ID || n.Keys != perNode[n.Addr] || n.Slots == 0 {
			t.Errorf("node %d: %+v, want %s with %d keys", i, n, cl.Nodes[i].Addr, perNode[n.Addr])
		}
	}
	if hot := r.HotSlots(1); len(hot) != 1 || hot[0].Keys != 41 { // 40 jobs and the pending list of each queue
		t.Errorf("hot slots %+v", hot)
	}

	// MATCH narrows the keys.
	r, err = clustercheck.Audit(ctx, c, clustercheck.AuditOptions{Match: "user:*", Rules: testRules(t)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Keys != 200 || r.Unmatched.Keys != 0 {
		t.Errorf("MATCH user:*: %d keys, %d unmatched", r.Keys, r.Unmatched.Keys)
	}
}

// TestAuditMigration moves slots between masters while the audit scans and
// checks that every key is counted once.
func TestAuditMigration(t *testing.T) {
	cl := redistest.StartCluster(t)
	ctx := testCtx(t)
	c := cl.Client(t)
	keys, _ := auditKeys(3000)
	loadKeys(t, ctx, c, keys)
	// Slots with keys, one on each master: each moves to the next master.
	var moves []int
	for i := range cl.Nodes {
		for _, k := range keys {
			s := slot.Of(k)
			if o, _ := cl.Owner(s); o == cl.Nodes[i] {
				moves = append(moves, s)
				break
			}
		}
	}
	var once sync.Once
	var half *redistest.Migration
	var migErr error
	r, err := clustercheck.Audit(ctx, c, clustercheck.AuditOptions{
		Count: 20,
		Progress: func(p clustercheck.AuditProgress) {
			once.Do(func() {
				// Two slots move all the way, the third is left half
				// migrated until the audit ends.
				for i, s := range moves[:2] {
					if migErr = cl.MigrateSlot(s, cl.Nodes[(i+1)%3]); migErr != nil {
						return
					}
				}
				half, migErr = cl.BeginMigration(moves[2], cl.Nodes[0])
				if migErr != nil {
					return
				}
				var inSlot []string
				for _, k := range keys {
					if slot.Of(k) == moves[2] {
						inSlot = append(inSlot, k)
					}
				}
				migErr = half.MoveKeys(inSlot[:len(inSlot)/2]...)
			})
		},
	})
	if migErr != nil {
		t.Fatal(migErr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if half == nil {
		t.Fatal("the migration did not start")
	}
	if err := half.Finish(); err != nil {
		t.Fatal(err)
	}
	if r.Keys != int64(len(keys)) {
		t.Fatalf("counted %d keys of %d; recounted slots %v", r.Keys, len(keys), r.Recounted)
	}
	for _, s := range moves {
		found := false
		for _, x := range r.Recounted {
			found = found || x == s
		}
		if !found {
			t.Errorf("slot %d moved but was not recounted (%v)", s, r.Recounted)
		}
	}
	var sum int64
	for _, n := range r.Nodes {
		sum += n.Keys
	}
	if sum != r.Keys || r.Orphans.Keys != 0 {
		t.Errorf("nodes %+v, orphans %d", r.Nodes, r.Orphans.Keys)
	}
	t.Logf("moved slots %v; recounted %v", moves, r.Recounted)
	if r.SlotKeys[moves[2]] == 0 {
		t.Errorf("slot %d lost its keys", moves[2])
	}
}

// TestAuditAddressRewrite audits through a cluster client whose node
// addresses differ from those in CLUSTER NODES, as when go-redis rewrites a
// loopback address to the seed's host, or the cluster announces host
// names: the audit must know the nodes by node ID and count every key for
// its master.
func TestAuditAddressRewrite(t *testing.T) {
	cl := redistest.Shared(t)
	ctx := testCtx(t)
	if err := cl.FlushAll(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.FlushAll() })
	keys, _ := auditKeys(1000)
	loadKeys(t, ctx, cl.Client(t), keys)

	o := cl.ClusterOptions()
	seed := cl.Nodes[0].Client(t)
	o.ClusterSlots = func(ctx context.Context) ([]redis.ClusterSlot, error) {
		slots, err := seed.ClusterSlots(ctx).Result()
		for i := range slots {
			for j := range slots[i].Nodes {
				slots[i].Nodes[j].Addr = strings.Replace(slots[i].Nodes[j].Addr, "127.0.0.1:", "localhost:", 1)
			}
		}
		return slots, err
	}
	c := redis.NewClusterClient(o)
	t.Cleanup(func() { c.Close() })
	r, err := clustercheck.Audit(ctx, c, clustercheck.AuditOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Keys != int64(len(keys)) || r.Orphans.Keys != 0 || len(r.Nodes) != 3 {
		t.Fatalf("%d keys of %d, %d orphans, nodes %+v", r.Keys, len(keys), r.Orphans.Keys, r.Nodes)
	}
	for i, n := range r.Nodes {
		if n.ID != cl.Nodes[i].ID || n.Addr != cl.Nodes[i].Addr || n.Keys == 0 {
			t.Errorf("node %d: %+v", i, n)
		}
	}
}
