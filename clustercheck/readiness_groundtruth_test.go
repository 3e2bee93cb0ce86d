package clustercheck_test

// The ground truth of the cluster-readiness rules: what a real Redis
// Cluster (redis-server, three masters, started by internal/redistest) and
// go-redis v9 do with the mistakes that the keyspace-wide and cluster-db
// checks, sharded pub/sub under cross-slot, script-flags' no-cluster and
// script-arity's value in KEYS report, and with their fixed forms. Each test names the rule it grounds.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/slot"
)

// groundCluster starts a cluster of the test's own, since FLUSHDB and the
// keyspace-wide commands see every key of a node: the shared cluster's keys
// would blur what they show.
func groundCluster(t *testing.T) (*redistest.Cluster, *redis.ClusterClient) {
	t.Helper()
	c := redistest.StartCluster(t)
	cc := c.Client(t)
	return c, cc
}

// spreadKeys writes n keys "gt:k:<i>" and returns them; they spread over
// the masters (the test fails when they all hash to one master's slots).
func spreadKeys(t *testing.T, ctx context.Context, c *redistest.Cluster, cc *redis.ClusterClient, n int) []string {
	t.Helper()
	var keys []string
	owners := map[string]bool{}
	for i := range n {
		k := fmt.Sprintf("gt:k:%d", i)
		if err := cc.Set(ctx, k, i, 0).Err(); err != nil {
			t.Fatal(err)
		}
		node, err := c.Owner(slot.Of(k))
		if err != nil {
			t.Fatal(err)
		}
		owners[node.Addr] = true
		keys = append(keys, k)
	}
	if len(owners) < 2 {
		t.Fatalf("the %d keys are all on one master", n)
	}
	return keys
}

// everyMaster returns the union of what fn returns on each master.
func everyMaster(t *testing.T, ctx context.Context, cc *redis.ClusterClient, fn func(*redis.Client) ([]string, error)) []string {
	t.Helper()
	var mu sync.Mutex
	var all []string
	err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		got, err := fn(node)
		mu.Lock()
		all = append(all, got...)
		mu.Unlock()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(all)
	return all
}

