package rueidishook_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/redis/rueidis"
	"github.com/slotlint/slotlint/clustercheck/rawcheck"
	"github.com/slotlint/slotlint/clustercheck/rueidishook"
	"github.com/slotlint/slotlint/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func standalone(t *testing.T, opts ...rueidishook.Option) (rueidis.Client, rueidis.Client) {
	srv := redistest.StartStandalone(t)
	raw, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}, DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close)
	return rueidishook.Wrap(raw, opts...), raw
}

func crossSlot(t *testing.T, err error, want string) {
	t.Helper()
	var e *rawcheck.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want a *rawcheck.Error with %s", err, want)
	}
}

// TestStandalone runs the hook on a single server, where rueidis checks no
// slots: cross-slot commands and transactions fail before they are sent,
// their hashtagged forms run, and a pipeline may span slots.
func TestStandalone(t *testing.T) {
	ctx := context.Background()
	c, raw := standalone(t)
	raw.Do(ctx, raw.B().Set().Key("tmp:user:123:cache").Value("v").Build())

	err := c.Do(ctx, c.B().Rename().Key("tmp:user:123:cache").Newkey("user:123:cache").Build()).Error()
	crossSlot(t, err, `RENAME: keys "tmp:user:123:cache" (slot 4489) and "user:123:cache" (slot 7641) hash to different slots`)
	if n, _ := raw.Do(ctx, raw.B().Exists().Key("tmp:user:123:cache").Build()).AsInt64(); n != 1 {
		t.Error("the refused RENAME was sent")
	}
	raw.Do(ctx, raw.B().Set().Key("tmp:{user:123}:cache").Value("v").Build())
	if err := c.Do(ctx, c.B().Rename().Key("tmp:{user:123}:cache").Newkey("{user:123}:cache").Build()).Error(); err != nil {
		t.Errorf("hashtagged RENAME: %v", err)
	}
	err = c.Do(ctx, c.B().Mget().Key("cart:1", "cart:2").Build()).Error()
	crossSlot(t, err, `MGET: keys "cart:1"`)
	if err := c.Do(ctx, c.B().Mget().Key("cart:{1}:a", "cart:{1}:b").Build()).Error(); err != nil {
		t.Errorf("hashtagged MGET: %v", err)
	}

	// DoMulti is a pipeline: each command may go to its own slot.
	for _, r := range c.DoMulti(ctx, c.B().Set().Key("a").Value("1").Build(), c.B().Set().Key("b").Value("1").Build()) {
		if r.Error() != nil {
			t.Errorf("pipeline: %v", r.Error())
		}
	}
	// MULTI/EXEC in one DoMulti is a transaction.
	rs := c.DoMulti(ctx, c.B().Multi().Build(), c.B().Incr().Key("foo").Build(), c.B().Incr().Key("bar").Build(), c.B().Exec().Build())
	crossSlot(t, rs[0].Error(), `MULTI/EXEC: keys "foo" (slot 12182) and "bar" (slot 5061)`)
	if n, _ := raw.Do(ctx, raw.B().Exists().Key("foo").Build()).AsInt64(); n != 0 {
		t.Error("the refused transaction was sent")
	}

	// WATCH, then MULTI/EXEC, on a dedicated connection.
	err = c.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Watch().Key("balance:a").Build()).Error(); err != nil {
			return err
		}
		for _, r := range d.DoMulti(ctx, d.B().Multi().Build(), d.B().Decrby().Key("balance:a").Decrement(1).Build(), d.B().Incrby().Key("balance:b").Increment(1).Build(), d.B().Exec().Build()) {
			if r.Error() != nil {
				return r.Error()
			}
		}
		return nil
	})
	crossSlot(t, err, `MULTI/EXEC: keys "balance:a"`)
	d, cancel := c.Dedicate()
	defer cancel()
	d.Do(ctx, d.B().Watch().Key("balance:{bank}:a").Build())
	d.Do(ctx, d.B().Multi().Build())
	d.Do(ctx, d.B().Decrby().Key("balance:{bank}:a").Decrement(1).Build())
	d.Do(ctx, d.B().Incrby().Key("balance:{bank}:b").Increment(1).Build())
	if err := d.Do(ctx, d.B().Exec().Build()).Error(); err != nil {
		t.Errorf("hashtagged transaction: %v", err)
	}
	if n, _ := raw.Do(ctx, raw.B().Get().Key("balance:{bank}:b").Build()).AsInt64(); n != 1 {
		t.Errorf("the hashtagged transaction did not run: balance:{bank}:b is %d", n)
	}

	// Lua.Exec sends EVALSHA, whose declared keys must share a slot.
	lua := rueidis.NewLuaScript("return redis.call('GET', KEYS[1])")
	crossSlot(t, lua.Exec(ctx, c, []string{"job:a", "job:b"}, nil).Error(), `EVALSHA: keys "job:a"`)
	if err := lua.Exec(ctx, c, []string{"job:{1}:a", "job:{1}:b"}, nil).Error(); err != nil && !rueidis.IsRedisNil(err) {
		t.Errorf("hashtagged script: %v", err)
	}
}

