// Package rueidishook is slotlint's runtime hook for rueidis: it wraps a
// rueidis.Client so that a test suite run on a single Redis server catches
// what would fail only on a Redis Cluster. Each command's keys, found
// through the key specs of slotlint's commands table, must share a slot,
// and so must the keys of each transaction: those WATCHed and those of the
// commands queued between MULTI and EXEC, whether sent one by one on a
// dedicated client or together in DoMulti. A WATCH or MULTI sent inside
// MULTI, which any Redis server refuses, is reported too.
//
// Scripts are checked by their source, with the Lua checks of slotlint's
// go-redis hook: keys a script touches but was not given in KEYS, its
// flags, a write in a script run with EVAL_RO. The wrapper learns a
// script's source when it goes by (EVAL, EVAL_RO, SCRIPT LOAD) or from
// WithScripts. An EVALSHA or EVALSHA_RO of any other script it answers
// itself with NOSCRIPT, unsent, as a server whose script cache is empty
// would: rueidis's Lua.Exec then sends the script with EVAL, which the
// wrapper checks. So a test suite cannot pass because the server already
// had the script cached. DoStream and DoMultiStream answer it with a
// stream whose error is NOSCRIPT. PassUnseenScripts sends such an EVALSHA
// unchecked instead. ClusterReadiness adds what else a cluster does unlike
// one server: keyspace-wide commands and databases other than 0.
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
	"encoding/binary"
	"strings"
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
	return func(c *checker) { c.rules = rules }
}

// WithScripts gives the wrapper the sources of scripts that the program
// runs with EVALSHA without ever sending them with EVAL or SCRIPT LOAD
// through the wrapped client (they were loaded elsewhere), so that it can
// check them.
func WithScripts(sources ...string) Option {
	return func(c *checker) { c.sources = append(c.sources, sources...) }
}

// PassUnseenScripts makes the wrapper send an EVALSHA of a script whose
// source it has not seen, unchecked, instead of answering NOSCRIPT. A test
// suite then passes whatever such a script does.
func PassUnseenScripts() Option {
	return func(c *checker) { c.passUnseen = true }
}

// ClusterReadiness makes the wrapper report, besides keys in different
// slots, what else a cluster does unlike one server: a keyspace-wide
// command (KEYS, SCAN, RANDOMKEY, DBSIZE, FLUSHDB, FLUSHALL: keyspace-wide
// in the rules' commands table), which a cluster client sends to one node,
// also inside a script the wrapper knows; and a database other than 0
// (SELECT n, SWAPDB, MOVE, COPY ... DB n), which a cluster refuses, unless
// the rules' target is valkey-9. It checks every command sent through the
// wrapper: Do, each command of DoMulti, DoCache, DoMultiCache, DoStream,
// DoMultiStream and dedicated clients. On the node clients of Nodes, which
// run a command on one node as the fix of a keyspace-wide command does,
// only databases other than 0 are reported.
//
// The SELECT that rueidis sends on each new connection when
// ClientOption.SelectDB is set goes around the wrapper, which does not see
// it: only a SELECT sent through the wrapper is reported. Use the option on
// a client that is a cluster client in production; test setup that runs
// FLUSHDB should use a client without it.
func ClusterReadiness() Option {
	return func(c *checker) { c.readiness = true }
}

type checker struct {
	rc         *rawcheck.Checker
	rules      *ruleset.Rules
	sources    []string
	passUnseen bool
	readiness  bool
	t          TB

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
	ck.rc = rawcheck.New(ck.rules)
	if ck.readiness {
		ck.rc.ClusterReadiness()
	}
	for _, src := range ck.sources {
		ck.rc.RegisterScript(src)
	}
	return &client{Client: c, ck: ck, rc: ck.rc}
}

// unseen reports whether argv is an EVALSHA or EVALSHA_RO that the wrapper
// answers with NOSCRIPT.
func (c *checker) unseen(argv []string) bool {
	return !c.passUnseen && noScriptWorks && c.rc.Unseen(argv)
}

// noScriptText is the start of the reply of a server that lacks a script.
const noScriptText = "NOSCRIPT No matching script. Please use EVAL."

