package clustercheck_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/ruleset"
)

func wantFault(t *testing.T, err error, kind, head string) {
	t.Helper()
	var e *clustercheck.CrossSlotError
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want a *CrossSlotError of kind %s", err, err, kind)
	}
	if e.Kind != kind || !strings.HasPrefix(e.Error(), head) {
		t.Errorf("%s fault %q, want kind %s and a message starting %q", e.Kind, e, kind, head)
	}
}

// With ClusterReadiness the hook reports, on a standalone server, the
// mistakes that the ground-truth tests show on a cluster: keyspace-wide
// commands, also inside a script, and databases other than 0.
func TestHookClusterReadiness(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	c, h := hooked(t, s, 3, clustercheck.ClusterReadiness())
	if err := c.Set(ctx, "{o}:1", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}

	wantFault(t, c.Keys(ctx, "session:*").Err(), clustercheck.KindKeyspaceWide, "ERR KEYS reaches one node of a cluster (slotlint: KEYS: a cluster client sends KEYS to one node")
	iter := c.Scan(ctx, 0, "session:*", 0).Iterator()
	iter.Next(ctx)
	wantFault(t, iter.Err(), clustercheck.KindKeyspaceWide, "ERR SCAN reaches one node of a cluster")
	wantFault(t, c.RandomKey(ctx).Err(), clustercheck.KindKeyspaceWide, "ERR RANDOMKEY reaches one node of a cluster")
	wantFault(t, c.Copy(ctx, "{o}:1", "{o}:2", 2, false).Err(), clustercheck.KindDatabase, "ERR Copying to another database is not allowed in cluster mode (slotlint: COPY: database 2")
	wantFault(t, c.Move(ctx, "{o}:1", 2).Err(), clustercheck.KindDatabase, "ERR MOVE is not allowed in cluster mode")
	wantFault(t, c.Do(ctx, "SELECT", 1).Err(), clustercheck.KindDatabase, "ERR SELECT is not allowed in cluster mode")
	wantFault(t, c.Do(ctx, "SWAPDB", 0, 1).Err(), clustercheck.KindDatabase, "ERR SWAPDB is not allowed in cluster mode")
	// A script that lists keys with KEYS.
	err := c.Eval(ctx, "return redis.call('KEYS', ARGV[1])", nil, "session:*").Err()
	wantFault(t, err, clustercheck.KindScript, "CROSSSLOT")
	if !strings.Contains(err.Error(), `redis.call("KEYS", ARGV[1]) reads the keys of one node`) {
		t.Errorf("script fault %q does not name KEYS", err)
	}
	// Pipelined, the faulty command fails and the others are sent.
	cmds, _ := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Get(ctx, "{o}:1")
		p.Keys(ctx, "*")
		return nil
	})
	if cmds[0].Err() != nil {
		t.Errorf("GET in the pipeline: %v", cmds[0].Err())
	}
	wantFault(t, cmds[1].Err(), clustercheck.KindKeyspaceWide, "ERR KEYS reaches one node")

	// The fixed forms pass: database 0, one key's SCAN.
	for _, err := range []error{
		c.Copy(ctx, "{o}:1", "{o}:2", 0, true).Err(),
		c.Do(ctx, "SELECT", 0).Err(),
		c.HScan(ctx, "{o}:h", 0, "*", 0).Err(),
	} {
		if err != nil {
			t.Errorf("fixed form refused: %v", err)
		}
	}
	kinds := map[string]int{}
	for _, f := range h.Findings() {
		kinds[f.Kind]++
	}
	if kinds[clustercheck.KindKeyspaceWide] != 3 || kinds[clustercheck.KindDatabase] != 4 || kinds[clustercheck.KindScript] != 1 {
		t.Errorf("findings by kind %v", kinds)
	}

	// A client whose options select database 3, as UniversalOptions{DB: 3}
	// does on one server: go-redis sends SELECT 3 when it connects.
	o := s.Options()
	o.DB = 3
	db3 := redis.NewClient(o)
	t.Cleanup(func() { db3.Close() })
	db3.AddHook(clustercheck.NewHook(clustercheck.ClusterReadiness()))
	wantFault(t, db3.Get(ctx, "{o}:1").Err(), clustercheck.KindDatabase, "ERR SELECT is not allowed in cluster mode (slotlint: SELECT: database 3")

	// Without the option, the hook lets them through.
	plain, _ := hooked(t, s, 3)
	if err := plain.Keys(ctx, "*").Err(); err != nil {
		t.Errorf("KEYS without ClusterReadiness: %v", err)
	}
}

// Under target: valkey-9 the database faults are not reported: Valkey 9's
// cluster has other databases.
func TestHookClusterReadinessValkey(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	rules, err := slotlint.ParseRules("valkey.yaml", []byte("version: 1\ntarget: valkey-9\n"))
	if err != nil {
		t.Fatal(err)
	}
	if rules.Target != ruleset.TargetValkey9 {
		t.Fatalf("target %q", rules.Target)
	}
	c, _ := hooked(t, s, 3, clustercheck.ClusterReadiness(), clustercheck.WithRules(rules))
	if err := c.Move(ctx, "{o}:none", 2).Err(); err != nil {
		t.Errorf("MOVE under valkey-9: %v", err)
	}
	wantFault(t, c.Keys(ctx, "*").Err(), clustercheck.KindKeyspaceWide, "ERR KEYS reaches one node")
}
