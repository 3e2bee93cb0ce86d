package rueidishook_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/slotlint/slotlint"
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

	// DoStream and DoMultiStream are checked too.
	st := c.DoStream(ctx, c.B().Mget().Key("cart:1", "cart:2").Build())
	crossSlot(t, st.Error(), `MGET: keys "cart:1"`)
	st = c.DoMultiStream(ctx, c.B().Get().Key("cart:1").Build(), c.B().Mget().Key("cart:1", "cart:2").Build())
	crossSlot(t, st.Error(), `MGET: keys "cart:1"`)

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

	// MULTI and WATCH inside MULTI on a dedicated connection: the server
	// refuses both, and so does the wrapper, before sending them.
	misuse := func(d rueidis.DedicatedClient) (nested, watch error) {
		d.Do(ctx, d.B().Multi().Build())
		nested = d.Do(ctx, d.B().Multi().Build()).Error()
		watch = d.Do(ctx, d.B().Watch().Key("balance:c").Build()).Error()
		d.Do(ctx, d.B().Discard().Build())
		return nested, watch
	}
	raw.Dedicated(func(d rueidis.DedicatedClient) error {
		nested, watch := misuse(d)
		if nested == nil || !strings.Contains(nested.Error(), "MULTI calls can not be nested") || watch == nil || !strings.Contains(watch.Error(), "WATCH inside MULTI is not allowed") {
			t.Errorf("the server's answers: %v; %v", nested, watch)
		}
		return nil
	})
	c.Dedicated(func(d rueidis.DedicatedClient) error {
		nested, watch := misuse(d)
		var e *rawcheck.Error
		if !errors.As(nested, &e) || e.Kind != rawcheck.KindNestedMulti || !errors.As(watch, &e) || e.Kind != rawcheck.KindWatchInMulti {
			t.Errorf("the wrapper's answers: %v; %v", nested, watch)
		}
		return nil
	})

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

func clusterClient(t *testing.T) rueidis.Client {
	cl := redistest.Shared(t)
	raw, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: cl.Addrs(), DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close)
	return raw
}

// loadEverywhere puts src in the script cache of every node, as another
// client, or an earlier test, would have.
func loadEverywhere(t *testing.T, ctx context.Context, raw rueidis.Client, src string) {
	t.Helper()
	for addr, n := range raw.Nodes() {
		if err := n.Do(ctx, n.B().ScriptLoad().Script(src).Build()).Error(); err != nil {
			t.Fatalf("SCRIPT LOAD on %s: %v", addr, err)
		}
	}
}

func scriptFault(t *testing.T, err error, parts ...string) {
	t.Helper()
	var e *rawcheck.Error
	if !errors.As(err, &e) || e.Kind != rawcheck.KindScript {
		t.Fatalf("got %v (%T), want a *rawcheck.Error of kind script", err, err)
	}
	for _, p := range parts {
		if !strings.Contains(e.Error(), p) {
			t.Errorf("%q lacks %q", e.Error(), p)
		}
	}
}

func isNoScript(err error) bool {
	e, ok := rueidis.IsRedisErr(err)
	return ok && e.IsNoScript()
}

// Origin: a rate limiter (nagasirened/KatoUyi-Tools, rateLimit.lua) that
// builds its counter's key in the script from KEYS[1]: the key it touches
// is not the one it declares. The fixed form passes the counter's key.
const (
	rateLimitBad = `local key = 'rate.limit:' .. KEYS[1]
local current = tonumber(redis.call('GET', key) or '0')
if current + 1 > tonumber(ARGV[1]) then return 0 end
redis.call('INCRBY', key, 1)
redis.call('EXPIRE', key, 1)
return current + 1`
	rateLimitFixed = `local key = KEYS[1]
local current = tonumber(redis.call('GET', key) or '0')
if current + 1 > tonumber(ARGV[1]) then return 0 end
redis.call('INCRBY', key, 1)
redis.call('EXPIRE', key, 1)
return current + 1`
)

