package clustercheck_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/redistest"
)

// hookServer returns a standalone server with a password, shared by the
// hook tests of one test.
func hookServer(t *testing.T) *redistest.Server {
	return redistest.StartStandalone(t, redistest.WithPassword("s3cret"))
}

func hooked(t *testing.T, s *redistest.Server, protocol int, opts ...clustercheck.HookOption) (*redis.Client, *clustercheck.Hook) {
	o := s.Options()
	o.Protocol = protocol
	o.DisableIdentity = false // let go-redis send CLIENT SETINFO on connect
	c := redis.NewClient(o)
	t.Cleanup(func() { c.Close() })
	h := clustercheck.NewHook(opts...)
	c.AddHook(h)
	return c, h
}

func wantCrossSlot(t *testing.T, err error, kind string, parts ...string) {
	t.Helper()
	var e *clustercheck.CrossSlotError
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want a *CrossSlotError", err, err)
	}
	if e.Kind != kind {
		t.Errorf("kind %q, want %q: %v", e.Kind, kind, e)
	}
	msg := e.Error()
	if !strings.HasPrefix(msg, "CROSSSLOT Keys in request don't hash to the same slot (slotlint: ") {
		t.Errorf("message %q", msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message %q lacks %q", msg, p)
		}
	}
}

func TestHookReturnError(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	for _, protocol := range []int{2, 3} {
		t.Run(fmt.Sprintf("RESP%d", protocol), func(t *testing.T) {
			c, h := hooked(t, s, protocol)
			if err := c.FlushAll(ctx).Err(); err != nil {
				t.Fatal(err)
			}
			if err := c.Set(ctx, "a", "1", 0).Err(); err != nil {
				t.Fatal(err)
			}

			// A cross-slot RENAME fails and is not sent.
			err := c.Rename(ctx, "a", "b").Err()
			wantCrossSlot(t, err, clustercheck.KindCommand, `RENAME: keys "a" (slot 15495) and "b" (slot 3300) hash to different slots; give them a common hashtag such as`)
			if n := c.Exists(ctx, "a").Val(); n != 1 {
				t.Fatalf("RENAME was sent: a exists %d", n)
			}
			if !redis.HasErrorPrefix(err, "CROSSSLOT") {
				t.Errorf("redis.HasErrorPrefix(err, CROSSSLOT) is false for %v", err)
			}
			// The same on {tag} keys passes.
			if err := c.Set(ctx, "{u:1}:a", "1", 0).Err(); err != nil {
				t.Fatal(err)
			}
			if err := c.Rename(ctx, "{u:1}:a", "{u:1}:b").Err(); err != nil {
				t.Fatal(err)
			}
			wantCrossSlot(t, c.MGet(ctx, "a", "b").Err(), clustercheck.KindCommand, "MGET")
			if err := c.MGet(ctx, "{u:1}:a", "{u:1}:b").Err(); err != nil {
				t.Fatal(err)
			}
			// Raw commands are checked too.
			wantCrossSlot(t, c.Do(ctx, "SMOVE", "s1", "s2", "m").Err(), clustercheck.KindCommand, "SMOVE")

			// A plain pipeline may span slots.
			cmds, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, "a", "1", 0)
				p.Set(ctx, "b", "2", 0)
				p.Get(ctx, "c")
				return nil
			})
			if err != nil && err != redis.Nil {
				t.Fatalf("plain pipeline: %v", err)
			}
			if len(cmds) != 3 || cmds[1].Err() != nil {
				t.Fatalf("plain pipeline: %v", cmds)
			}
			// A faulty command fails alone in a plain pipeline.
			var ren *redis.StatusCmd
			var set *redis.StatusCmd
			_, err = c.Pipelined(ctx, func(p redis.Pipeliner) error {
				set = p.Set(ctx, "p", "1", 0)
				ren = p.Rename(ctx, "a", "b")
				return nil
			})
			wantCrossSlot(t, err, clustercheck.KindCommand, "RENAME")
			if set.Err() != nil || ren.Err() == nil || c.Get(ctx, "p").Val() != "1" {
				t.Fatalf("pipeline: set %v, rename %v", set.Err(), ren.Err())
			}

			// A transaction whose keys span slots fails whole, unsent.
			_, err = c.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, "tx1", "1", 0)
				p.Set(ctx, "tx2", "2", 0)
				return nil
			})
			wantCrossSlot(t, err, clustercheck.KindTransaction, `MULTI/EXEC: SET "tx1" and SET "tx2" in one transaction: keys "tx1"`)
			if n := c.Exists(ctx, "tx1", "tx2").Val(); n != 0 {
				t.Fatalf("the transaction ran: %d keys", n)
			}
			if _, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, "{tx}1", "1", 0)
				p.Incr(ctx, "{tx}2")
				return nil
			}); err != nil {
				t.Fatalf("same-slot transaction: %v", err)
			}

			// WATCH across slots.
			err = c.Watch(ctx, func(tx *redis.Tx) error { return nil }, "w1", "w2")
			wantCrossSlot(t, err, clustercheck.KindWatch, "WATCH")
			// A transaction under WATCH must stay in the watched slot.
			err = c.Watch(ctx, func(tx *redis.Tx) error {
				_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
					p.Set(ctx, "elsewhere", "1", 0)
					return nil
				})
				return err
			}, "{w}1")
			wantCrossSlot(t, err, clustercheck.KindTransaction, `WATCH "{w}1" and SET "elsewhere"`)
			// So must a read inside the Watch function.
			err = c.Watch(ctx, func(tx *redis.Tx) error {
				return tx.Get(ctx, "elsewhere").Err()
			}, "{w}1")
			wantCrossSlot(t, err, clustercheck.KindWatch, "GET under WATCH")
			err = c.Watch(ctx, func(tx *redis.Tx) error {
				if err := tx.Get(ctx, "{w}2").Err(); err != nil && err != redis.Nil {
					return err
				}
				_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
					p.Set(ctx, "{w}1", "1", 0)
					p.Set(ctx, "{w}2", "2", 0)
					return nil
				})
				return err
			}, "{w}1")
			if err != nil {
				t.Fatalf("same-slot watch: %v", err)
			}

			// Findings holds each fault the hook failed a command with,
			// once: RENAME, MGET, SMOVE, two MULTI/EXEC, EXISTS, WATCH,
			// GET under WATCH.
			if f := h.Findings(); len(f) != 8 {
				t.Errorf("ReturnError recorded %d findings, want the 8 faults returned: %v", len(f), f)
			}
		})
	}
}

