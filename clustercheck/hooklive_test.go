package clustercheck_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/redistest"
)

// TestHookReadOnlyScripts runs scripts with EVAL_RO and EVALSHA_RO
// (Script.RunRO, EvalRO, EvalShaRO) on a real server: a script that writes
// is failed by Redis 7 ("Write commands are not allowed from read-only
// scripts"), and refused by the hook before it is sent; a script whose
// shebang says no-writes runs.
func TestHookReadOnlyScripts(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	// Origin: a cache-aside read that also refreshes the key's TTL, made a
	// read-only script to be sent to replicas (bad: EXPIRE writes); the fix
	// reads only, with flags=no-writes.
	write := `local v = redis.call('GET', KEYS[1]); redis.call('EXPIRE', KEYS[1], ARGV[1]); return v`
	read := "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])"

	raw := s.Client(t)
	if err := raw.EvalRO(ctx, write, []string{"{c}:page"}, "60").Err(); err == nil || !strings.Contains(err.Error(), "Write commands are not allowed from read-only scripts") {
		t.Fatalf("the server ran a write with EVAL_RO: %v", err)
	}

	c, _ := hooked(t, s, 3)
	// RunRO sends EVALSHA_RO, which the hook answers with NOSCRIPT, then
	// EVAL_RO with the source.
	bad := redis.NewScript(write)
	wantCrossSlot(t, bad.RunRO(ctx, c, []string{"{c}:page"}, "60").Err(), clustercheck.KindScript, "EVAL_RO:", "runs with EVAL_RO")
	// Now the hook knows the source: EVALSHA_RO alone is checked.
	wantCrossSlot(t, bad.EvalShaRO(ctx, c, []string{"{c}:page"}, "60").Err(), clustercheck.KindScript, "EVALSHA_RO:", "runs with EVAL_RO")
	// The same script with EVAL is fine.
	if err := bad.Run(ctx, c, []string{"{c}:page"}, "60").Err(); err != nil && err != redis.Nil {
		t.Fatalf("EVAL of the script: %v", err)
	}
	if err := redis.NewScript(read).RunRO(ctx, c, []string{"{c}:page"}).Err(); err != nil && err != redis.Nil {
		t.Fatalf("read-only script: %v", err)
	}
	// A shebang with no-writes makes the write wrong with EVAL too.
	wantCrossSlot(t, c.Eval(ctx, "#!lua flags=no-writes\nreturn redis.call('DEL', KEYS[1])", []string{"{c}:page"}).Err(), clustercheck.KindScript, "flags=no-writes")
}

// TestHookNestedMulti: a MULTI queued in a TxPipelined. A real server
// answers it "MULTI calls can not be nested" and runs the rest of the
// transaction at EXEC; the hook refuses the transaction, unsent.
func TestHookNestedMulti(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	// Origin: redigo's transaction idiom, conn.Send("MULTI"), the writes,
	// conn.Do("EXEC") (redigo's package documentation; GANDUWARD/GoWeb-'s
	// redis5/redis5.go), ported into a TxPipelined that kept its MULTI
	// (bad); the fix leaves MULTI/EXEC to TxPipelined.
	nested := func(p redis.Pipeliner) error {
		p.Do(ctx, "MULTI")
		p.IncrBy(ctx, "{n}:count", 1)
		return nil
	}

	// What the server does, on one connection: it refuses the inner
	// MULTI and runs the rest at EXEC. (Through an unhooked TxPipelined,
	// go-redis then misreads the replies, and the call ends in a read
	// timeout.)
	raw := s.Client(t)
	conn := raw.Conn()
	defer conn.Close()
	if err := conn.Do(ctx, "MULTI").Err(); err != nil {
		t.Fatal(err)
	}
	if err := conn.Do(ctx, "MULTI").Err(); err == nil || !strings.Contains(err.Error(), "MULTI calls can not be nested") {
		t.Fatalf("the server's answer to a nested MULTI: %v", err)
	}
	conn.Do(ctx, "INCRBY", "{n}:count", 1)
	if err := conn.Do(ctx, "EXEC").Err(); err != nil {
		t.Fatalf("EXEC after a nested MULTI: %v", err)
	}
	if n, _ := raw.Get(ctx, "{n}:count").Int(); n != 1 {
		t.Fatalf("the server ran the rest of the transaction %d times, want 1", n)
	}

	c, _ := hooked(t, s, 3)
	_, err := c.TxPipelined(ctx, nested)
	wantKind(t, err, clustercheck.KindNestedMulti, "ERR MULTI calls can not be nested", "MULTI queued in a transaction", "drop the MULTI")
	if n, _ := raw.Get(ctx, "{n}:count").Int(); n != 1 {
		t.Fatalf("the refused transaction ran: count %d", n)
	}
	if _, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.IncrBy(ctx, "{n}:count", 1)
		return nil
	}); err != nil {
		t.Fatalf("fixed form: %v", err)
	}

	// FailTest mode records it and sends the transaction, which go-redis
	// misreads: a short read timeout ends the wait.
	var ft fakeCleanupTB
	o := s.Options()
	o.ReadTimeout, o.MaxRetries = 200*time.Millisecond, -1
	cf := redis.NewClient(o)
	t.Cleanup(func() { cf.Close() })
	hf := clustercheck.NewHook(clustercheck.FailTest(&ft))
	cf.AddHook(hf)
	cf.TxPipelined(ctx, nested)
	if f := hf.Findings(); len(f) != 1 || f[0].Kind != clustercheck.KindNestedMulti {
		t.Fatalf("findings %v", f)
	}
}