// keyspace-wide: KEYS, SCAN (and its iterator), RANDOMKEY and a raw DBSIZE
// on a ClusterClient answer for one node's keys, with no error; FLUSHDB
// empties one node. ForEachMaster, the fix the check names, sees them all.
func TestGroundTruthKeyspaceWideReadsOneNode(t *testing.T) {
	c, cc := groundCluster(t)
	ctx := testCtx(t)

	// RANDOMKEY goes to one node a call: with keys on one master only, it
	// answers nil (redis.Nil) whenever it reaches another, though the
	// cluster has keys.
	for i := range 5 {
		if err := cc.Set(ctx, fmt.Sprintf("{gt}:r:%d", i), i, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	var found, none int
	for range 60 {
		switch err := cc.RandomKey(ctx).Err(); err {
		case nil:
			found++
		case redis.Nil:
			none++
		default:
			t.Fatalf("RANDOMKEY: %v", err)
		}
	}
	if found == 0 || none == 0 {
		t.Fatalf("RANDOMKEY on the ClusterClient with keys on one master: %d keys, %d nil answers; the rule says each call reads one node", found, none)
	}
	t.Logf("RANDOMKEY on a ClusterClient with 5 keys on one master: %d of 60 calls answered nil, no error", none)
	if err := cc.Del(ctx, "{gt}:r:0", "{gt}:r:1", "{gt}:r:2", "{gt}:r:3", "{gt}:r:4").Err(); err != nil {
		t.Fatal(err)
	}

	keys := spreadKeys(t, ctx, c, cc, 30)
	slices.Sort(keys)

	got, err := cc.Keys(ctx, "gt:k:*").Result()
	if err != nil {
		t.Fatalf("KEYS: %v", err)
	}
	if len(got) == 0 || len(got) >= len(keys) {
		t.Fatalf("KEYS on the ClusterClient returned %d of %d keys; the rule says it returns one node's", len(got), len(keys))
	}
	t.Logf("KEYS gt:k:* on a ClusterClient: %d of %d keys, no error", len(got), len(keys))

	var scanned []string
	iter := cc.Scan(ctx, 0, "gt:k:*", 0).Iterator()
	for iter.Next(ctx) {
		scanned = append(scanned, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Fatalf("SCAN: %v", err)
	}
	if len(scanned) == 0 || len(scanned) >= len(keys) {
		t.Fatalf("Scan(...).Iterator() on the ClusterClient returned %d of %d keys", len(scanned), len(keys))
	}
	t.Logf("Scan(...).Iterator() on a ClusterClient: %d of %d keys, no error", len(scanned), len(keys))

	// DBSIZE is keyspace-wide in the command table, but go-redis's
	// ClusterClient defines DBSize itself, summing every master: the
	// generated rules leave it out (rules.yaml says so), and this shows why.
	n, err := cc.DBSize(ctx).Result()
	if err != nil {
		t.Fatalf("DBSIZE: %v", err)
	}
	if n != int64(len(keys)) {
		t.Fatalf("DBSize on the ClusterClient is %d with %d keys in the cluster; the rules leave it out as summed over every master", n, len(keys))
	}
	// Sent as a raw command, DBSIZE reaches one node.
	if n, err := cc.Do(ctx, "DBSIZE").Int64(); err != nil || n == 0 || n >= int64(len(keys)) {
		t.Fatalf("DBSIZE sent with Do on the ClusterClient: %d, %v; want one node's count", n, err)
	}

	// The fix: every master.
	all := everyMaster(t, ctx, cc, func(node *redis.Client) ([]string, error) { return node.Keys(ctx, "gt:k:*").Result() })
	if !slices.Equal(all, keys) {
		t.Fatalf("KEYS on every master returned %q, want %q", all, keys)
	}

	// FLUSHDB empties one node: keys remain on the others.
	if err := cc.FlushDB(ctx).Err(); err != nil {
		t.Fatalf("FLUSHDB: %v", err)
	}
	left := everyMaster(t, ctx, cc, func(node *redis.Client) ([]string, error) { return node.Keys(ctx, "gt:k:*").Result() })
	if len(left) == 0 || len(left) >= len(keys) {
		t.Fatalf("after FLUSHDB on the ClusterClient %d of %d keys are left; the rule says one node is emptied", len(left), len(keys))
	}
	t.Logf("FLUSHDB on a ClusterClient: %d of %d keys left, no error", len(left), len(keys))
}

// keyspace-wide in Lua: a script that calls KEYS or SCAN runs on one node
// and sees that node's keys only.
func TestGroundTruthScriptKeysSeesOneNode(t *testing.T) {
	c, cc := groundCluster(t)
	ctx := testCtx(t)
	keys := spreadKeys(t, ctx, c, cc, 30)

	got, err := cc.Eval(ctx, "return redis.call('KEYS', ARGV[1])", nil, "gt:k:*").StringSlice()
	if err != nil {
		t.Fatalf("EVAL of KEYS: %v", err)
	}
	if len(got) == 0 || len(got) >= len(keys) {
		t.Fatalf("KEYS inside a script returned %d of %d keys", len(got), len(keys))
	}
	scan := `local c, out = "0", {}
repeat
  local r = redis.call('SCAN', c, 'MATCH', ARGV[1])
  for _, k in ipairs(r[2]) do out[#out+1] = k end
  c = r[1]
until c == "0"
return out`
	got, err = cc.Eval(ctx, scan, nil, "gt:k:*").StringSlice()
	if err != nil {
		t.Fatalf("EVAL of SCAN: %v", err)
	}
	if len(got) == 0 || len(got) >= len(keys) {
		t.Fatalf("SCAN inside a script returned %d of %d keys", len(got), len(keys))
	}
	t.Logf("KEYS and SCAN inside a script on a cluster: one node's keys (%d of %d), no error", len(got), len(keys))
}

// cluster-db: a cluster refuses SELECT n (n ≠ 0), MOVE, SWAPDB and COPY to
// another database; SELECT 0 and COPY within database 0 work.
func TestGroundTruthDatabasesRefused(t *testing.T) {
	c := redistest.Shared(t)
	cc := c.Client(t)
	ctx := testCtx(t)
	node := redis.NewClient(&redis.Options{Addr: c.Addrs()[0], Password: c.Password, DisableIdentity: true})
	t.Cleanup(func() { node.Close() })

	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"SELECT 1", node.Do(ctx, "SELECT", 1).Err(), "ERR SELECT is not allowed in cluster mode"},
		{"SWAPDB 0 1", node.Do(ctx, "SWAPDB", 0, 1).Err(), "ERR SWAPDB is not allowed in cluster mode"},
		{"MOVE k 1", cc.Move(ctx, "{gt}:db:a", 1).Err(), "ERR MOVE is not allowed in cluster mode"},
		{"COPY a b DB 1", cc.Copy(ctx, "{gt}:db:a", "{gt}:db:b", 1, false).Err(), "ERR Copying to another database is not allowed in cluster mode"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("%s on a cluster: %v, want %q", tc.name, tc.err, tc.want)
		}
	}
	if err := node.Do(ctx, "SELECT", 0).Err(); err != nil {
		t.Errorf("SELECT 0 on a cluster: %v", err)
	}
	if err := cc.Set(ctx, "{gt}:db:a", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := cc.Copy(ctx, "{gt}:db:a", "{gt}:db:b", 0, true).Err(); err != nil {
		t.Errorf("COPY within db 0 on a cluster: %v", err)
	}
}

// cluster-db: NewUniversalClient with several addresses and DB 3, or with
// IsClusterMode, builds a ClusterClient, which drops DB: a write lands in
// database 0, with no error. ParseClusterURL drops the database of its URL's path the same way.
func TestGroundTruthClusterClientDropsDB(t *testing.T) {
	c := redistest.Shared(t)
	cc := c.Client(t)
	ctx := testCtx(t)
	opt := c.ClusterOptions()

	u := redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs:                    c.Addrs(),
		Password:                 opt.Password,
		DB:                       3,
		DisableIdentity:          true,
		MaintNotificationsConfig: opt.MaintNotificationsConfig,
	})
	t.Cleanup(func() { u.Close() })
	if _, ok := u.(*redis.ClusterClient); !ok {
		t.Fatalf("NewUniversalClient with %d addresses made a %T, want a *redis.ClusterClient", len(c.Addrs()), u)
	}
	if err := u.Set(ctx, "gt:universal:db", "written with DB 3", 0).Err(); err != nil {
		t.Fatalf("SET through UniversalOptions{DB: 3}: %v", err)
	}
	// A ClusterClient of database 0 reads it: the write went to db 0.
	if v, err := cc.Get(ctx, "gt:universal:db").Result(); err != nil || v != "written with DB 3" {
		t.Fatalf("GET in db 0: %q, %v; want the value written with DB 3", v, err)
	}

	// IsClusterMode makes a ClusterClient of one address too (rules.yaml's
	// options: cluster), which drops DB the same way.
	one := redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs:                    c.Addrs()[:1],
		IsClusterMode:            true,
		Password:                 opt.Password,
		DB:                       4,
		DisableIdentity:          true,
		MaintNotificationsConfig: opt.MaintNotificationsConfig,
	})
	t.Cleanup(func() { one.Close() })
	if _, ok := one.(*redis.ClusterClient); !ok {
		t.Fatalf("NewUniversalClient with IsClusterMode and one address made a %T, want a *redis.ClusterClient", one)
	}
	if err := one.Set(ctx, "gt:clustermode:db", "written with DB 4", 0).Err(); err != nil {
		t.Fatalf("SET through UniversalOptions{IsClusterMode: true, DB: 4}: %v", err)
	}
	if v, err := cc.Get(ctx, "gt:clustermode:db").Result(); err != nil || v != "written with DB 4" {
		t.Fatalf("GET in db 0: %q, %v; want the value written with DB 4", v, err)
	}

	parsed, err := redis.ParseClusterURL(fmt.Sprintf("redis://:%s@%s/2", c.Password, c.Addrs()[0]))
	if err != nil {
		t.Fatalf("ParseClusterURL with a database in the path: %v", err)
	}
	parsed.DisableIdentity = true
	parsed.MaintNotificationsConfig = opt.MaintNotificationsConfig
	pc := redis.NewClusterClient(parsed)
	t.Cleanup(func() { pc.Close() })
	if err := pc.Set(ctx, "gt:url:db", "written with /2", 0).Err(); err != nil {
		t.Fatalf("SET through ParseClusterURL(.../2): %v", err)
	}
	if v, err := cc.Get(ctx, "gt:url:db").Result(); err != nil || v != "written with /2" {
		t.Fatalf("GET in db 0: %q, %v; want the value written through the URL of db 2", v, err)
	}
}