func TestHookScripts(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	c, _ := hooked(t, s, 3)

	get := redis.NewScript(`return redis.call('GET', KEYS[1])`)
	if err := get.Run(ctx, c, []string{"{s}a"}).Err(); err != nil && err != redis.Nil {
		t.Fatalf("same-slot script: %v", err)
	}
	both := redis.NewScript(`redis.call('SET', KEYS[1], ARGV[1]); return redis.call('SET', KEYS[2], ARGV[1])`)
	err := both.Run(ctx, c, []string{"s1", "s2"}, "v").Err()
	wantCrossSlot(t, err, clustercheck.KindScript, "EVALSHA", `"s1"`, `"s2"`)
	if err := both.Run(ctx, c, []string{"{s}1", "{s}2"}, "v").Err(); err != nil {
		t.Fatalf("same-slot script: %v", err)
	}

	// A script that touches a key it was not given: Script.Run sends
	// EVALSHA, which the server does not know yet, then EVAL.
	undeclared := redis.NewScript(`return redis.call('GET', 'config:' .. ARGV[1])`)
	err = undeclared.Run(ctx, c, []string{"{s}1"}, "x").Err()
	wantCrossSlot(t, err, clustercheck.KindScript, "EVAL", "not declared in KEYS")

	// After SCRIPT LOAD, EVALSHA alone is checked against the source.
	src := `return redis.call('GET', 'elsewhere')`
	sha, err := c.ScriptLoad(ctx, src).Result()
	if err != nil {
		t.Fatal(err)
	}
	err = c.EvalSha(ctx, sha, []string{"{s}1"}).Err()
	wantCrossSlot(t, err, clustercheck.KindScript, "EVALSHA", "not declared in KEYS")
	var e *clustercheck.CrossSlotError
	if errors.As(err, &e) && (len(e.Script) != 1 || e.Script[0].Category != "undeclared-key") {
		t.Errorf("script findings %+v", e.Script)
	}
	// FCALL's keys are checked too (the server need not know the function
	// for the hook to refuse the call).
	wantCrossSlot(t, c.FCall(ctx, "f", []string{"k1", "k2"}).Err(), clustercheck.KindScript, "FCALL")

	// A script inside a transaction counts with it.
	_, err = c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "{s}1", "1", 0)
		get.Eval(ctx, p, []string{"other"})
		return nil
	})
	wantCrossSlot(t, err, clustercheck.KindTransaction, "EVAL")
}