// TestHookRing runs the hook on a redis.Ring over two real servers. A Ring
// sends a command to the shard of its first key, and splits a transaction
// by shard, so keys that must stay together need one slot there as on a
// cluster. The hook is added to the Ring and, through RingOptions.NewClient,
// to each shard's client, which runs Watch's function.
func TestHookRing(t *testing.T) {
	a, b := redistest.StartStandalone(t), redistest.StartStandalone(t)
	ctx := testCtx(t)
	h := clustercheck.NewHook()
	ring := redis.NewRing(&redis.RingOptions{
		Addrs: map[string]string{"a": a.Addr, "b": b.Addr},
		NewClient: func(opt *redis.Options) *redis.Client {
			c := redis.NewClient(opt)
			c.AddHook(h)
			return c
		},
	})
	t.Cleanup(func() { ring.Close() })
	ring.AddHook(h)

	// Commands.
	wantCrossSlot(t, ring.MGet(ctx, "cart:1", "cart:2").Err(), clustercheck.KindCommand, "MGET", `"cart:1"`, `"cart:2"`)
	if err := ring.MSet(ctx, "cart:{1}:a", "x", "cart:{1}:b", "y").Err(); err != nil {
		t.Fatalf("hashtagged MSET: %v", err)
	}
	if v, err := ring.MGet(ctx, "cart:{1}:a", "cart:{1}:b").Result(); err != nil || v[0] != "x" || v[1] != "y" {
		t.Fatalf("hashtagged MGET: %v %v", v, err)
	}
	// A pipeline may span slots; a transaction may not.
	if _, err := ring.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "ring:a", "1", 0)
		p.Set(ctx, "ring:b", "1", 0)
		return nil
	}); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	_, err := ring.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "foo")
		p.Incr(ctx, "bar")
		return nil
	})
	wantCrossSlot(t, err, clustercheck.KindTransaction, "MULTI/EXEC", `"foo"`, `"bar"`)
	if _, err := ring.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "{stats}:foo")
		p.Incr(ctx, "{stats}:bar")
		return nil
	}); err != nil {
		t.Fatalf("hashtagged transaction: %v", err)
	}
	// Watch runs on the shard of its keys, whose client has the hook.
	err = ring.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.DecrBy(ctx, "balance:{bank}:a", 1)
			p.IncrBy(ctx, "balance:b", 1)
			return nil
		})
		return err
	}, "balance:{bank}:a")
	wantCrossSlot(t, err, clustercheck.KindTransaction, "MULTI/EXEC", `"balance:b"`)
	if err := ring.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.DecrBy(ctx, "balance:{bank}:a", 1)
			p.IncrBy(ctx, "balance:{bank}:b", 1)
			return nil
		})
		return err
	}, "balance:{bank}:a"); err != nil {
		t.Fatalf("hashtagged Watch: %v", err)
	}
	// Scripts, by their source.
	err = redis.NewScript(`return redis.call('GET', 'config:' .. ARGV[1])`).Run(ctx, ring, []string{"{s}1"}, "x").Err()
	wantCrossSlot(t, err, clustercheck.KindScript, "EVAL", "not declared in KEYS")
	// A raw WATCH with Do on the Ring, a pooled client.
	wantKind(t, ring.Do(ctx, "WATCH", "{acct}:1").Err(), clustercheck.KindPooledTransaction, "*redis.Ring")
	if f := h.Findings(); len(f) != 5 {
		t.Errorf("ReturnError recorded %d findings, want the 5 faults returned: %v", len(f), f)
	}
}