// cross-slot for sharded pub/sub: SSUBSCRIBE of channels in different
// slots is refused with CROSSSLOT; channels that share a hashtag, or one
// SSUBSCRIBE a slot, are subscribed.
func TestGroundTruthShardedPubSubAcrossSlots(t *testing.T) {
	c := redistest.Shared(t)
	cc := c.Client(t)
	ctx := testCtx(t)
	if slot.Of("orders:us") == slot.Of("orders:asia") {
		t.Fatal("the channels share a slot")
	}
	node, err := c.Owner(slot.Of("orders:us"))
	if err != nil {
		t.Fatal(err)
	}
	one := redis.NewClient(&redis.Options{Addr: node.Addr, Password: c.Password, DisableIdentity: true})
	t.Cleanup(func() { one.Close() })
	bad := one.SSubscribe(ctx, "orders:us", "orders:asia")
	t.Cleanup(func() { bad.Close() })
	if _, err := bad.Receive(ctx); err == nil || !strings.HasPrefix(err.Error(), "CROSSSLOT Keys in request don't hash to the same slot") {
		t.Fatalf("SSUBSCRIBE of two slots: %v, want CROSSSLOT", err)
	}

	good := cc.SSubscribe(ctx, "{orders}:us", "{orders}:asia")
	t.Cleanup(func() { good.Close() })
	for range 2 {
		msg, err := good.Receive(ctx)
		if err != nil {
			t.Fatalf("SSUBSCRIBE of one hashtag: %v", err)
		}
		if s, ok := msg.(*redis.Subscription); !ok || s.Kind != "ssubscribe" {
			t.Fatalf("SSUBSCRIBE of one hashtag answered %v", msg)
		}
	}
}