// noScript returns the reply of a server whose script cache lacks the
// script of an EVALSHA: an error reply, which rueidis.IsRedisErr accepts
// and whose IsNoScript is true, as Lua.Exec needs to send the script with
// EVAL. rueidis makes such a reply only from the wire or from a cache
// entry, so it is made with the CacheUnmarshalView method of
// rueidis.RedisMessage from the entry its CacheMarshal would write: 7
// bytes of TTL, the RESP type ('-', a simple error), its length in 8 bytes
// big-endian, the text.
func noScript(argv []string) rueidis.RedisResult {
	text := noScriptText + " (slotlint: " + strings.ToUpper(argv[0]) + ": script " + strings.ToLower(argv[1]) + ": the hook has not seen its source, so it cannot check the keys it touches; run it with Lua.Exec, which sends the source with EVAL after NOSCRIPT, or give the hook its source with WithScripts)"
	buf := make([]byte, 7+1+8+len(text))
	buf[7] = '-'
	binary.BigEndian.PutUint64(buf[8:16], uint64(len(text)))
	copy(buf[16:], text)
	var m rueidis.RedisMessage
	if err := m.CacheUnmarshalView(buf); err != nil {
		return rueidis.NewErrorResult(err)
	}
	return rueidis.NewResult(m, nil)
}

// noScriptWorks is whether noScript's reply is a NOSCRIPT error to this
// version of rueidis, whose cache entry format may change. When it is not,
// the wrapper sends every EVALSHA, as with PassUnseenScripts.
var noScriptWorks = func() bool {
	e, ok := rueidis.IsRedisErr(noScript([]string{"EVALSHA", "0"}).Error())
	return ok && e.IsNoScript()
}()

type client struct {
	rueidis.Client
	ck *checker
	rc *rawcheck.Checker // ck.rc, or its OneNode for a client of Nodes
}

func (c *client) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	argv := cmd.Commands()
	if e := c.rc.Command(argv); c.ck.fault(e) {
		return rueidis.NewErrorResult(e)
	}
	if c.ck.unseen(argv) {
		return noScript(argv)
	}
	return c.Client.Do(ctx, cmd)
}

// DoMulti checks a pipeline: each command alone, and each run from MULTI
// to EXEC as a transaction. An EVALSHA of an unseen script gets NOSCRIPT
// and the other commands are sent, unless the pipeline holds a
// transaction: then none is sent, and every reply is NOSCRIPT.
func (c *client) DoMulti(ctx context.Context, multi ...rueidis.Completed) []rueidis.RedisResult {
	argvs := commands(multi)
	if _, e := c.rc.Batch(argvs); c.ck.fault(e) {
		return errorResults(len(multi), e)
	}
	skip := c.ck.unseenOf(argvs)
	if skip < 0 {
		return c.Client.DoMulti(ctx, multi...)
	}
	if hasMulti(argvs) {
		out := make([]rueidis.RedisResult, len(multi))
		for i := range out {
			out[i] = noScript(argvs[skip])
		}
		return out
	}
	out := make([]rueidis.RedisResult, len(multi))
	sent := make([]int, 0, len(multi)) // the indexes of rest
	rest := make([]rueidis.Completed, 0, len(multi))
	for i := range multi {
		if c.ck.unseen(argvs[i]) {
			out[i] = noScript(argvs[i])
		} else {
			sent = append(sent, i)
			rest = append(rest, multi[i])
		}
	}
	if len(rest) == 0 {
		return out
	}
	for j, r := range c.Client.DoMulti(ctx, rest...) {
		out[sent[j]] = r
	}
	return out
}

func (c *client) DoCache(ctx context.Context, cmd rueidis.Cacheable, ttl time.Duration) rueidis.RedisResult {
	argv := cmd.Commands()
	if e := c.rc.Command(argv); c.ck.fault(e) {
		return rueidis.NewErrorResult(e)
	}
	if c.ck.unseen(argv) {
		return noScript(argv)
	}
	return c.Client.DoCache(ctx, cmd, ttl)
}

// DoMultiCache checks each command; an EVALSHA_RO of an unseen script
// makes every reply NOSCRIPT, unsent.
func (c *client) DoMultiCache(ctx context.Context, multi ...rueidis.CacheableTTL) []rueidis.RedisResult {
	for _, m := range multi {
		if e := c.rc.Command(m.Cmd.Commands()); c.ck.fault(e) {
			return errorResults(len(multi), e)
		}
	}
	for _, m := range multi {
		if argv := m.Cmd.Commands(); c.ck.unseen(argv) {
			out := make([]rueidis.RedisResult, len(multi))
			for i := range out {
				out[i] = noScript(argv)
			}
			return out
		}
	}
	return c.Client.DoMultiCache(ctx, multi...)
}