// TestLuaExec runs scripts with rueidis's Lua.Exec on a real Redis Cluster
// through the wrapper, which checks them by their source: a script that
// touches a key it was not given in KEYS is refused, its fixed form runs,
// with the server's script cache cold and warm.
func TestLuaExec(t *testing.T) {
	ctx := context.Background()
	raw := clusterClient(t)
	c := rueidishook.Wrap(raw)

	// Cold cache: EVALSHA gets NOSCRIPT, then EVAL carries the source.
	bad := rueidis.NewLuaScript(rateLimitBad)
	scriptFault(t, bad.Exec(ctx, c, []string{"rl:user:1"}, []string{"10"}).Error(), "EVAL:", "not declared in KEYS")
	fixed := rueidis.NewLuaScript(rateLimitFixed)
	if n, err := fixed.Exec(ctx, c, []string{"rate.limit:{rl:user:1}"}, []string{"10"}).AsInt64(); err != nil || n < 1 {
		t.Fatalf("fixed script: %d, %v", n, err)
	}

	// Warm cache: every node has both scripts; a new wrapper has seen
	// neither, answers their EVALSHA with NOSCRIPT itself, and checks the
	// EVAL that Lua.Exec sends next.
	loadEverywhere(t, ctx, raw, rateLimitBad)
	loadEverywhere(t, ctx, raw, rateLimitFixed)
	warm := rueidishook.Wrap(raw)
	scriptFault(t, bad.Exec(ctx, warm, []string{"rl:user:2"}, []string{"10"}).Error(), "EVAL:", "not declared in KEYS")
	if n, err := fixed.Exec(ctx, warm, []string{"rate.limit:{rl:user:2}"}, []string{"10"}).AsInt64(); err != nil || n < 1 {
		t.Fatalf("fixed script, warm cache: %d, %v", n, err)
	}
	// Once seen, the script's EVALSHA is checked against its source.
	err := warm.Do(ctx, warm.B().Evalsha().Sha1(sha1Hex(rateLimitBad)).Numkeys(1).Key("rl:user:3").Arg("10").Build()).Error()
	scriptFault(t, err, "EVALSHA:", "not declared in KEYS")

	// EVALSHA alone of a script the wrapper has not seen: NOSCRIPT,
	// unsent (the nodes have it).
	other := `return redis.call('GET', KEYS[1])`
	loadEverywhere(t, ctx, raw, other)
	if err := c.Do(ctx, c.B().Evalsha().Sha1(sha1Hex(other)).Numkeys(1).Key("rl:k").Build()).Error(); !isNoScript(err) {
		t.Fatalf("EVALSHA of an unseen script: %v", err)
	}
	// In a pipeline, it alone gets NOSCRIPT; the others are sent.
	rs := c.DoMulti(ctx,
		c.B().Evalsha().Sha1(sha1Hex(other)).Numkeys(1).Key("rl:k").Build(),
		c.B().Set().Key("rl:after").Value("1").Build())
	if !isNoScript(rs[0].Error()) || rs[1].Error() != nil {
		t.Fatalf("pipeline with an unseen script: %v, %v", rs[0].Error(), rs[1].Error())
	}
	if v, _ := raw.Do(ctx, raw.B().Get().Key("rl:after").Build()).ToString(); v != "1" {
		t.Errorf("the pipeline's other command did not run: %q", v)
	}
	// WithScripts gives the wrapper the source; PassUnseenScripts sends
	// the EVALSHA unchecked.
	reg := rueidishook.Wrap(raw, rueidishook.WithScripts(rateLimitBad))
	scriptFault(t, reg.Do(ctx, reg.B().Evalsha().Sha1(sha1Hex(rateLimitBad)).Numkeys(1).Key("rl:u").Arg("10").Build()).Error(), "EVALSHA:")
	pass := rueidishook.Wrap(raw, rueidishook.PassUnseenScripts())
	if err := pass.Do(ctx, pass.B().Evalsha().Sha1(sha1Hex(other)).Numkeys(1).Key("rl:k").Build()).Error(); err != nil && !rueidis.IsRedisNil(err) {
		t.Fatalf("PassUnseenScripts: %v", err)
	}
}