// TestHookExecInMulti: an EXEC queued in a TxPipelined, which sends EXEC
// itself. A real server runs the commands queued before it as the
// transaction and the ones after it outside any, then answers the last
// EXEC "EXEC without MULTI"; the hook refuses the transaction, unsent.
func TestHookExecInMulti(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	// Origin: redigo's transaction idiom, conn.Send("MULTI"), the writes,
	// conn.Do("EXEC") (redigo's package documentation; GANDUWARD/GoWeb-'s
	// redis5/redis5.go), ported into a TxPipelined that kept its EXEC
	// (bad); the fix leaves EXEC to TxPipelined.
	queued := func(p redis.Pipeliner) error {
		p.DecrBy(ctx, "{x}:a", 1)
		p.Do(ctx, "EXEC")
		p.IncrBy(ctx, "{x}:b", 1)
		return nil
	}

	// What the server does, on one connection.
	raw := s.Client(t)
	conn := raw.Conn()
	defer conn.Close()
	if err := conn.Do(ctx, "MULTI").Err(); err != nil {
		t.Fatal(err)
	}
	conn.Do(ctx, "DECRBY", "{x}:a", 1)
	if v, err := conn.Do(ctx, "EXEC").Slice(); err != nil || len(v) != 1 {
		t.Fatalf("the inner EXEC: %v, %v", v, err)
	}
	if n, err := conn.Do(ctx, "INCRBY", "{x}:b", 1).Int(); err != nil || n != 1 {
		t.Fatalf("a command after the inner EXEC: %v, %v; want it run at once, outside any transaction", n, err)
	}
	if err := conn.Do(ctx, "EXEC").Err(); err == nil || !strings.Contains(err.Error(), "EXEC without MULTI") {
		t.Fatalf("the server's answer to the last EXEC: %v", err)
	}
	counts := func() (int, int) {
		a, _ := raw.Get(ctx, "{x}:a").Int()
		b, _ := raw.Get(ctx, "{x}:b").Int()
		return a, b
	}

	c, _ := hooked(t, s, 3)
	_, err := c.TxPipelined(ctx, queued)
	wantKind(t, err, clustercheck.KindExecInMulti, "ERR EXEC without MULTI", "EXEC queued in a transaction", "outside any transaction", "drop the EXEC")
	if a, b := counts(); a != -1 || b != 1 {
		t.Fatalf("the refused transaction ran: %d, %d", a, b)
	}
	if _, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.DecrBy(ctx, "{x}:a", 1)
		p.IncrBy(ctx, "{x}:b", 1)
		return nil
	}); err != nil {
		t.Fatalf("fixed form: %v", err)
	}
	// Two transactions sent with Do in one plain pipeline are not one:
	// neither the EXEC and MULTI between them nor their keys in two slots
	// are at fault.
	if _, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, key := range []string{"{x}:c", "{y}:c"} {
			p.Do(ctx, "MULTI")
			p.Do(ctx, "INCR", key)
			p.Do(ctx, "EXEC")
		}
		return nil
	}); err != nil {
		t.Fatalf("two transactions in a pipeline: %v", err)
	}
	if x, y := raw.Get(ctx, "{x}:c").Val(), raw.Get(ctx, "{y}:c").Val(); x != "1" || y != "1" {
		t.Fatalf("two transactions in a pipeline: %q, %q", x, y)
	}

	// FailTest mode records it and sends the transaction: the server runs
	// both writes, and go-redis, reading the inner EXEC's reply where it
	// expects QUEUED, fails the call.
	var ft fakeCleanupTB
	o := s.Options()
	o.ReadTimeout, o.MaxRetries = 200*time.Millisecond, -1
	cf := redis.NewClient(o)
	t.Cleanup(func() { cf.Close() })
	hf := clustercheck.NewHook(clustercheck.FailTest(&ft))
	cf.AddHook(hf)
	if _, err := cf.TxPipelined(ctx, queued); err == nil {
		t.Error("go-redis read a transaction with a queued EXEC without error")
	}
	if f := hf.Findings(); len(f) != 1 || f[0].Kind != clustercheck.KindExecInMulti {
		t.Fatalf("findings %v", f)
	}
	if a, b := counts(); a != -3 || b != 3 {
		t.Fatalf("after the sent transaction: %d, %d, want -3, 3", a, b)
	}
}