// DoStream checks the command. An EVALSHA of an unseen script gets,
// unsent, a stream whose error is NOSCRIPT: rueidis makes a stream only
// from a connection or from an error (NewErrorResultStream), so its
// WriteTo and Error both return the NOSCRIPT error, where a server's
// stream would give it to WriteTo and end with io.EOF.
func (c *client) DoStream(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResultStream {
	argv := cmd.Commands()
	if e := c.rc.Command(argv); c.ck.fault(e) {
		return rueidis.NewErrorResultStream(e)
	}
	if c.ck.unseen(argv) {
		return rueidis.NewErrorResultStream(noScript(argv).Error())
	}
	return c.Client.DoStream(ctx, cmd)
}

// DoMultiStream checks the commands as DoMulti does. When one is an
// EVALSHA of an unseen script, none is sent, and the stream's error is
// NOSCRIPT: a stream made from an error has no replies for the other
// commands.
func (c *client) DoMultiStream(ctx context.Context, multi ...rueidis.Completed) rueidis.MultiRedisResultStream {
	argvs := commands(multi)
	if _, e := c.rc.Batch(argvs); c.ck.fault(e) {
		return rueidis.NewErrorResultStream(e)
	}
	if i := c.ck.unseenOf(argvs); i >= 0 {
		return rueidis.NewErrorResultStream(noScript(argvs[i]).Error())
	}
	return c.Client.DoMultiStream(ctx, multi...)
}

func (c *client) Dedicated(fn func(rueidis.DedicatedClient) error) error {
	return c.Client.Dedicated(func(d rueidis.DedicatedClient) error {
		return fn(&dedicated{DedicatedClient: d, ck: c.ck, conn: c.rc.Conn()})
	})
}

func (c *client) Dedicate() (rueidis.DedicatedClient, func()) {
	d, cancel := c.Client.Dedicate()
	return &dedicated{DedicatedClient: d, ck: c.ck, conn: c.rc.Conn()}, cancel
}

// Nodes wraps the clients of each node too. With ClusterReadiness, a
// keyspace-wide command sent on one of them is not reported: it is meant
// for that node.
func (c *client) Nodes() map[string]rueidis.Client {
	nodes := c.Client.Nodes()
	out := make(map[string]rueidis.Client, len(nodes))
	node := c.rc.OneNode()
	for addr, n := range nodes {
		out[addr] = &client{Client: n, ck: c.ck, rc: node}
	}
	return out
}

// commands returns the argument lists of multi.
func commands(multi []rueidis.Completed) [][]string {
	argvs := make([][]string, len(multi))
	for i := range multi {
		argvs[i] = multi[i].Commands()
	}
	return argvs
}

// unseenOf returns the index of the first EVALSHA in argvs that the
// wrapper answers with NOSCRIPT, or -1.
func (c *checker) unseenOf(argvs [][]string) int {
	for i, argv := range argvs {
		if c.unseen(argv) {
			return i
		}
	}
	return -1
}

// hasMulti reports whether argvs hold a MULTI.
func hasMulti(argvs [][]string) bool {
	for _, argv := range argvs {
		if len(argv) > 0 && strings.EqualFold(argv[0], "MULTI") {
			return true
		}
	}
	return false
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

// Do checks the command with the connection's state. An EVALSHA of an
// unseen script gets NOSCRIPT, unsent; inside MULTI, the server's EXEC
// then runs the other queued commands, as it does when its cache lacks the
// script.
func (d *dedicated) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	argv := cmd.Commands()
	if e := d.feed(argv); e != nil {
		return rueidis.NewErrorResult(e)
	}
	if d.ck.unseen(argv) {
		return noScript(argv)
	}
	return d.DedicatedClient.Do(ctx, cmd)
}

// DoMulti checks the commands in order; when one fails, or is an EVALSHA
// of an unseen script (NOSCRIPT), none is sent, and the connection's state
// is as before the call.
func (d *dedicated) DoMulti(ctx context.Context, multi ...rueidis.Completed) []rueidis.RedisResult {
	argvs := commands(multi)
	d.mu.Lock()
	saved := *d.conn
	for _, argv := range argvs {
		if e := d.conn.Feed(argv); d.ck.fault(e) {
			*d.conn = saved
			d.mu.Unlock()
			return errorResults(len(multi), e)
		}
	}
	if i := d.ck.unseenOf(argvs); i >= 0 {
		*d.conn = saved
		d.mu.Unlock()
		out := make([]rueidis.RedisResult, len(multi))
		for j := range out {
			out[j] = noScript(argvs[i])
		}
		return out
	}
	d.mu.Unlock()
	return d.DedicatedClient.DoMulti(ctx, multi...)
}