// TestLuaExecForms covers the other ways rueidis runs a script: EVAL
// only (NoSha), SCRIPT LOAD first (WithLoadSHA1), ExecMulti (SCRIPT LOAD
// on every node, then EVALSHA in one DoMulti), and the read-only forms,
// where a write is refused by Redis 7 as by the wrapper.
func TestLuaExecForms(t *testing.T) {
	ctx := context.Background()
	raw := clusterClient(t)
	c := rueidishook.Wrap(raw)

	scriptFault(t, rueidis.NewLuaScriptNoSha(rateLimitBad).Exec(ctx, c, []string{"rl:f:1"}, []string{"10"}).Error(), "EVAL:", "not declared in KEYS")
	loaded := rueidis.NewLuaScript(rateLimitBad, rueidis.WithLoadSHA1(true))
	scriptFault(t, loaded.Exec(ctx, c, []string{"rl:f:2"}, []string{"10"}).Error(), "EVALSHA:", "not declared in KEYS")
	for _, r := range rueidis.NewLuaScript(rateLimitBad).ExecMulti(ctx, c, rueidis.LuaExec{Keys: []string{"rl:f:3"}, Args: []string{"10"}}) {
		scriptFault(t, r.Error(), "EVALSHA:", "not declared in KEYS")
	}
	for _, r := range rueidis.NewLuaScript(rateLimitFixed).ExecMulti(ctx, c, rueidis.LuaExec{Keys: []string{"rate.limit:{rl:f:3}"}, Args: []string{"10"}}) {
		if err := r.Error(); err != nil {
			t.Errorf("ExecMulti, fixed script: %v", err)
		}
	}

	// A write in a script run with EVAL_RO: Redis 7 fails it ("Write
	// commands are not allowed from read-only scripts"), and so does the
	// wrapper, before sending it.
	write := `return redis.call('SET', KEYS[1], ARGV[1])`
	if err := rueidis.NewLuaScriptReadOnly(write).Exec(ctx, raw, []string{"rl:ro"}, []string{"v"}).Error(); err == nil || !strings.Contains(err.Error(), "Write commands are not allowed from read-only scripts") {
		t.Fatalf("the cluster ran a write with EVAL_RO: %v", err)
	}
	scriptFault(t, rueidis.NewLuaScriptReadOnly(write).Exec(ctx, c, []string{"rl:ro"}, []string{"v"}).Error(), "EVAL_RO:", "runs with EVAL_RO")
	read := "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])"
	if err := rueidis.NewLuaScriptReadOnly(read).Exec(ctx, c, []string{"rl:ro"}, nil).Error(); err != nil && !rueidis.IsRedisNil(err) {
		t.Fatalf("read-only script: %v", err)
	}
}

func sha1Hex(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}