type recorder struct {
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper()                      {}
func (r *recorder) Errorf(f string, args ...any) { r.errs = append(r.errs, fmt.Sprintf(f, args...)) }
func (r *recorder) Cleanup(f func())             { r.cleanups = append(r.cleanups, f) }

// TestFailTest: with FailTest, commands run and the test fails at its end.
func TestFailTest(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{}
	c, _ := standalone(t, rueidishook.FailTest(rec))
	if err := c.Do(ctx, c.B().Mget().Key("cart:1", "cart:2").Build()).Error(); err != nil {
		t.Errorf("FailTest lets the command through: %v", err)
	}
	if len(rueidishook.Findings(c)) != 1 {
		t.Errorf("findings: %v", rueidishook.Findings(c))
	}
	for _, f := range rec.cleanups {
		f()
	}
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], `MGET: keys "cart:1"`) {
		t.Errorf("test errors: %q", rec.errs)
	}
}

// TestAgreesWithCluster runs each transaction on a real Redis Cluster
// through rueidis's cluster client, unwrapped, and checks that the hook
// refuses exactly those that the cluster (or rueidis, which refuses to
// send a dedicated connection's commands to two slots) refuses.
func TestAgreesWithCluster(t *testing.T) {
	ctx := context.Background()
	cl := redistest.Shared(t)
	raw, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: cl.Addrs(), DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rc := rawcheck.New(nil)
	for _, tx := range [][][]string{
		{{"WATCH", "rh:foo"}, {"MULTI"}, {"INCR", "rh:foo"}, {"INCR", "rh:bar"}, {"EXEC"}},
		{{"WATCH", "rh:{s}:foo"}, {"MULTI"}, {"INCR", "rh:{s}:foo"}, {"INCR", "rh:{s}:bar"}, {"EXEC"}},
		{{"WATCH", "rh:a", "rh:b"}, {"MULTI"}, {"EXEC"}},
		{{"WATCH", "rh:{t}a", "rh:{t}b"}, {"MULTI"}, {"SET", "rh:{t}a", "1"}, {"EXEC"}},
		{{"WATCH", "rh:{t}a"}, {"MULTI"}, {"RENAME", "rh:{t}a", "rh:{u}a"}, {"EXEC"}},
	} {
		_, hookErr := rc.Batch(tx)
		clusterErr := runOnCluster(ctx, raw, rc, tx)
		if (hookErr != nil) != (clusterErr != nil) {
			t.Errorf("%q: the hook says %v, the cluster %v", tx, hookErr, clusterErr)
		}
	}
}

func runOnCluster(ctx context.Context, c rueidis.Client, rc *rawcheck.Checker, tx [][]string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rueidis refused: %v", r)
		}
	}()
	return c.Dedicated(func(d rueidis.DedicatedClient) error {
		var cmds []rueidis.Completed
		for _, argv := range tx {
			keys := rc.Keys(argv)
			var args []string
			for _, a := range argv[1:] {
				if len(keys) > 0 && a == keys[0] {
					keys = keys[1:]
					continue
				}
				args = append(args, a)
			}
			cmds = append(cmds, d.B().Arbitrary(argv[0]).Keys(rc.Keys(argv)...).Args(args...).Build())
		}
		for _, r := range d.DoMulti(ctx, cmds...) {
			if e := r.Error(); e != nil && !rueidis.IsRedisNil(e) {
				return e
			}
		}
		return nil
	})
}