// fakeCleanupTB is a TB with Cleanup, whose cleanups run on demand.
type fakeCleanupTB struct {
	fakeTB
	cleanups []func()
}

func (f *fakeCleanupTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeCleanupTB) end() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

func TestHookFailTest(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	var ft fakeCleanupTB
	c, h := hooked(t, s, 3, clustercheck.FailTest(&ft))
	if err := c.Set(ctx, "a", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	// The command goes through; the finding waits for the test's end.
	if err := c.Rename(ctx, "a", "b").Err(); err != nil {
		t.Fatalf("RENAME under FailTest: %v", err)
	}
	if c.Get(ctx, "b").Val() != "1" {
		t.Fatal("RENAME was not sent")
	}
	c.Rename(ctx, "b", "a") // the same finding again, reported once
	if _, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "n1")
		p.Incr(ctx, "n2")
		return nil
	}); err != nil {
		t.Fatalf("transaction under FailTest: %v", err)
	}
	if got := len(h.Findings()); got != 3 {
		t.Fatalf("%d findings, want 3: %v", got, h.Findings())
	}
	if len(ft.errors) != 0 {
		t.Fatalf("reported before the end: %q", ft.errors)
	}
	ft.end()
	if len(ft.errors) != 3 || !strings.Contains(ft.errors[0], `RENAME: keys "a" (slot 15495) and "b" (slot 3300)`) ||
		!strings.Contains(ft.errors[2], "MULTI/EXEC") {
		t.Fatalf("reported: %q", ft.errors)
	}
}

// TestHookLocalSpecs checks the hook with the rules' commands table alone.
func TestHookLocalSpecs(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	c, _ := hooked(t, s, 3, clustercheck.LocalSpecs())
	wantCrossSlot(t, c.Rename(ctx, "a", "b").Err(), clustercheck.KindCommand, "RENAME")
	wantCrossSlot(t, c.Do(ctx, "XREAD", "STREAMS", "s1", "s2", "0", "0").Err(), clustercheck.KindCommand, "XREAD")
	if err := c.Do(ctx, "XREAD", "STREAMS", "{x}1", "{x}2", "0", "0").Err(); err != nil && err != redis.Nil {
		t.Fatal(err)
	}
}