// TestLuaStream runs scripts with DoStream and DoMultiStream on a real
// Redis Cluster through the wrapper. Their EVALSHA of a script the
// wrapper has not seen gets a stream whose error is NOSCRIPT, unsent, as
// from a server whose script cache is empty, though the nodes have the
// script; the EVAL with the source that a caller sends next is checked.
func TestLuaStream(t *testing.T) {
	ctx := context.Background()
	raw := clusterClient(t)
	incr := `return redis.call('INCR', KEYS[1])`
	loadEverywhere(t, ctx, raw, rateLimitBad)
	loadEverywhere(t, ctx, raw, incr)
	for _, keys := range [][]string{{"{rl:s}:n"}, {"{rl:m}:a", "{rl:m}:n"}} {
		if err := raw.Do(ctx, raw.B().Del().Key(keys...).Build()).Error(); err != nil {
			t.Fatal(err)
		}
	}
	c := rueidishook.Wrap(raw)
	evalsha := func(c rueidis.Client, src, key string) rueidis.Completed {
		return c.B().Evalsha().Sha1(sha1Hex(src)).Numkeys(1).Key(key).Arg("10").Build()
	}
	eval := func(c rueidis.Client, src, key string) rueidis.Completed {
		return c.B().Eval().Script(src).Numkeys(1).Key(key).Arg("10").Build()
	}
	// stream reads one reply of s.
	stream := func(s *rueidis.RedisResultStream) (string, error) {
		var b strings.Builder
		_, err := s.WriteTo(&b)
		return b.String(), err
	}
	// once sends cmd with DoStream and reads its reply.
	once := func(c rueidis.Client, cmd rueidis.Completed) (string, error) {
		s := c.DoStream(ctx, cmd)
		return stream(&s)
	}
	exists := func(key string) bool {
		t.Helper()
		n, err := raw.Do(ctx, raw.B().Exists().Key(key).Build()).AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		return n == 1
	}

	// A server's own NOSCRIPT in a stream: WriteTo returns it, and the
	// stream ends with io.EOF.
	st := raw.DoStream(ctx, evalsha(raw, "return 'never loaded'", "{rl:s}:n"))
	if _, err := stream(&st); !isNoScript(err) || st.Error() != io.EOF {
		t.Fatalf("the server's NOSCRIPT in a stream: %v, then %v", err, st.Error())
	}

	// Unseen: NOSCRIPT, unsent (the script would have made its key); the
	// EVAL that follows runs, and then the EVALSHA runs too.
	st = c.DoStream(ctx, evalsha(c, incr, "{rl:s}:n"))
	if _, err := stream(&st); !isNoScript(err) || !isNoScript(st.Error()) {
		t.Fatalf("DoStream, EVALSHA of an unseen script: %v, %v", err, st.Error())
	}
	if exists("{rl:s}:n") {
		t.Fatal("the unseen script was sent")
	}
	if v, err := once(c, eval(c, incr, "{rl:s}:n")); err != nil || v != "1" {
		t.Fatalf("DoStream, EVAL: %q, %v", v, err)
	}
	if v, err := once(c, evalsha(c, incr, "{rl:s}:n")); err != nil || v != "2" {
		t.Fatalf("DoStream, EVALSHA once seen: %q, %v", v, err)
	}
	// A script with an undeclared key: NOSCRIPT, then its EVAL is
	// refused, and so is its EVALSHA once seen.
	if _, err := once(c, evalsha(c, rateLimitBad, "rl:s:1")); !isNoScript(err) {
		t.Fatalf("DoStream, EVALSHA of an unseen script: %v", err)
	}
	st = c.DoStream(ctx, eval(c, rateLimitBad, "rl:s:1"))
	scriptFault(t, st.Error(), "EVAL:", "not declared in KEYS")
	st = c.DoStream(ctx, evalsha(c, rateLimitBad, "rl:s:1"))
	scriptFault(t, st.Error(), "EVALSHA:", "not declared in KEYS")

	// DoMultiStream with an unseen script: none of its commands is sent.
	c2 := rueidishook.Wrap(raw)
	multi := func() rueidis.MultiRedisResultStream {
		return c2.DoMultiStream(ctx, c2.B().Set().Key("{rl:m}:a").Value("1").Build(), evalsha(c2, incr, "{rl:m}:n"))
	}
	ms := multi()
	if ms.HasNext() || !isNoScript(ms.Error()) {
		t.Fatalf("DoMultiStream with an unseen script: %v", ms.Error())
	}
	if exists("{rl:m}:a") || exists("{rl:m}:n") {
		t.Fatal("DoMultiStream with an unseen script sent commands")
	}
	// Once the wrapper has seen the script, the same DoMultiStream runs.
	if err := c2.Do(ctx, eval(c2, incr, "{rl:m}:n")).Error(); err != nil {
		t.Fatal(err)
	}
	ms = multi()
	var got []string
	for ms.HasNext() {
		v, err := stream(&ms)
		if err != nil {
			t.Fatalf("DoMultiStream, seen script: %v", err)
		}
		got = append(got, v)
	}
	if strings.Join(got, " ") != "OK 2" {
		t.Fatalf("DoMultiStream, seen script: %q", got)
	}

	// PassUnseenScripts sends the EVALSHA, unchecked.
	pass := rueidishook.Wrap(raw, rueidishook.PassUnseenScripts())
	if v, err := once(pass, evalsha(pass, incr, "{rl:m}:n")); err != nil || v != "3" {
		t.Fatalf("PassUnseenScripts, DoStream: %q, %v", v, err)
	}
}

func readinessFault(t *testing.T, err error, kind, head string) {
	t.Helper()
	var e *rawcheck.Error
	if !errors.As(err, &e) || e.Kind != kind || !strings.HasPrefix(e.Error(), head) {
		t.Errorf("got %v, want a *rawcheck.Error of kind %s starting %q", err, kind, head)
	}
}