// script-flags (no-cluster): a cluster refuses a script whose shebang
// has flags=no-cluster, and a function registered with it.
func TestGroundTruthNoClusterFlagRefused(t *testing.T) {
	c := redistest.Shared(t)
	cc := c.Client(t)
	ctx := testCtx(t)
	const want = "ERR Can not run script on cluster, 'no-cluster' flag is set."
	err := cc.Eval(ctx, "#!lua flags=no-cluster\nreturn redis.call('GET', KEYS[1])", []string{"{gt}:nc"}).Err()
	if err == nil || err.Error() != want {
		t.Errorf("EVAL with flags=no-cluster on a cluster: %v, want %q", err, want)
	}
	lib := "#!lua name=gtnocluster\nredis.register_function{function_name='gt_local_only', callback=function(keys) return redis.call('GET', keys[1]) end, flags={'no-cluster'}}"
	// FUNCTION LOAD on a ClusterClient reaches one node: load it on each.
	if err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		return node.FunctionLoadReplace(ctx, lib).Err()
	}); err != nil {
		t.Fatalf("FUNCTION LOAD: %v", err)
	}
	err = cc.FCall(ctx, "gt_local_only", []string{"{gt}:nc"}).Err()
	if err == nil || err.Error() != want {
		t.Errorf("FCALL of a no-cluster function on a cluster: %v, want %q", err, want)
	}
	// The same script without the flag runs.
	if err := cc.Eval(ctx, "#!lua\nreturn redis.call('GET', KEYS[1])", []string{"{gt}:nc"}).Err(); err != nil && err != redis.Nil {
		t.Errorf("EVAL without no-cluster: %v", err)
	}
}

