package goredisv6hook_test

import (
	"strings"
	"testing"

	"github.com/go-redis/redis"
	"github.com/slotlint/slotlint/clustercheck/goredisv6hook"
	"github.com/slotlint/slotlint/clustercheck/rawcheck"
	"github.com/slotlint/slotlint/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func standalone(t *testing.T, opts ...goredisv6hook.Option) (*redis.Client, *goredisv6hook.Hook) {
	srv := redistest.StartStandalone(t)
	c := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { c.Close() })
	return c, goredisv6hook.Install(c, opts...)
}

// found checks that the hook's findings, since the last call, are one
// finding of kind whose text holds want, or none when want is "".
func found(t *testing.T, h *goredisv6hook.Hook, seen *int, kind, want string) {
	t.Helper()
	f := h.Findings()[*seen:]
	*seen += len(f)
	switch {
	case want == "" && len(f) != 0:
		t.Errorf("findings %v, want none", f)
	case want != "" && (len(f) != 1 || f[0].Kind != kind || !strings.Contains(f[0].Error(), want)):
		t.Errorf("findings %v, want one %s finding with %s", f, kind, want)
	}
}

// TestStandalone runs the hook on a single server: every command is sent,
// and the hook records those a cluster would refuse.
func TestStandalone(t *testing.T) {
	c, h := standalone(t)
	seen := 0
	c.Set("tmp:user:123:cache", "v", 0)
	if err := c.Rename("tmp:user:123:cache", "user:123:cache").Err(); err != nil {
		t.Errorf("RENAME: %v", err)
	}
	found(t, h, &seen, rawcheck.KindCommand, `RENAME: keys "tmp:user:123:cache" (slot 4489) and "user:123:cache" (slot 7641) hash to different slots`)
	c.Set("tmp:{user:123}:cache", "v", 0)
	c.Rename("tmp:{user:123}:cache", "{user:123}:cache")
	found(t, h, &seen, "", "")
	c.MGet("cart:1", "cart:2")
	found(t, h, &seen, rawcheck.KindCommand, `MGET: keys "cart:1"`)
	c.Do("RENAME", "queue:in", "queue:out")
	found(t, h, &seen, rawcheck.KindCommand, `RENAME: keys "queue:in"`)

	// A plain pipeline may span slots; TxPipelined's may not: the hook
	// tells them apart by the order in which v6 wraps them.
	c.Pipelined(func(p redis.Pipeliner) error {
		p.Set("a", "1", 0)
		p.Set("b", "1", 0)
		return nil
	})
	found(t, h, &seen, "", "")
	if _, err := c.TxPipelined(func(p redis.Pipeliner) error {
		p.Incr("foo")
		p.Incr("bar")
		return nil
	}); err != nil {
		t.Errorf("TxPipelined: %v", err)
	}
	found(t, h, &seen, rawcheck.KindTransaction, `MULTI/EXEC: keys "foo" (slot 12182) and "bar" (slot 5061)`)
	if c.Get("foo").Val() != "1" {
		t.Error("the transaction was not sent")
	}
	c.TxPipelined(func(p redis.Pipeliner) error {
		p.Incr("{stats}:foo")
		p.Incr("{stats}:bar")
		return nil
	})
	found(t, h, &seen, "", "")

	// A Watch's WATCH and the commands of its function go out on a Tx
	// that neither wrapper reaches.
	c.Watch(func(tx *redis.Tx) error {
		tx.MGet("balance:7", "audit:7")
		return nil
	}, "balance:7", "audit:7")
	found(t, h, &seen, "", "")

	// Scripts: EVAL is checked by its source, which the hook then knows
	// for EVALSHA.
	const src = `redis.call('SET', 'audit:last', '1'); return redis.call('GET', KEYS[1])`
	c.Eval(src, []string{"job:{1}:a"})
	found(t, h, &seen, rawcheck.KindScript, `"audit:last"`)
	c.EvalSha(redis.NewScript(src).Hash(), []string{"job:{1}:a"})
	found(t, h, &seen, rawcheck.KindScript, `"audit:last"`)
}

type recorder struct {
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper()                           {}
func (r *recorder) Errorf(format string, args ...any) { r.errs = append(r.errs, format) }
func (r *recorder) Cleanup(f func())                  { r.cleanups = append(r.cleanups, f) }

// TestFailTest: the test fails when it ends, with every finding.
func TestFailTest(t *testing.T) {
	rec := &recorder{}
	c, _ := standalone(t, goredisv6hook.FailTest(rec))
	c.MGet("cart:1", "cart:2")
	for _, f := range rec.cleanups {
		f()
	}
	if len(rec.errs) != 1 {
		t.Errorf("%d failures, want 1", len(rec.errs))
	}
}
