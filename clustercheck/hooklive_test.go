package clustercheck_test

import (
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
	// Origin: code ported from a client without transactions of its own,
	// which sent MULTI itself (bad); the fix leaves MULTI/EXEC to
	// TxPipelined.
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
	if f := h.Findings(); len(f) != 0 {
		t.Errorf("ReturnError recorded findings: %v", f)
	}
}