// TestHookMultiOnConn: a MULTI, a WATCH or a TxPipelined sent on a
// connection already in MULTI (a Conn, or Watch's Tx). The server refuses
// the inner MULTI and the WATCH and keeps the first MULTI open; the hook
// refuses them, unsent, and the transaction goes on.
func TestHookMultiOnConn(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	raw := s.Client(t)

	// What the server does, on one connection.
	rc := raw.Conn()
	defer rc.Close()
	if err := rc.Do(ctx, "MULTI").Err(); err != nil {
		t.Fatal(err)
	}
	if err := rc.Do(ctx, "MULTI").Err(); err == nil || !strings.Contains(err.Error(), "MULTI calls can not be nested") {
		t.Fatalf("the server's answer to a nested MULTI: %v", err)
	}
	if err := rc.Do(ctx, "WATCH", "{m}:n").Err(); err == nil || !strings.Contains(err.Error(), "WATCH inside MULTI is not allowed") {
		t.Fatalf("the server's answer to WATCH inside MULTI: %v", err)
	}
	if err := rc.Do(ctx, "DISCARD").Err(); err != nil {
		t.Fatal(err)
	}

	// Origin: the same redigo idiom (GANDUWARD/GoWeb-'s redis5/redis5.go)
	// ported onto a go-redis Conn, conn.Do(ctx, "MULTI"), the writes,
	// conn.Do(ctx, "EXEC"), with a retry path that sends MULTI again before
	// EXEC (bad); the fix sends MULTI once before its EXEC.
	c, _ := hooked(t, s, 3)
	if err := raw.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	conn := c.Conn()
	defer conn.Close()
	if err := conn.Do(ctx, "MULTI").Err(); err != nil {
		t.Fatal(err)
	}
	// The first command with keys the hook sees: it fetches the server's
	// key specs (COMMAND) only outside MULTI, where COMMAND would be
	// queued and its reply misread.
	if err := conn.Do(ctx, "MGET", "{m}:n", "{m}:o").Err(); err != nil {
		t.Fatalf("MGET queued: %v", err)
	}
	wantKind(t, conn.Do(ctx, "MULTI").Err(), clustercheck.KindNestedMulti, "ERR MULTI calls can not be nested", "MULTI sent on a connection already in MULTI", "send MULTI once")
	wantKind(t, conn.Do(ctx, "WATCH", "{m}:n").Err(), clustercheck.KindWatchInMulti, `WATCH "{m}:n" sent on a connection in MULTI`)
	_, err := conn.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "{m}:n")
		return nil
	})
	wantKind(t, err, clustercheck.KindNestedMulti, "a transaction (TxPipeline, TxPipelined) sent on a connection already in MULTI", "EXEC or DISCARD")
	if err := conn.Do(ctx, "INCR", "{m}:n").Err(); err != nil {
		t.Fatalf("INCR queued: %v", err)
	}
	if v, err := conn.Do(ctx, "EXEC").Slice(); err != nil || len(v) != 2 {
		t.Fatalf("EXEC of the first MULTI: %v, %v", v, err)
	}
	if n, _ := raw.Get(ctx, "{m}:n").Int(); n != 1 {
		t.Fatalf("count %d after the transaction, want 1", n)
	}
	// Only the first MULTI reached the server.
	stats, err := raw.Info(ctx, "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	multi := ""
	for _, line := range strings.Split(stats, "\n") {
		if strings.HasPrefix(line, "cmdstat_multi:") {
			multi = strings.TrimSpace(line)
		}
	}
	if !strings.HasPrefix(multi, "cmdstat_multi:calls=1,") || !strings.Contains(multi, "failed_calls=0") || strings.Contains(stats, "cmdstat_watch:") {
		t.Errorf("the refused commands reached the server: %q in\n%s", multi, stats)
	}
	// EXEC ended the MULTI: the fixed forms run.
	for _, args := range [][]any{{"MULTI"}, {"INCR", "{m}:n"}, {"EXEC"}} {
		if err := conn.Do(ctx, args...).Err(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	if _, err := conn.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "{m}:n")
		return nil
	}); err != nil {
		t.Fatalf("TxPipelined after EXEC: %v", err)
	}

	// Watch's Tx is one connection too.
	err = c.Watch(ctx, func(tx *redis.Tx) error {
		if err := tx.Do(ctx, "MULTI").Err(); err != nil {
			return err
		}
		defer tx.Do(ctx, "DISCARD")
		return tx.Do(ctx, "MULTI").Err()
	}, "{m}:n")
	wantKind(t, err, clustercheck.KindNestedMulti, "MULTI sent on a connection already in MULTI")

	// FailTest mode records it and sends it: the server's own error, and
	// the first MULTI goes on.
	var ft fakeCleanupTB
	cf, hf := hooked(t, s, 3, clustercheck.FailTest(&ft))
	fc := cf.Conn()
	defer fc.Close()
	if err := fc.Do(ctx, "MULTI").Err(); err != nil {
		t.Fatal(err)
	}
	var e *clustercheck.CrossSlotError
	if err := fc.Do(ctx, "MULTI").Err(); err == nil || errors.As(err, &e) || !strings.Contains(err.Error(), "MULTI calls can not be nested") {
		t.Fatalf("FailTest, nested MULTI: %v", err)
	}
	fc.Do(ctx, "INCR", "{m}:n")
	if v, err := fc.Do(ctx, "EXEC").Slice(); err != nil || len(v) != 1 {
		t.Fatalf("FailTest, EXEC: %v, %v", v, err)
	}
	if f := hf.Findings(); len(f) != 1 || f[0].Kind != clustercheck.KindNestedMulti {
		t.Fatalf("findings %v", f)
	}
}