// Origin: the backup script of a WhatsApp lead bot (refrimix,
// backup_before_clean_state.py, Python with redis-py), which counts the keys
// of each prefix with a script, "return #redis.call('KEYS', ARGV[1])": on a
// cluster KEYS lists the keys of the node the script runs on. The fixed form keeps the keys of a prefix in a
// set and counts it, the set given in KEYS.
const (
	countPrefixBad   = `return #redis.call('KEYS', ARGV[1])`
	countPrefixFixed = `return redis.call('SCARD', KEYS[1])`
)

// TestClusterReadiness: with ClusterReadiness, on a standalone server, the
// wrapper refuses, unsent, the keyspace-wide commands and the databases
// other than 0 that a cluster client sends to one node or a cluster
// refuses, through each of its ways of sending, and a script that calls
// KEYS; their fixed forms run. Without the option it lets them through.
func TestClusterReadiness(t *testing.T) {
	ctx := context.Background()
	c, raw := standalone(t, rueidishook.ClusterReadiness())
	for _, k := range []string{"session:1", "session:2", "{o}:1"} {
		if err := raw.Do(ctx, raw.B().Set().Key(k).Value("v").Build()).Error(); err != nil {
			t.Fatal(err)
		}
	}

	const keysHead = "ERR KEYS reaches one node of a cluster (slotlint: KEYS: a cluster client sends KEYS to one node"
	readinessFault(t, c.Do(ctx, c.B().Keys().Pattern("session:*").Build()).Error(), rawcheck.KindKeyspaceWide, keysHead)
	readinessFault(t, c.Do(ctx, c.B().Scan().Cursor(0).Match("session:*").Build()).Error(), rawcheck.KindKeyspaceWide, "ERR SCAN reaches one node of a cluster")
	readinessFault(t, c.Do(ctx, c.B().Randomkey().Build()).Error(), rawcheck.KindKeyspaceWide, "ERR RANDOMKEY reaches one node of a cluster")
	readinessFault(t, c.Do(ctx, c.B().Copy().Source("{o}:1").Destination("{o}:2").Db(2).Build()).Error(), rawcheck.KindDatabase, "ERR Copying to another database is not allowed in cluster mode (slotlint: COPY: database 2")
	readinessFault(t, c.Do(ctx, c.B().Move().Key("{o}:1").Db(2).Build()).Error(), rawcheck.KindDatabase, "ERR MOVE is not allowed in cluster mode")
	readinessFault(t, c.Do(ctx, c.B().Swapdb().Index1(0).Index2(1).Build()).Error(), rawcheck.KindDatabase, "ERR SWAPDB is not allowed in cluster mode")
	if n, _ := raw.Do(ctx, raw.B().Exists().Key("{o}:1").Build()).AsInt64(); n != 1 {
		t.Error("the refused MOVE or SWAPDB was sent")
	}

	// Each command of a DoMulti, DoMultiStream, DoCache and DoMultiCache;
	// DoStream.
	for _, r := range c.DoMulti(ctx, c.B().Get().Key("{o}:1").Build(), c.B().Keys().Pattern("*").Build()) {
		readinessFault(t, r.Error(), rawcheck.KindKeyspaceWide, keysHead)
	}
	st := c.DoStream(ctx, c.B().Scan().Cursor(0).Build())
	readinessFault(t, st.Error(), rawcheck.KindKeyspaceWide, "ERR SCAN reaches one node")
	ms := c.DoMultiStream(ctx, c.B().Get().Key("{o}:1").Build(), c.B().Dbsize().Build())
	readinessFault(t, ms.Error(), rawcheck.KindKeyspaceWide, "ERR DBSIZE reaches one node")
	keysCached := rueidis.Cacheable(c.B().Keys().Pattern("*").Build())
	readinessFault(t, c.DoCache(ctx, keysCached, time.Minute).Error(), rawcheck.KindKeyspaceWide, keysHead)
	for _, r := range c.DoMultiCache(ctx, rueidis.CT(c.B().Get().Key("{o}:1").Cache(), time.Minute), rueidis.CT(keysCached, time.Minute)) {
		readinessFault(t, r.Error(), rawcheck.KindKeyspaceWide, keysHead)
	}

	// SELECT on a dedicated connection: refused, unsent, so the SET that
	// follows writes database 0.
	err := c.Dedicated(func(d rueidis.DedicatedClient) error {
		readinessFault(t, d.Do(ctx, d.B().Select().Index(3).Build()).Error(), rawcheck.KindDatabase, "ERR SELECT is not allowed in cluster mode (slotlint: SELECT: database 3")
		return d.Do(ctx, d.B().Set().Key("after:select").Value("1").Build()).Error()
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := raw.Do(ctx, raw.B().Get().Key("after:select").Build()).ToString(); v != "1" {
		t.Errorf("after the refused SELECT 3, the SET did not write database 0: %q", v)
	}
	readinessFault(t, c.Do(ctx, c.B().Select().Index(3).Build()).Error(), rawcheck.KindDatabase, "ERR SELECT is not allowed in cluster mode")

	// A script that lists keys with KEYS: Lua.Exec's EVALSHA gets NOSCRIPT
	// from the wrapper, and the EVAL with its source is refused.
	err = rueidis.NewLuaScript(countPrefixBad).Exec(ctx, c, nil, []string{"session:*"}).Error()
	scriptFault(t, err, "EVAL:", `redis.call("KEYS", ARGV[1]) reads the keys of one node`)

	// The fixed forms run: database 0, one key's SCAN, the keys passed to
	// the script.
	for _, cmd := range []rueidis.Completed{
		c.B().Copy().Source("{o}:1").Destination("{o}:2").Db(0).Replace().Build(),
		c.B().Select().Index(0).Build(),
		c.B().Hscan().Key("{o}:h").Cursor(0).Build(),
	} {
		if err := c.Do(ctx, cmd).Error(); err != nil {
			t.Errorf("%q: %v", cmd.Commands(), err)
		}
	}
	raw.Do(ctx, raw.B().Sadd().Key("sessions").Member("session:1", "session:2").Build())
	if n, err := rueidis.NewLuaScript(countPrefixFixed).Exec(ctx, c, []string{"sessions"}, nil).AsInt64(); err != nil || n != 2 {
		t.Errorf("fixed script: %d, %v", n, err)
	}
	// The fix of a keyspace-wide command: run it on each node's client
	// (Nodes()), which the wrapper leaves alone, also in a script; a
	// database other than 0 is still refused there.
	nodes := c.Nodes()
	if len(nodes) == 0 {
		t.Fatal("the client has no nodes")
	}
	for addr, n := range nodes {
		if keys, err := n.Do(ctx, n.B().Keys().Pattern("session:*").Build()).AsStrSlice(); err != nil || len(keys) != 2 {
			t.Errorf("KEYS on node %s: %q, %v", addr, keys, err)
		}
		if n, err := rueidis.NewLuaScript(countPrefixBad).Exec(ctx, n, nil, []string{"session:*"}).AsInt64(); err != nil || n != 2 {
			t.Errorf("the KEYS script on node %s: %d, %v", addr, n, err)
		}
		readinessFault(t, n.Do(ctx, n.B().Select().Index(3).Build()).Error(), rawcheck.KindDatabase, "ERR SELECT is not allowed in cluster mode")
	}

	kinds := map[string]int{}
	for _, f := range rueidishook.Findings(c) {
		kinds[f.Kind]++
	}
	if kinds[rawcheck.KindKeyspaceWide] != 8 || kinds[rawcheck.KindDatabase] != 6 || kinds[rawcheck.KindScript] != 1 {
		t.Errorf("findings by kind %v", kinds)
	}

	// Without the option, the wrapper sends them.
	plain := rueidishook.Wrap(raw)
	if keys, err := plain.Do(ctx, plain.B().Keys().Pattern("session:*").Build()).AsStrSlice(); err != nil || len(keys) != 2 {
		t.Errorf("KEYS without ClusterReadiness: %q, %v", keys, err)
	}
	if n, err := rueidis.NewLuaScript(countPrefixBad).Exec(ctx, plain, nil, []string{"session:*"}).AsInt64(); err != nil || n != 2 {
		t.Errorf("the KEYS script without ClusterReadiness: %d, %v", n, err)
	}
	err = plain.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Select().Index(3).Build()).Error(); err != nil {
			return err
		}
		return d.Do(ctx, d.B().Select().Index(0).Build()).Error()
	})
	if err != nil || len(rueidishook.Findings(plain)) != 0 {
		t.Errorf("SELECT 3 without ClusterReadiness: %v; findings %v", err, rueidishook.Findings(plain))
	}
}

