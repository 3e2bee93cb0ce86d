// Package rueidishook is slotlint's runtime hook for rueidis: it wraps a
// rueidis.Client so that a test suite run on a single Redis server catches
// what would fail only on a Redis Cluster. Each command's keys, found
// through the key specs of slotlint's commands table, must share a slot,
// and so must the keys of each transaction: those WATCHed and those of the
// commands queued between MULTI and EXEC, whether sent one by one on a
// dedicated client or together in DoMulti. Scripts run with Lua.Exec are
// seen as the EVALSHA they send, so their declared keys are checked.
//
//	client, err := rueidis.NewClient(opt)
//	client = rueidishook.Wrap(client, rueidishook.FailTest(t))
//
// rueidis's own rueidishook package takes a Hook of Do, DoMulti, DoCache,
// ... functions; this wrapper has the same reach, and is written against
// rueidis.Client alone so that its module needs nothing but rueidis.
//
// It lives in a module of its own, so that go-redis users of slotlint do
// not download rueidis.
package rueidishook

import (
	"context"
	"sync"
	"time"

	"github.com/redis/rueidis"
	"github.com/slotlint/slotlint/clustercheck/rawcheck"
	"github.com/slotlint/slotlint/ruleset"
)

// TB is the part of testing.TB that FailTest uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Cleanup(func())
}

// An Option configures the wrapper.
type Option func(*checker)

// FailTest lets each command through and fails the test with every finding
// when it ends. Without it, a command at fault fails with a
// *rawcheck.Error before it is sent, as a cluster would refuse it.
func FailTest(t TB) Option {
	return func(c *checker) {
		c.t = t
		t.Cleanup(func() {
			t.Helper()
			for _, e := range c.Findings() {
				t.Errorf("%v", e)
			}
		})
	}
}

// WithRules checks with the commands table of rules instead of slotlint's
// built-in one.
func WithRules(rules *ruleset.Rules) Option {
	return func(c *checker) { c.rc = rawcheck.New(rules) }
}

type checker struct {
	rc *rawcheck.Checker
	t  TB

	mu       sync.Mutex
	findings []*rawcheck.Error
}

// Findings returns what the wrapper of c found, in order; nil when c was
// not made by Wrap.
func Findings(c rueidis.Client) []*rawcheck.Error {
	if w, ok := c.(*client); ok {
		return w.ck.Findings()
	}
	return nil
}

func (c *checker) Findings() []*rawcheck.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*rawcheck.Error(nil), c.findings...)
}

// fault records a finding and reports whether the command must fail.
func (c *checker) fault(e *rawcheck.Error) bool {
	if e == nil {
		return false
	}
	c.mu.Lock()
	c.findings = append(c.findings, e)
	c.mu.Unlock()
	return c.t == nil
}

// Wrap returns c with every command checked.
func Wrap(c rueidis.Client, opts ...Option) rueidis.Client {
	ck := &checker{}
	for _, o := range opts {
		o(ck)
	}
	if ck.rc == nil {
		ck.rc = rawcheck.New(nil)
	}
	return &client{Client: c, ck: ck}
}

type client struct {
	rueidis.Client
	ck *checker
}

func (c *client) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	if e := c.ck.rc.Command(cmd.Commands()); c.ck.fault(e) {
		return rueidis.NewErrorResult(e)
	}
	return c.Client.Do(ctx, cmd)
}

func (c *client) DoMulti(ctx context.Context, multi ...rueidis.Completed) []rueidis.RedisResult {
	if e := batch(c.ck, multi); e != nil {
		return errorResults(len(multi), e)
	}
	return c.Client.DoMulti(ctx, multi...)
}

func (c *client) DoCache(ctx context.Context, cmd rueidis.Cacheable, ttl time.Duration) rueidis.RedisResult {
	if e := c.ck.rc.Command(cmd.Commands()); c.ck.fault(e) {
		return rueidis.NewErrorResult(e)
	}
	return c.Client.DoCache(ctx, cmd, ttl)
}

func (c *client) DoMultiCache(ctx context.Context, multi ...rueidis.CacheableTTL) []rueidis.RedisResult {
	for _, m := range multi {
		if e := c.ck.rc.Command(m.Cmd.Commands()); c.ck.fault(e) {
			return errorResults(len(multi), e)
		}
	}
	return c.Client.DoMultiCache(ctx, multi...)
}

func (c *client) DoStream(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResultStream {
	if e := c.ck.rc.Command(cmd.Commands()); c.ck.fault(e) {
		return rueidis.NewErrorResultStream(e)
	}
	return c.Client.DoStream(ctx, cmd)
}

func (c *client) Dedicated(fn func(rueidis.DedicatedClient) error) error {
	return c.Client.Dedicated(func(d rueidis.DedicatedClient) error {
		return fn(&dedicated{DedicatedClient: d, ck: c.ck, conn: c.ck.rc.Conn()})
	})
}

func (c *client) Dedicate() (rueidis.DedicatedClient, func()) {
	d, cancel := c.Client.Dedicate()
	return &dedicated{DedicatedClient: d, ck: c.ck, conn: c.ck.rc.Conn()}, cancel
}

// Nodes wraps the clients of each node too.
func (c *client) Nodes() map[string]rueidis.Client {
	nodes := c.Client.Nodes()
	out := make(map[string]rueidis.Client, len(nodes))
	for addr, n := range nodes {
		out[addr] = &client{Client: n, ck: c.ck}
	}
	return out
}

// batch checks the commands of one DoMulti on a pooled connection.
func batch(ck *checker, multi []rueidis.Completed) *rawcheck.Error {
	argvs := make([][]string, len(multi))
	for i := range multi {
		argvs[i] = multi[i].Commands()
	}
	if _, e := ck.rc.Batch(argvs); ck.fault(e) {
		return e
	}
	return nil
}

func errorResults(n int, err error) []rueidis.RedisResult {
	out := make([]rueidis.RedisResult, n)
	for i := range out {
		out[i] = rueidis.NewErrorResult(err)
	}
	return out
}

// dedicated is a dedicated connection: it keeps the WATCH and MULTI state
// of the commands sent on it, one call after another.
type dedicated struct {
	rueidis.DedicatedClient
	ck   *checker
	mu   sync.Mutex
	conn *rawcheck.Conn
}

func (d *dedicated) feed(argv []string) *rawcheck.Error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e := d.conn.Feed(argv); d.ck.fault(e) {
		return e
	}
	return nil
}

func (d *dedicated) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	if e := d.feed(cmd.Commands()); e != nil {
		return rueidis.NewErrorResult(e)
	}
	return d.DedicatedClient.Do(ctx, cmd)
}

// DoMulti checks the commands in order; when one fails, none is sent, and
// the connection's state is as before the call.
func (d *dedicated) DoMulti(ctx context.Context, multi ...rueidis.Completed) []rueidis.RedisResult {
	d.mu.Lock()
	saved := *d.conn
	for i := range multi {
		if e := d.conn.Feed(multi[i].Commands()); d.ck.fault(e) {
			*d.conn = saved
			d.mu.Unlock()
			return errorResults(len(multi), e)
		}
	}
	d.mu.Unlock()
	return d.DedicatedClient.DoMulti(ctx, multi...)
}