func TestHookOnCluster(t *testing.T) {
	cl := redistest.Shared(t)
	ctx := testCtx(t)
	c := cl.Client(t)
	h := clustercheck.NewHook()
	c.AddHook(h)
	wantCrossSlot(t, c.Rename(ctx, "a", "b").Err(), clustercheck.KindCommand, "RENAME")
	if err := c.Set(ctx, "{c}a", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Rename(ctx, "{c}a", "{c}b").Err(); err != nil {
		t.Fatal(err)
	}

	// A cluster client runs Watch's function on a node's client: without
	// the hook on the node clients (ClusterClient.OnNewNode), a write
	// under WATCH to another slot goes unseen.
	crossUnderWatch := func(c *redis.ClusterClient) error {
		return c.Watch(ctx, func(tx *redis.Tx) error {
			_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, "{c}a", "1", 0) // the watched slot: the node takes it
				p.Set(ctx, "unrelated", "1", 0)
				return nil
			})
			return err
		}, "{c}a")
	}
	hn := clustercheck.NewHook()
	cn := cl.Client(t)
	cn.AddHook(hn)
	cn.OnNewNode(func(n *redis.Client) { n.AddHook(hn) })
	wantCrossSlot(t, crossUnderWatch(cn), clustercheck.KindTransaction, `WATCH "{c}a" and SET "unrelated"`)

	// Watch on node clients while cluster pipelines call the same hook
	// outside its chain builds: no watched keys leak across.
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for g := range 6 {
		wg.Go(func() {
			tag := fmt.Sprintf("{cw%d}", g)
			for i := range 30 {
				if g%2 == 0 {
					if _, err := cn.Pipelined(ctx, func(p redis.Pipeliner) error {
						for j := range 5 {
							p.Set(ctx, fmt.Sprintf("p:%d:%d:%d", g, i, j), 1, 0)
						}
						return nil
					}); err != nil {
						errs <- fmt.Errorf("pipeline: %v", err)
						return
					}
					continue
				}
				if err := cn.Watch(ctx, func(tx *redis.Tx) error {
					_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
						p.Incr(ctx, tag+"n")
						return nil
					})
					return err
				}, tag+"n"); err != nil {
					errs <- fmt.Errorf("watch %s: %v", tag, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, f := range hn.Findings() {
		if f.Kind != clustercheck.KindTransaction {
			t.Errorf("finding %v, want only the refused cross-slot transactions", f)
		}
	}
}

// TestHookConcurrentWatch runs Watch transactions on many goroutines at
// once through one hooked client, each with keys of its own slot, plus a
// plain pipeline on each: no goroutine's watched keys may leak into
// another's transaction, and a cross-slot transaction under Watch is still
// caught.
func TestHookConcurrentWatch(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	c, h := hooked(t, s, 3)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			tag := fmt.Sprintf("{g%d}", g)
			for i := range 40 {
				err := c.Watch(ctx, func(tx *redis.Tx) error {
					if err := tx.Get(ctx, tag+"w").Err(); err != nil && err != redis.Nil {
						return err
					}
					_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
						p.Set(ctx, tag+"w", i, 0)
						p.Incr(ctx, tag+"n")
						return nil
					})
					return err
				}, tag+"w")
				if err != nil {
					errs <- fmt.Errorf("goroutine %d: %v", g, err)
					return
				}
				if _, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
					p.Set(ctx, "a"+tag, 1, 0)
					p.Set(ctx, "b"+tag, 1, 0)
					return nil
				}); err != nil {
					errs <- fmt.Errorf("goroutine %d pipeline: %v", g, err)
					return
				}
				if i%10 == 0 {
					err := c.Watch(ctx, func(tx *redis.Tx) error {
						_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
							p.Set(ctx, fmt.Sprintf("elsewhere:%d", g), 1, 0)
							return nil
						})
						return err
					}, tag+"w")
					var e *clustercheck.CrossSlotError
					if !errors.As(err, &e) || e.Kind != clustercheck.KindTransaction {
						errs <- fmt.Errorf("goroutine %d: cross-slot transaction under Watch gave %v", g, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, f := range h.Findings() {
		if f.Kind != clustercheck.KindTransaction {
			t.Errorf("finding %v, want only the refused cross-slot transactions", f)
		}
	}
}

// TestHookWarmScriptCache: a script the server already has (loaded by
// another client, or by an earlier test) is run with Script.Run, whose
// EVALSHA succeeds on the server; the hook must still check its source.
func TestHookWarmScriptCache(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	src := `return redis.call('GET', 'config:' .. ARGV[1])`
	other := s.Client(t)
	if err := other.ScriptLoad(ctx, src).Err(); err != nil {
		t.Fatal(err)
	}
	undeclared := redis.NewScript(src)

	c, _ := hooked(t, s, 3)
	err := undeclared.Run(ctx, c, []string{"{s}1"}, "x").Err()
	wantCrossSlot(t, err, clustercheck.KindScript, "EVAL", "not declared in KEYS")

	// EvalSha alone of a script the hook has not seen: NOSCRIPT, unsent.
	fresh := redis.NewScript(`return redis.call('GET', KEYS[1])`)
	if err := other.ScriptLoad(ctx, `return redis.call('GET', KEYS[1])`).Err(); err != nil {
		t.Fatal(err)
	}
	// (go-redis turns every NOSCRIPT into redis.ErrNoScript; the server
	// has the script, so this one is the hook's.)
	err = fresh.EvalSha(ctx, c, []string{"{s}1"}).Err()
	if !errors.Is(err, redis.ErrNoScript) {
		t.Fatalf("EVALSHA of an unseen script: %v", err)
	}
	var e *clustercheck.CrossSlotError
	// Script.Run recovers from it.
	if err := fresh.Run(ctx, c, []string{"{s}1"}).Err(); err != nil && err != redis.Nil {
		t.Fatalf("Script.Run: %v", err)
	}

	// A registered source is checked on EVALSHA alone.
	c2, h2 := hooked(t, s, 3, clustercheck.WithScripts(src))
	wantCrossSlot(t, undeclared.EvalSha(ctx, c2, []string{"{s}1"}, "x").Err(), clustercheck.KindScript, "EVALSHA", "not declared in KEYS")
	h2.RegisterScript(`return 1`)
	if err := other.ScriptLoad(ctx, `return 1`).Err(); err != nil {
		t.Fatal(err)
	}
	if err := redis.NewScript(`return 1`).EvalSha(ctx, c2, nil).Err(); err != nil {
		t.Fatalf("registered script: %v", err)
	}
	// PassUnseenScripts sends them unchecked.
	c3, _ := hooked(t, s, 3, clustercheck.PassUnseenScripts())
	if err := undeclared.EvalSha(ctx, c3, []string{"{s}1"}, "x").Err(); err != nil && err != redis.Nil {
		t.Fatalf("PassUnseenScripts: %v", err)
	}
	// In a pipeline, an unseen script fails alone.
	_, err = c.Pipelined(ctx, func(p redis.Pipeliner) error {
		redis.NewScript(`return 2`).EvalSha(ctx, p, nil)
		p.Set(ctx, "after", "1", 0)
		return nil
	})
	if !errors.As(err, &e) || e.Kind != clustercheck.KindNoScript || c.Get(ctx, "after").Val() != "1" {
		t.Fatalf("pipeline with an unseen script: %v", err)
	}
}

// TestHookTransactionMisuse: WATCH queued inside MULTI, and raw
// WATCH/MULTI/EXEC with Do on pooled clients.
func TestHookTransactionMisuse(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	c, _ := hooked(t, s, 3)

	// Origin: optimistic-locking code that queues WATCH with the writes
	// (bad); the fix watches before MULTI through Watch.
	_, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Do(ctx, "WATCH", "{acct}:1")
		p.IncrBy(ctx, "{acct}:1", 5)
		return nil
	})
	wantKind(t, err, clustercheck.KindWatchInMulti, `WATCH "{acct}:1" queued in a transaction`, "Watch(ctx, fn, keys...)")
	if n, _ := c.Get(ctx, "{acct}:1").Int(); n != 0 {
		t.Fatalf("the transaction ran: %d", n)
	}
	if err := c.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.IncrBy(ctx, "{acct}:1", 5)
			return nil
		})
		return err
	}, "{acct}:1"); err != nil {
		t.Fatalf("fixed form: %v", err)
	}

	// Raw WATCH/MULTI/EXEC through Do on the pooled client (bad).
	wantKind(t, c.Do(ctx, "WATCH", "{acct}:1").Err(), clustercheck.KindPooledTransaction, `WATCH "{acct}:1" sent with Do on a *redis.Client`, "Conn(ctx)")
	wantKind(t, c.Do(ctx, "MULTI").Err(), clustercheck.KindPooledTransaction, "goes back to the pool inside MULTI")
	wantKind(t, c.Do(ctx, "EXEC").Err(), clustercheck.KindPooledTransaction, "EXEC")
	// The same on one connection is fine.
	conn := c.Conn()
	defer conn.Close()
	for _, args := range [][]any{{"WATCH", "{acct}:1"}, {"MULTI"}, {"INCR", "{acct}:1"}, {"EXEC"}} {
		if err := conn.Do(ctx, args...).Err(); err != nil {
			t.Fatalf("%v on a Conn: %v", args, err)
		}
	}
	// And raw WATCH inside Watch's function, on its connection.
	if err := c.Watch(ctx, func(tx *redis.Tx) error {
		return tx.Do(ctx, "WATCH", "{acct}:2").Err()
	}); err != nil {
		t.Fatalf("WATCH on the Tx: %v", err)
	}

	// FailTest mode records them and sends the commands.
	var ft fakeCleanupTB
	cf, hf := hooked(t, s, 3, clustercheck.FailTest(&ft))
	if err := cf.Do(ctx, "WATCH", "{acct}:1").Err(); err != nil {
		t.Fatal(err)
	}
	cf.Do(ctx, "UNWATCH")
	if f := hf.Findings(); len(f) != 1 || f[0].Kind != clustercheck.KindPooledTransaction {
		t.Fatalf("findings %v", f)
	}

	// A cluster client is pooled too.
	cl := redistest.Shared(t)
	cc := cl.Client(t)
	cc.AddHook(clustercheck.NewHook())
	wantKind(t, cc.Do(ctx, "WATCH", "{acct}:1").Err(), clustercheck.KindPooledTransaction, "*redis.ClusterClient")
}

func wantKind(t *testing.T, err error, kind string, parts ...string) {
	t.Helper()
	var e *clustercheck.CrossSlotError
	if !errors.As(err, &e) || e.Kind != kind {
		t.Fatalf("error %v (%T), want a %s finding", err, err, kind)
	}
	for _, p := range parts {
		if !strings.Contains(e.Error(), p) {
			t.Errorf("message %q lacks %q", e.Error(), p)
		}
	}
}