// TestClusterReadinessFailTest: with FailTest, the commands run and the
// test fails at its end with each finding.
func TestClusterReadinessFailTest(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{}
	c, raw := standalone(t, rueidishook.ClusterReadiness(), rueidishook.FailTest(rec))
	raw.Do(ctx, raw.B().Set().Key("session:1").Value("v").Build())
	if keys, err := c.Do(ctx, c.B().Keys().Pattern("session:*").Build()).AsStrSlice(); err != nil || len(keys) != 1 {
		t.Errorf("FailTest lets KEYS through: %q, %v", keys, err)
	}
	err := c.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Select().Index(3).Build()).Error(); err != nil {
			return err
		}
		return d.Do(ctx, d.B().Select().Index(0).Build()).Error()
	})
	if err != nil {
		t.Errorf("FailTest lets SELECT 3 through: %v", err)
	}
	if n, err := rueidis.NewLuaScript(countPrefixBad).Exec(ctx, c, nil, []string{"session:*"}).AsInt64(); err != nil || n != 1 {
		t.Errorf("FailTest lets the KEYS script through: %d, %v", n, err)
	}
	for _, f := range rec.cleanups {
		f()
	}
	want := []string{"ERR KEYS reaches one node", "ERR SELECT is not allowed in cluster mode", "reads the keys of one node"}
	if len(rec.errs) != len(want) {
		t.Fatalf("test errors: %q", rec.errs)
	}
	for i, w := range want {
		if !strings.Contains(rec.errs[i], w) {
			t.Errorf("test error %d: %q lacks %q", i, rec.errs[i], w)
		}
	}
}