// script-arity (a value in KEYS): a script that reads a value from KEYS
// (eTask's timer passes the time as KEYS[3] and reads it as a score) fails
// with CROSSSLOT on a cluster whenever the value hashes to another slot
// than the keys, and luacheck reports it; with the value in ARGV the
// script runs, and luacheck is silent.
func TestGroundTruthValueInKeys(t *testing.T) {
	c := redistest.Shared(t)
	cc := c.Client(t)
	ctx := testCtx(t)
	const now = "1733300000"
	keys := []string{"{gt:timer}:delayed", "{gt:timer}:ready"}
	if slot.Of(now) == slot.Of(keys[0]) {
		t.Fatalf("the time %q hashes to the keys' slot: pick another", now)
	}
	if err := cc.ZAdd(ctx, keys[0], redis.Z{Score: 1, Member: "job"}).Err(); err != nil {
		t.Fatal(err)
	}
	const bad = `local members = redis.call('ZRANGEBYSCORE', KEYS[1], 0, KEYS[3])
for _, m in ipairs(members) do
	redis.call('ZREM', KEYS[1], m)
	redis.call('LPUSH', KEYS[2], m)
end
return #members`
	fixed := strings.Replace(bad, "KEYS[3]", "ARGV[1]", 1)
	err := cc.Eval(ctx, bad, append(slices.Clone(keys), now)).Err()
	if err == nil || !strings.HasPrefix(err.Error(), "CROSSSLOT") {
		t.Errorf("EVAL with the time in KEYS on a cluster: %v, want CROSSSLOT", err)
	}
	if n, err := cc.Eval(ctx, fixed, keys, now).Int(); err != nil || n != 1 {
		t.Errorf("EVAL with the time in ARGV: %d, %v; want 1 moved", n, err)
	}

	cmds := luacheck.CommandsFrom(slotlint.Builtin())
	check := func(src string, call luacheck.Call) []luacheck.Finding {
		s, err := luacheck.Parse("timer", src)
		if err != nil {
			t.Fatal(err)
		}
		return s.Check(cmds, call)
	}
	lits := func(ss ...string) []keyspace.Key {
		var out []keyspace.Key
		for _, s := range ss {
			out = append(out, keyspace.Lit(s))
		}
		return out
	}
	// KEYS[3] is no key: one finding, which says to move it to ARGV; the
	// keys' slots are judged without it, and the two keys share one.
	got := check(bad, luacheck.Call{Keys: lits(keys[0], keys[1], now), KnownKeyCount: true, Cluster: true})
	if len(got) != 1 || got[0].Category != luacheck.CategoryArity || !strings.Contains(got[0].Message, `KEYS[3] ("1733300000") is an argument of`) {
		t.Errorf("luacheck on the time in KEYS: %v, want script-arity on KEYS[3] alone", got)
	}
	if got := check(fixed, luacheck.Call{Keys: lits(keys...), KnownKeyCount: true, Args: lits(now), KnownArgCount: true, Cluster: true}); len(got) != 0 {
		t.Errorf("luacheck on the time in ARGV: %v, want none", got)
	}
}

// cross-slot (transactions): a MULTI/EXEC pipeline sends at each Exec what
// was queued since the previous one, and is used again after it, as
// slotlint cuts a transaction at each Exec (keyflow/exec.go). Two Execs of
// one TxPipeline, each over one key of another slot, both succeed on a
// cluster; one Exec of the same two keys fails.
func TestGroundTruthTxPipelineCutAtExec(t *testing.T) {
	c := redistest.Shared(t)
	cc := c.Client(t)
	ctx := testCtx(t)
	floor, value := "gt:bid-floor:1", "gt:bid-floor-value:1"
	if slot.Of(floor) == slot.Of(value) {
		t.Fatal("the keys share a slot")
	}
	p := cc.TxPipeline()
	p.Set(ctx, floor, "1", 0)
	if _, err := p.Exec(ctx); err != nil {
		t.Fatalf("first Exec: %v", err)
	}
	p.Set(ctx, value, "2", 0)
	if _, err := p.Exec(ctx); err != nil {
		t.Fatalf("second Exec, of a key of another slot than the first's: %v", err)
	}
	if got, _ := cc.Get(ctx, value).Result(); got != "2" {
		t.Fatalf("%s = %q after the second Exec, want \"2\"", value, got)
	}
	p.Set(ctx, floor, "3", 0)
	p.Set(ctx, value, "4", 0)
	if _, err := p.Exec(ctx); err == nil {
		t.Fatal("one Exec of keys of two slots succeeded, want an error")
	} else {
		t.Logf("one Exec of two slots: %v", err)
	}
}
