package goredisv7hook_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-redis/redis/v7"
	"github.com/slotlint/slotlint/clustercheck/goredisv7hook"
	"github.com/slotlint/slotlint/clustercheck/rawcheck"
	"github.com/slotlint/slotlint/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// standalone returns a hooked client and a plain one of a new server.
func standalone(t *testing.T, opts ...goredisv7hook.Option) (*redis.Client, *redis.Client) {
	srv := redistest.StartStandalone(t)
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { raw.Close() })
	c := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { c.Close() })
	c.AddHook(goredisv7hook.New(opts...))
	return c, raw
}

func crossSlot(t *testing.T, err error, want string) {
	t.Helper()
	var e *rawcheck.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want a *rawcheck.Error with %s", err, want)
	}
}

// TestStandalone runs the hook on a single server, which checks no slots:
// cross-slot commands and transactions fail before they are sent, their
// hashtagged forms run, and a plain pipeline may span slots.
func TestStandalone(t *testing.T) {
	c, raw := standalone(t)
	raw.Set("tmp:user:123:cache", "v", 0)

	err := c.Rename("tmp:user:123:cache", "user:123:cache").Err()
	crossSlot(t, err, `RENAME: keys "tmp:user:123:cache" (slot 4489) and "user:123:cache" (slot 7641) hash to different slots`)
	if raw.Exists("tmp:user:123:cache").Val() != 1 {
		t.Error("the refused RENAME was sent")
	}
	raw.Set("tmp:{user:123}:cache", "v", 0)
	if err := c.Rename("tmp:{user:123}:cache", "{user:123}:cache").Err(); err != nil {
		t.Errorf("hashtagged RENAME: %v", err)
	}
	crossSlot(t, c.MGet("cart:1", "cart:2").Err(), `MGET: keys "cart:1"`)
	if err := c.MGet("cart:{1}:a", "cart:{1}:b").Err(); err != nil {
		t.Errorf("hashtagged MGET: %v", err)
	}
	crossSlot(t, c.Do("RENAME", "queue:in", "queue:out").Err(), `RENAME: keys "queue:in"`)

	// A plain pipeline: each command may go to its own slot.
	if _, err := c.Pipelined(func(p redis.Pipeliner) error {
		p.Set("a", "1", 0)
		p.Set("b", "1", 0)
		return nil
	}); err != nil {
		t.Errorf("pipeline: %v", err)
	}

	// TxPipelined: go-redis v7 sends MULTI, the commands, EXEC.
	_, err = c.TxPipelined(func(p redis.Pipeliner) error {
		p.Incr("foo")
		p.Incr("bar")
		return nil
	})
	crossSlot(t, err, `MULTI/EXEC: keys "foo" (slot 12182) and "bar" (slot 5061)`)
	if raw.Exists("foo").Val() != 0 {
		t.Error("the refused transaction was sent")
	}
	if _, err := c.TxPipelined(func(p redis.Pipeliner) error {
		p.Incr("{stats}:foo")
		p.Incr("{stats}:bar")
		return nil
	}); err != nil {
		t.Errorf("hashtagged transaction: %v", err)
	}

	// Watch sends WATCH with its keys on the transaction's connection.
	err = c.Watch(func(tx *redis.Tx) error { return nil }, "balance:7", "audit:7")
	crossSlot(t, err, `WATCH: keys "balance:7"`)
	err = c.Watch(func(tx *redis.Tx) error {
		n, err := tx.Get("{7}:balance").Int64()
		if err != nil && err != redis.Nil {
			return err
		}
		_, err = tx.TxPipelined(func(p redis.Pipeliner) error {
			p.Set("{7}:balance", n+1, 0)
			p.RPush("{7}:audit", n+1)
			return nil
		})
		return err
	}, "{7}:balance", "{7}:audit")
	if err != nil {
		t.Errorf("hashtagged Watch: %v", err)
	}
}

const moveSrc = `
local v = redis.call('GET', KEYS[1])
redis.call('SET', 'audit:last', v)
return redis.call('SET', KEYS[2], v)
`

// TestScripts: Script.Run sends EVALSHA, which the hook answers NOSCRIPT
// for a script it has not seen, so that go-redis sends the source with
// EVAL, which the hook checks.
func TestScripts(t *testing.T) {
	c, raw := standalone(t)
	move := redis.NewScript(moveSrc)
	// Loaded on the server beforehand: the hook still sees the source.
	if err := move.Load(raw).Err(); err != nil {
		t.Fatal(err)
	}
	err := move.Run(c, []string{"job:{1}:a", "job:{1}:b"}).Err()
	var e *rawcheck.Error
	if !errors.As(err, &e) || e.Kind != rawcheck.KindScript || !strings.Contains(err.Error(), `"audit:last"`) {
		t.Errorf("got %v, want the script check's finding about audit:last", err)
	}
	if raw.Exists("job:{1}:b").Val() != 0 {
		t.Error("the refused script ran")
	}
	fixed := redis.NewScript(`return redis.call('SET', KEYS[2], redis.call('GET', KEYS[1]) or '')`)
	if err := fixed.Run(c, []string{"job:{1}:a", "job:{1}:b"}).Err(); err != nil {
		t.Errorf("fixed script: %v", err)
	}
	crossSlot(t, fixed.Run(c, []string{"job:a", "job:b"}).Err(), `keys "job:a"`)

	// With PassUnseenScripts, an EVALSHA of a script already cached runs
	// unchecked.
	p, praw := standalone(t, goredisv7hook.PassUnseenScripts())
	if err := move.Load(praw).Err(); err != nil {
		t.Fatal(err)
	}
	praw.Set("job:{2}:a", "v", 0)
	if err := p.EvalSha(move.Hash(), []string{"job:{2}:a", "job:{2}:b"}).Err(); err != nil && err != redis.Nil {
		t.Errorf("PassUnseenScripts: %v", err)
	}
}

type recorder struct {
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

// TestFailTest: with FailTest, commands are sent and the test fails when
// it ends, with every finding.
func TestFailTest(t *testing.T) {
	rec := &recorder{}
	c, raw := standalone(t, goredisv7hook.FailTest(rec))
	raw.Set("tmp:user:123:cache", "v", 0)
	if err := c.Rename("tmp:user:123:cache", "user:123:cache").Err(); err != nil {
		t.Errorf("RENAME under FailTest: %v", err)
	}
	if raw.Exists("user:123:cache").Val() != 1 {
		t.Error("the RENAME was not sent")
	}
	for _, f := range rec.cleanups {
		f()
	}
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "RENAME") {
		t.Errorf("findings %q, want the RENAME", rec.errs)
	}
}

// TestClusterRedis7 pins why the hook is for a test suite on a single
// server: go-redis v7.4.1's ClusterClient cannot read the CLUSTER SLOTS
// reply of Redis 7, whose node entries have a fourth element (the node's
// networking metadata), and fails every command, a hashtagged transaction
// included, before the hook sees it.
func TestClusterRedis7(t *testing.T) {
	cl := redistest.StartCluster(t)
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.Addrs()})
	t.Cleanup(func() { c.Close() })
	h := goredisv7hook.New()
	c.AddHook(h)
	_, err := c.TxPipelined(func(p redis.Pipeliner) error {
		p.Incr("{counter}:a")
		p.Incr("{counter}:b")
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "got 4 elements in cluster info address, expected 2 or 3") {
		t.Errorf("go-redis v7 on a Redis 7 cluster: got %v, want its CLUSTER SLOTS parse error", err)
	}
	if f := h.Findings(); len(f) != 0 {
		t.Errorf("findings %v", f)
	}
}