// TestClusterReadinessValkey: under target: valkey-9, whose cluster has
// other databases, SELECT is not reported; KEYS is.
func TestClusterReadinessValkey(t *testing.T) {
	ctx := context.Background()
	rules, err := slotlint.ParseRules("valkey.yaml", []byte("version: 1\ntarget: valkey-9\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := standalone(t, rueidishook.ClusterReadiness(), rueidishook.WithRules(rules))
	if err := c.Do(ctx, c.B().Move().Key("{o}:none").Db(2).Build()).Error(); err != nil {
		t.Errorf("MOVE under valkey-9: %v", err)
	}
	readinessFault(t, c.Do(ctx, c.B().Keys().Pattern("*").Build()).Error(), rawcheck.KindKeyspaceWide, "ERR KEYS reaches one node")
}

// TestClusterReadinessSelectDB: rueidis sends the SELECT of
// ClientOption.SelectDB on connecting, around the wrapper, which does not
// see it: the commands land in database 3 and nothing is reported.
func TestClusterReadinessSelectDB(t *testing.T) {
	ctx := context.Background()
	srv := redistest.StartStandalone(t)
	db3, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}, DisableCache: true, SelectDB: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db3.Close)
	c := rueidishook.Wrap(db3, rueidishook.ClusterReadiness())
	if err := c.Do(ctx, c.B().Set().Key("in:db3").Value("v").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if f := rueidishook.Findings(c); len(f) != 0 {
		t.Errorf("findings: %v", f)
	}
	raw, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}, DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close)
	raw.Dedicated(func(d rueidis.DedicatedClient) error {
		for _, db := range []int64{0, 3} {
			d.Do(ctx, d.B().Select().Index(db).Build())
			n, err := d.Do(ctx, d.B().Exists().Key("in:db3").Build()).AsInt64()
			if err != nil || n != map[int64]int64{0: 0, 3: 1}[db] {
				t.Errorf("database %d has in:db3: %d, %v", db, n, err)
			}
		}
		return nil
	})
}
