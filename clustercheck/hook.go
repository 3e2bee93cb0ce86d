package clustercheck

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/clustercheck/internal/crossslot"
	"github.com/slotlint/slotlint/clustercheck/internal/scriptcheck"
	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

// A Hook is a go-redis hook for test suites that reports what a Redis
// Cluster would refuse, even when the tests run against a single server,
// and the transactions that protect nothing:
//
//   - a command whose keys span slots (RENAME a b, MGET a b, ...);
//   - a transaction (TxPipeline, TxPipelined, Watch's TxPipelined) whose
//     keys span slots, counting the watched keys;
//   - a WATCH whose keys span slots, and a command sent inside Watch's
//     function whose keys are in another slot than the watched ones;
//   - a script (EVAL, EVALSHA, EVAL_RO, EVALSHA_RO, FCALL, FCALL_RO) whose
//     KEYS span slots, and an EVAL, EVALSHA, EVAL_RO or EVALSHA_RO script
//     that touches keys it was not given in KEYS, whose flags a cluster
//     refuses, or that writes while run with EVAL_RO or EVALSHA_RO
//     (package luacheck);
//   - a WATCH queued inside MULTI (KindWatchInMulti), and a MULTI queued
//     inside MULTI (KindNestedMulti), which Redis refuses, whether queued in
//     a TxPipeline or TxPipelined or sent with Do on a connection already
//     in MULTI (a Conn, or Watch's Tx);
//   - an EXEC queued inside a TxPipeline or TxPipelined (KindExecInMulti),
//     which ends the transaction early: the commands queued after it run
//     outside any transaction;
//   - a raw WATCH, MULTI or EXEC sent with Do on a pooled client
//     (*redis.Client, *redis.ClusterClient, *redis.Ring), where each call
//     may take another connection (KindPooledTransaction); the same on a
//     Conn or inside Watch's function is fine.
//
// The hook checks a script by its source. It remembers the source of every
// script it sees go by (SCRIPT LOAD, EVAL, EVAL_RO) and those given with WithScripts
// or RegisterScript. An EVALSHA of any other script it answers itself with
// NOSCRIPT, unsent, as a server whose script cache is empty would: go-redis's
// Script.Run then sends the script with EVAL, which the hook checks. So a
// test suite cannot pass because the server already had the script cached.
// PassUnseenScripts sends such an EVALSHA unchecked instead.
//
// A plain pipeline is not a transaction: its commands may be in different
// slots, each checked on its own.
//
// The hook finds a command's keys with Redis's key specs: the server's,
// which it asks for once with COMMAND through the client it is added to, on
// the first command that has keys, or the rules' commands table
// (slotlint.Builtin) until then and when the server does not answer. The
// commands that go-redis sends when it opens a connection (HELLO, AUTH,
// CLIENT SETINFO, SELECT, ...) have no keys and pass untouched.
//
// NewHook's options choose what happens to a finding: ReturnError, the
// default, fails the command with a *CrossSlotError before it is sent, as a
// cluster would; FailTest lets the command through and fails the test when
// it ends. Either way Findings returns what the hook found.
//
// Add the hook to a *redis.Client, or any redis.UniversalClient. On a
// *redis.ClusterClient, add it to the node clients too, with
// ClusterClient.OnNewNode: a cluster client runs Watch's function on a
// node's client, so without it a write under WATCH to another slot goes
// unseen. On a *redis.Ring, add it to the shards' clients too, with
// RingOptions.NewClient (Ring.OnNewNode reaches only shards added later):
// a Ring runs Watch's function on a shard's client.
//
//	rdb := redis.NewClient(opts)
//	rdb.AddHook(clustercheck.NewHook(clustercheck.FailTest(t)))
//
//	h := clustercheck.NewHook(clustercheck.FailTest(t))
//	cc := redis.NewClusterClient(clusterOpts)
//	cc.AddHook(h)
//	cc.OnNewNode(func(node *redis.Client) { node.AddHook(h) })
//
// A Hook is safe for concurrent use, and may be added to several clients.
type Hook struct {
	mode    mode
	t       CleanupTB
	rules   *ruleset.Rules
	ask     bool
	table   *cmdTable
	scripts scriptcheck.Cache
	command func(string) *ruleset.Command // h.table.command, made once
	// passUnseen sends EVALSHA of unseen scripts unchecked.
	passUnseen bool
	// readiness reports keyspace-wide commands and databases other than 0
	// too (ClusterReadiness).
	readiness bool

	mu       sync.Mutex
	findings []*CrossSlotError
	reported map[string]bool

	// The chain go-redis is building (see attach): buildSem is held from
	// DialHook to the last ProcessPipelineHook call of one build.
	buildSem chan struct{}
	bmu      sync.Mutex
	build    *building // under bmu
	// alone is set, under bmu, once go-redis has called ProcessHook or
	// ProcessPipelineHook outside a build (see attach).
	alone bool
}

// building is a hook chain that go-redis is building.
type building struct {
	ch *chain
	// careful: the hook has seen calls outside builds, so it checks that
	// each call of the build comes from the function that called DialHook
	// (caller).
	careful bool
	caller  uintptr
	p, pp   int         // ProcessHook and ProcessPipelineHook calls taken
	closed  atomic.Bool // the build's calls are all made
}

type mode int

const (
	modeReturnError mode = iota
	modeFailTest
)

// CleanupTB is the part of testing.TB that FailTest uses.
type CleanupTB interface {
	TB
	Cleanup(func())
}

// A HookOption configures a Hook.
type HookOption func(*Hook)

// ReturnError makes the hook fail each command, transaction or script it
// finds fault with, before sending it, with a *CrossSlotError whose message
// starts as Redis Cluster's does: "CROSSSLOT Keys in request don't hash to
// the same slot". Other commands of a plain pipeline are sent. This is the
// default.
func ReturnError() HookOption {
	return func(h *Hook) { h.mode, h.t = modeReturnError, nil }
}

// FailTest makes the hook send every command as it is, record what it finds,
// and report each finding with t.Errorf when the test ends (t.Cleanup), so
// the test fails.
func FailTest(t CleanupTB) HookOption {
	return func(h *Hook) { h.mode, h.t = modeFailTest, t }
}

// WithRules makes the hook take key specs from the commands table of rules
// instead of slotlint.Builtin()'s, when the server's are not known.
func WithRules(rules *ruleset.Rules) HookOption {
	return func(h *Hook) { h.rules = rules }
}

// WithScripts gives the hook the sources of scripts that the program runs
// with EVALSHA without ever sending them with EVAL or SCRIPT LOAD through
// the hooked client (they were loaded elsewhere), so that the hook can check
// them.
func WithScripts(sources ...string) HookOption {
	return func(h *Hook) {
		for _, src := range sources {
			h.scripts.Remember(src)
		}
	}
}

// PassUnseenScripts makes the hook send an EVALSHA of a script whose source
// it has not seen, unchecked, instead of answering NOSCRIPT. A test suite
// then passes whatever such a script does.
func PassUnseenScripts() HookOption {
	return func(h *Hook) { h.passUnseen = true }
}

// ClusterReadiness makes the hook report, besides keys in different slots,
// what else a cluster does unlike one server: a keyspace-wide command
// (KEYS, SCAN, RANDOMKEY, DBSIZE, FLUSHDB, FLUSHALL: keyspace-wide in the
// rules' commands table), which a cluster client sends to one node, also
// inside a script; and a database other than 0 (SELECT n, as go-redis sends
// it when Options.DB is set, SWAPDB, MOVE, COPY ... DB n), which a cluster
// refuses, unless the rules' target is valkey-9. Use it on a client that
// is a cluster client in production; test setup that runs FLUSHDB should
// use a client without the hook.
func ClusterReadiness() HookOption {
	return func(h *Hook) { h.readiness = true }
}

// RegisterScript gives the hook the source of a script, as WithScripts does.
func (h *Hook) RegisterScript(src string) { h.scripts.Remember(src) }

// LocalSpecs makes the hook use the rules' commands table only, without
// asking the server for its key specs.
func LocalSpecs() HookOption {
	return func(h *Hook) { h.ask = false }
}

// NewHook returns a hook configured by opts; see Hook.
func NewHook(opts ...HookOption) *Hook {
	h := &Hook{ask: true, reported: map[string]bool{}, buildSem: make(chan struct{}, 1)}
	for _, o := range opts {
		o(h)
	}
	if h.rules == nil {
		h.rules = defaultRules()
	}
	h.table = newCmdTable(h.rules, h.ask)
	h.command = h.table.command
	if h.mode == modeFailTest {
		t := h.t
		t.Cleanup(func() {
			for _, f := range h.Findings() {
				t.Errorf("%v", f)
			}
		})
	}
	return h
}

// Findings returns what the hook has found so far, each finding once, in
// either mode: with ReturnError, the faults it failed commands with.
func (h *Hook) Findings() []*CrossSlotError {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*CrossSlotError(nil), h.findings...)
}

// ready records a readiness fault of one command sent on its own, and
// returns what the command fails with.
func (h *Hook) ready(name string, args []any) error {
	if e := h.readinessFault(name, args); e != nil {
		return h.fault(e)
	}
	return nil
}

// readinessFault returns the keyspace-wide or database fault of a command,
// or nil.
func (h *Hook) readinessFault(name string, args []any) *CrossSlotError {
	upper := strings.ToUpper(name)
	kind, reason, fix, ok := crossslot.Readiness(h.rules, upper, stringArgs(args[1:]))
	if !ok {
		return nil
	}
	return &CrossSlotError{Kind: kind, Command: upper, Reason: reason, Fix: fix}
}

// fault records e and returns what the command fails with: e with
// ReturnError, nil with FailTest, which sends the command as it is.
func (h *Hook) fault(e *CrossSlotError) error {
	h.record(e)
	if h.mode == modeReturnError {
		return e
	}
	return nil
}

func (h *Hook) record(e *CrossSlotError) {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := e.Error()
	if h.reported[key] {
		return
	}
	h.reported[key] = true
	h.findings = append(h.findings, e)
}

// Kinds of CrossSlotError.
const (
	// KindKeyspaceWide is a keyspace-wide command (ClusterReadiness).
	KindKeyspaceWide = crossslot.KindKeyspaceWide
	// KindDatabase is a database other than 0 (ClusterReadiness).
	KindDatabase    = crossslot.KindDatabase
	KindCommand     = "command"     // one command's keys span slots
	KindTransaction = "transaction" // a MULTI/EXEC's keys span slots
	KindWatch       = "watch"       // WATCH's keys, or keys used under WATCH, span slots
	KindScript      = "script"      // a script's KEYS span slots, or it touches undeclared keys
	// KindWatchInMulti is a WATCH queued inside MULTI (a TxPipeline or
	// TxPipelined), which Redis refuses.
	KindWatchInMulti = crossslot.KindWatchInMulti
	// KindPooledTransaction is a raw WATCH, MULTI or EXEC sent with Do (or
	// Process) on a pooled client: *redis.Client, *redis.ClusterClient,
	// *redis.Ring. Each call may take another connection from the pool, so
	// the WATCH protects nothing, and a connection may go back to the pool
	// inside MULTI.
	KindPooledTransaction = crossslot.KindPooledTransaction
	// KindNestedMulti is a MULTI queued inside MULTI (a TxPipeline or
	// TxPipelined), or sent with Do on a connection already in MULTI (a
	// Conn, or Watch's Tx), which Redis refuses: "MULTI calls can not be
	// nested".
	KindNestedMulti = crossslot.KindNestedMulti
	// KindExecInMulti is an EXEC queued inside a TxPipeline or TxPipelined,
	// which send EXEC themselves: Redis runs the commands queued before it
	// as the transaction, those after it outside any transaction, and
	// answers the last EXEC "ERR EXEC without MULTI".
	KindExecInMulti = crossslot.KindExecInMulti
	// KindNoScript is an EVALSHA of a script whose source the hook has not
	// seen: it cannot check the script's keys (see Hook).
	KindNoScript = crossslot.KindNoScript
)

// A CrossSlotError is what the hook found wrong with a command, transaction,
// WATCH or script: what a Redis Cluster would refuse.
type CrossSlotError struct {
	// Kind is one of the Kind constants: KindCommand, KindTransaction,
	// KindWatch, KindScript, KindWatchInMulti, KindNestedMulti,
	// KindExecInMulti, KindPooledTransaction, KindNoScript.
	Kind string
	// Command names what was sent: "RENAME", "MULTI/EXEC", "WATCH",
	// "EVALSHA".
	Command string
	// Keys are the keys involved, in order, and Slots their slots.
	Keys  []string
	Slots []int
	// Reason and Fix explain the fault, as keyspace.Colocation's do, or
	// as the script check's findings do.
	Reason string
	Fix    string
	// Script holds the script check's findings, for KindScript.
	Script []luacheck.Finding
}

func (e *CrossSlotError) Error() string {
	return crossslot.Message(crossslot.Head(e.Kind, e.Command), e.Command, e.Reason, e.Fix)
}

// RedisError marks the error as a server reply for go-redis, as the
// CROSSSLOT error of a cluster is.
func (e *CrossSlotError) RedisError() {}

// buildWait bounds the wait for another build of a hook chain to end.
const buildWait = time.Second

// DialHook implements redis.Hook. The hook does not look at connections; it
// uses the call to tie together the hooks go-redis builds for one client or
// transaction (see attach).
func (h *Hook) DialHook(next redis.DialHook) redis.DialHook {
	select {
	case h.buildSem <- struct{}{}:
	default:
		// Another client or transaction is building its chain, on
		// another goroutine: its other calls follow at once.
		t := time.NewTimer(buildWait)
		select {
		case h.buildSem <- struct{}{}:
			t.Stop()
		case <-t.C:
			// A build that never ended (a go-redis that calls the hooks
			// otherwise): this chain goes without the tie.
			return next
		}
	}
	b := &building{ch: &chain{h: h}}
	h.bmu.Lock()
	b.careful = h.alone
	h.bmu.Unlock()
	if b.careful {
		b.caller = callerEntry()
	}
	h.bmu.Lock()
	h.build = b
	h.bmu.Unlock()
	return next
}

// ProcessHook implements redis.Hook.
func (h *Hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	ch, b := h.attach(false, next)
	return func(ctx context.Context, cmd redis.Cmder) error {
		return ch.use(b).processCmd(ctx, cmd, next)
	}
}

// ProcessPipelineHook implements redis.Hook, for pipelines and
// transactions.
func (h *Hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	ch, b := h.attach(true, nil)
	return func(ctx context.Context, cmds []redis.Cmder) error {
		return ch.use(b).processPipeline(ctx, cmds, next)
	}
}

// attach returns the chain for a ProcessHook (pipeline false) or
// ProcessPipelineHook call, and the build it belongs to, if any.
//
// go-redis builds a client's (or a transaction's) hook chain by calling,
// for each hook, DialHook, ProcessHook and ProcessPipelineHook twice
// (pipeline, then transaction), one after the other, from one function
// (hooksState.rebuild); the chain ties them together, so that a transaction
// queued in Watch's function knows the keys its WATCH watched. DialHook
// opens a build and holds buildSem until its last call, so two builds never
// mix, and no goroutine ID is needed.
//
// go-redis also calls ProcessHook and ProcessPipelineHook alone, for one
// command or pipeline (cluster pipelines, autopipelining), maybe while
// another goroutine builds. Such a call gets a chain of its own. Once the
// hook has seen one outside a build, it checks, in every later build, that
// each call comes from the function that called DialHook (runtime.Callers,
// a few hundred nanoseconds a call). Until then, a call out of the build's
// order, or a function of the build run before the build ends, unlinks the
// build's chain: it then never holds watched keys, so a mixed-up build can
// only miss a finding, never report a false one.
//
//go:noinline
func (h *Hook) attach(pipeline bool, process redis.ProcessHook) (*chain, *building) {
	h.bmu.Lock()
	b := h.build
	if b == nil {
		h.alone = true
		h.bmu.Unlock()
		return &chain{h: h, process: process}, nil
	}
	h.bmu.Unlock()
	if b.careful && callerOf(4) != b.caller {
		return &chain{h: h, process: process}, nil
	}
	h.bmu.Lock()
	defer h.bmu.Unlock()
	if h.build != b {
		return &chain{h: h, process: process}, nil
	}
	switch {
	case !pipeline && b.p == 0:
		b.p++
		b.ch.process = process
	case pipeline && b.p == 1:
		b.pp++
		if b.pp == 2 {
			h.build = nil
			b.closed.Store(true)
			<-h.buildSem
		}
	default:
		// Out of order: another goroutine's call came in between.
		b.ch.unlink()
		return &chain{h: h, process: process}, nil
	}
	return b.ch, b
}

// use returns the chain to check a command with: ch, or a chain of its own
// for a call made before the build of ch ended, which is no call of the
// build's (it unlinks the build's chain).
func (ch *chain) use(b *building) *chain {
	if b == nil || b.closed.Load() {
		return ch
	}
	ch.unlink()
	return &chain{h: ch.h, process: ch.process}
}

// callerEntry returns the entry of the function that called the caller of
// callerEntry.
//
//go:noinline
func callerEntry() uintptr { return callerOf(4) }

// callerOf returns the entry of the function skip frames up, counting
// runtime.Callers and callerOf: 4 is the caller of callerOf's caller's
// caller. Inlined calls have the entry of the function they are inlined in.
//
//go:noinline
func callerOf(skip int) uintptr {
	var pc [1]uintptr
	if runtime.Callers(skip, pc[:]) == 0 {
		return 0
	}
	f := runtime.FuncForPC(pc[0] - 1)
	if f == nil {
		return 0
	}
	return f.Entry()
}

// A chain is the hook's state for one client or transaction.
type chain struct {
	h       *Hook
	process redis.ProcessHook // the next process hook, to fetch COMMAND

	mu      sync.Mutex
	watched []string // keys under WATCH, nil when none
	// multi: a MULTI sent with Do on the chain's connection (a Conn, or
	// Watch's Tx) has not been ended by EXEC, DISCARD or RESET. It is never
	// set on a pooled client's chain, nor by a pipeline, whose connection
	// the hook cannot follow: it may miss a nested MULTI, never report a
	// false one.
	multi    bool
	unlinked bool // the chain's build was mixed up: it keeps no WATCH or MULTI state
}

func (ch *chain) watchedKeys() []string {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.watched
}

func (ch *chain) setWatched(keys []string) {
	ch.mu.Lock()
	if !ch.unlinked {
		ch.watched = keys
	}
	ch.mu.Unlock()
}

func (ch *chain) addWatched(keys []string) {
	ch.mu.Lock()
	if !ch.unlinked {
		ch.watched = append(append([]string(nil), ch.watched...), keys...)
	}
	ch.mu.Unlock()
}

func (ch *chain) inMulti() bool {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.multi
}

func (ch *chain) setMulti(on bool) {
	ch.mu.Lock()
	if !ch.unlinked {
		ch.multi = on
	}
	ch.mu.Unlock()
}

func (ch *chain) unlink() {
	ch.mu.Lock()
	ch.unlinked, ch.watched, ch.multi = true, nil, false
	ch.mu.Unlock()
}

// processCmd checks one command sent on its own.
func (ch *chain) processCmd(ctx context.Context, cmd redis.Cmder, next redis.ProcessHook) error {
	h := ch.h
	args := cmd.Args()
	if len(args) == 0 {
		return next(ctx, cmd)
	}
	name := lower(argString(args[0]))
	watched := ch.watchedKeys()
	info := h.table.lookup(name, args)
	if h.readiness {
		if err := h.ready(name, args); err != nil {
			return err
		}
	}
	if info != nil && info.atMostOneKey && watched == nil && !special[name] {
		return next(ctx, cmd) // the fast path: GET, SET, HELLO, ...
	}
	multi := ch.inMulti()
	// COMMAND, sent on a connection in MULTI, would be queued, and its
	// reply misread: the key specs are fetched outside MULTI.
	if (info == nil || len(info.Keys) > 0) && !multi && h.table.needFetch() {
		h.table.fetch(ctx, next)
		info = h.table.lookup(name, args)
	}
	pooled := false
	if _, raw := cmd.(*redis.Cmd); txCommand[name] && (raw || name == "multi") {
		// A command sent with Do (go-redis's own WATCH, in Tx.Watch, is a
		// StatusCmd): was it sent on a pooled client? A MULTI sent
		// otherwise is looked at too, so that a pooled client's chain is
		// never taken as in MULTI.
		if client, ok := pooledCaller(); ok {
			pooled = true
			if raw {
				if err := h.fault(pooledTx(name, args, client)); err != nil {
					return err
				}
			}
		}
	}
	if !pooled && (name == "multi" || name == "watch") && multi {
		if err := h.fault(inMulti(name, args)); err != nil {
			return err // unsent: the connection stays in its MULTI
		}
	}
	if e := ch.check(name, args, info, watched); e != nil {
		if err := h.fault(e); err != nil {
			return err
		}
	} else if e := h.unseenScript(name, args); e != nil {
		// As a server whose script cache is empty: go-redis's Script.Run
		// sends the script again with EVAL, which the hook checks. (go-redis
		// turns the error into its plain redis.ErrNoScript.)
		return e
	}
	err := next(ctx, cmd)
	if !pooled {
		// A pooled client's chain serves every goroutine: its WATCH and
		// MULTI state would be no one's.
		ch.after(name, args, cmd.Err())
		if name == "multi" && cmd.Err() == nil {
			ch.setMulti(true)
		}
	}
	return err
}

// inMulti describes a MULTI or WATCH sent with Do on a connection already
// in MULTI.
func inMulti(name string, args []any) *CrossSlotError {
	if name == "multi" {
		return &CrossSlotError{
			Kind: KindNestedMulti, Command: "MULTI",
			Reason: "MULTI sent on a connection already in MULTI (a Conn, or Watch's Tx): Redis refuses it (\"MULTI calls can not be nested\") and keeps queueing the commands that follow in the first MULTI",
			Fix:    "send MULTI once before its EXEC, or let TxPipelined send MULTI/EXEC",
		}
	}
	return watchInMulti(stringArgs(args[1:]), "sent on a connection in MULTI (a Conn, or Watch's Tx)")
}

// watchInMulti describes a WATCH of keys that Redis refuses because it
// comes inside MULTI, where says how.
func watchInMulti(keys []string, where string) *CrossSlotError {
	e := &CrossSlotError{
		Kind: KindWatchInMulti, Command: "WATCH", Keys: keys,
		Reason: fmt.Sprintf("WATCH %s %s: Redis refuses WATCH inside MULTI, and the keys are not watched", quoteList(keys), where),
		Fix:    "watch the keys before MULTI: Watch(ctx, fn, keys...) with TxPipelined inside fn",
	}
	for _, k := range keys {
		e.Slots = append(e.Slots, slot.Of(k))
	}
	return e
}

// txCommand names the commands of a transaction that make no sense on a
// pooled client.
var txCommand = map[string]bool{"watch": true, "multi": true, "exec": true}

// pooledCaller reports whether the command being processed was sent through
// a pooled go-redis client (*redis.Client, *redis.ClusterClient,
// *redis.Ring), not a Tx or a Conn, which keep one connection, and names
// the client. It reads the call stack: it runs only for WATCH, MULTI and
// EXEC sent on their own.
func pooledCaller() (client string, pooled bool) {
	var pcs [48]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	const pkg = "github.com/redis/go-redis/v9."
	for {
		f, more := frames.Next()
		if name, ok := strings.CutPrefix(f.Function, pkg); ok {
			name = strings.TrimSuffix(name, "-fm") // a method value
			switch {
			case strings.HasPrefix(name, "(*Tx)."), strings.HasPrefix(name, "(*Conn)."):
				return "", false
			case name == "(*Client).Process":
				client = "*redis.Client"
			case name == "(*ClusterClient).Process":
				client = "*redis.ClusterClient"
			case name == "(*Ring).Process":
				client = "*redis.Ring"
			}
		}
		if !more {
			break
		}
	}
	return client, client != ""
}

// pooledTx describes a WATCH, MULTI or EXEC sent on a pooled client.
func pooledTx(name string, args []any, client string) *CrossSlotError {
	upper := strings.ToUpper(name)
	e := &CrossSlotError{Kind: KindPooledTransaction, Command: upper}
	switch name {
	case "watch":
		e.Keys = stringArgs(args[1:])
		for _, k := range e.Keys {
			e.Slots = append(e.Slots, slot.Of(k))
		}
		e.Reason = fmt.Sprintf("WATCH %s sent with Do on a %s: the next Do may take another connection from the pool, so the WATCH protects nothing and the transaction can lose an update", quoteList(e.Keys), client)
	case "multi":
		e.Reason = fmt.Sprintf("MULTI sent with Do on a %s: the connection goes back to the pool inside MULTI, and the commands that follow may run on other connections, outside the transaction", client)
	case "exec":
		e.Reason = fmt.Sprintf("EXEC sent with Do on a %s: it may run on another connection than its MULTI and WATCH", client)
	}
	e.Fix = "use Watch(ctx, fn, keys...) with TxPipelined inside fn, or hold one connection with Conn(ctx)"
	return e
}

// unseenScript returns a KindNoScript error for an EVALSHA or EVALSHA_RO of
// a script the hook has not seen, or nil.
func (h *Hook) unseenScript(name string, args []any) *CrossSlotError {
	if h.passUnseen || (name != "evalsha" && name != "evalsha_ro") || len(args) < 2 {
		return nil
	}
	sha := strings.ToLower(argString(args[1]))
	if h.scripts.Lookup(sha) != nil {
		return nil
	}
	return &CrossSlotError{
		Kind: KindNoScript, Command: strings.ToUpper(name),
		Reason: fmt.Sprintf("script %s: the hook has not seen its source, so it cannot check the keys it touches", sha),
		Fix:    "run it with Script.Run, which sends the source with EVAL after NOSCRIPT, or give the hook its source (WithScripts, Hook.RegisterScript)",
	}
}

// after updates the chain's WATCH state once a command has run.
func (ch *chain) after(name string, args []any, err error) {
	switch name {
	case "watch":
		if err == nil {
			ch.addWatched(stringArgs(args[1:]))
		}
	case "unwatch":
		ch.setWatched(nil)
	case "exec", "discard", "reset":
		ch.setWatched(nil)
		ch.setMulti(false)
	}
}

// special names the commands the hook looks at whatever their key specs.
var special = map[string]bool{
	"watch": true, "unwatch": true, "multi": true, "exec": true, "discard": true, "reset": true,
	"eval": true, "evalsha": true, "eval_ro": true, "evalsha_ro": true,
	"fcall": true, "fcall_ro": true, "script": true,
}

// check returns what is wrong with one command, or nil. watched are the keys
// under WATCH on the command's connection.
func (ch *chain) check(name string, args []any, info *cmdInfo, watched []string) *CrossSlotError {
	h := ch.h
	switch name {
	case "watch":
		keys := stringArgs(args[1:])
		if e := colocation(KindWatch, "WATCH", append(append([]string(nil), watched...), keys...)); e != nil {
			return e
		}
		return nil
	case "script":
		if len(args) >= 3 && lower(argString(args[1])) == "load" {
			h.scripts.Remember(argString(args[2]))
		}
		return nil
	case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro":
		return ch.checkScript(name, args, watched)
	}
	if info == nil || len(info.Keys) == 0 {
		return nil
	}
	keys := commandKeys(info, args)
	if len(keys) == 0 {
		return nil
	}
	upper := strings.ToUpper(name)
	if e := colocation(KindCommand, upper, keys); e != nil {
		return e
	}
	if watched != nil {
		if e := colocation(KindWatch, upper+" under WATCH", append(append([]string(nil), watched...), keys...)); e != nil {
			e.Reason += " (WATCH " + quoteList(watched) + " runs on the watched keys' node)"
			return e
		}
	}
	return nil
}

// commandKeys returns the keys of a command by its key specs.
func commandKeys(info *cmdInfo, args []any) []string {
	return appendKeys(nil, info, args)
}

// appendKeys appends the keys of a command to dst.
func appendKeys(dst []string, info *cmdInfo, args []any) []string {
	if info.oneIndex > 0 { // the common case: one key at a fixed place
		if info.oneIndex < len(args) {
			dst = append(dst, argString(args[info.oneIndex]))
		}
		return dst
	}
	argv := stringArgs(args)
	pos, _ := info.KeyPositions(argv)
	for _, p := range pos {
		dst = append(dst, argv[p])
	}
	return dst
}

// colocation returns a CrossSlotError when keys span slots.
func colocation(kind, command string, keys []string) *CrossSlotError {
	slots, reason, fix, split := crossslot.Split(keys)
	if !split {
		return nil
	}
	return &CrossSlotError{Kind: kind, Command: command, Keys: keys, Slots: slots, Reason: reason, Fix: fix}
}

// queuedInTx are the commands that a TxPipeline or TxPipelined must not
// queue, since it wraps what it queues in MULTI/EXEC itself, and what the
// hook says of each.
var queuedInTx = map[string]CrossSlotError{
	"multi": {
		Kind: KindNestedMulti, Command: "MULTI",
		Reason: "MULTI queued in a transaction (TxPipeline, TxPipelined), which already starts with MULTI: Redis refuses it (\"MULTI calls can not be nested\") and still runs the transaction's other commands at EXEC",
		Fix:    "drop the MULTI: TxPipelined and TxPipeline wrap their commands in MULTI/EXEC themselves",
	},
	"exec": {
		Kind: KindExecInMulti, Command: "EXEC",
		Reason: "EXEC queued in a transaction (TxPipeline, TxPipelined), which ends with EXEC: Redis runs the commands queued before it as the transaction and the ones after it outside any transaction, then answers the last EXEC \"ERR EXEC without MULTI\"",
		Fix:    "drop the EXEC: TxPipelined and TxPipeline wrap their commands in MULTI/EXEC themselves",
	},
}

// processPipeline checks a pipeline, or a transaction: cmds between MULTI
// and EXEC.
func (ch *chain) processPipeline(ctx context.Context, cmds []redis.Cmder, next redis.ProcessPipelineHook) error {
	h := ch.h
	tx := len(cmds) >= 2 && cmdName(cmds[0]) == "multi" && cmdName(cmds[len(cmds)-1]) == "exec"
	if tx {
		if _, raw := cmds[0].(*redis.Cmd); raw && endsInside(cmds) {
			// MULTI and EXEC sent with Do in a plain pipeline, more than
			// one transaction (TxPipeline's own MULTI is a
			// *redis.StatusCmd): the commands are checked one by one.
			tx = false
		}
	}
	watched := ch.watchedKeys()
	multi := ch.inMulti() // no COMMAND then: see processCmd
	var (
		bad      []*CrossSlotError // per command, nil when fine
		anyBad   bool
		txKeys   []string
		txOrigin []string // the command of each of txKeys
	)
	if tx && multi {
		bad, anyBad = make([]*CrossSlotError, len(cmds)), true
		bad[0] = &CrossSlotError{
			Kind: KindNestedMulti, Command: "MULTI",
			Reason: "a transaction (TxPipeline, TxPipelined) sent on a connection already in MULTI (a Conn, or Watch's Tx): Redis refuses its MULTI (\"MULTI calls can not be nested\") and queues its commands in the open MULTI",
			Fix:    "end the open MULTI with EXEC or DISCARD first, or drop the MULTI sent with Do",
		}
	}
	for i, cmd := range cmds {
		args := cmd.Args()
		if len(args) == 0 {
			continue
		}
		name := lower(argString(args[0]))
		if tx && (i == 0 || i == len(cmds)-1) {
			continue
		}
		if h.readiness {
			if e := h.readinessFault(name, args); e != nil {
				if bad == nil {
					bad = make([]*CrossSlotError, len(cmds))
				}
				bad[i], anyBad = e, true
				continue
			}
		}
		info := h.table.lookup(name, args)
		if info != nil && info.atMostOneKey && watched == nil && !tx && !special[name] {
			continue
		}
		if (info == nil || len(info.Keys) > 0) && ch.process != nil && !multi && h.table.needFetch() {
			h.table.fetch(ctx, ch.process)
			info = h.table.lookup(name, args)
		}
		if e := h.unseenScript(name, args); e != nil {
			if bad == nil {
				bad = make([]*CrossSlotError, len(cmds))
			}
			bad[i], anyBad = e, true
			continue
		}
		if tx && name == "watch" {
			if bad == nil {
				bad = make([]*CrossSlotError, len(cmds))
			}
			bad[i], anyBad = watchInMulti(stringArgs(args[1:]), "queued in a transaction (TxPipeline, TxPipelined)"), true
			continue
		}
		if q, ok := queuedInTx[name]; ok && tx {
			if bad == nil {
				bad = make([]*CrossSlotError, len(cmds))
			}
			bad[i], anyBad = &q, true
			continue
		}
		if tx {
			// Inside MULTI/EXEC, a command that cannot span slots by itself
			// counts only with the transaction, checked as a whole below.
			if special[name] || info == nil || !info.atMostOneKey {
				if e := ch.check(name, args, info, nil); e != nil {
					if bad == nil {
						bad = make([]*CrossSlotError, len(cmds))
					}
					bad[i], anyBad = e, true
				}
			}
			if info != nil && len(info.Keys) > 0 {
				n := len(txKeys)
				txKeys = appendKeys(txKeys, info, args)
				for range len(txKeys) - n {
					txOrigin = append(txOrigin, name)
				}
			}
			continue
		}
		if e := ch.check(name, args, info, watched); e != nil {
			if bad == nil {
				bad = make([]*CrossSlotError, len(cmds))
			}
			bad[i], anyBad = e, true
		}
	}
	var txErr *CrossSlotError
	if tx {
		all := append(append([]string(nil), watched...), txKeys...)
		if e := colocation(KindTransaction, "MULTI/EXEC", all); e != nil {
			// Name the commands the two keys come from.
			c := keyspace.Colocate(litKeys(all)...)
			a, b := c.Pair[0], c.Pair[1]
			origin := func(i int) string {
				if i < len(watched) {
					return "WATCH"
				}
				return strings.ToUpper(txOrigin[i-len(watched)])
			}
			e.Reason = fmt.Sprintf("%s %s and %s %s in one transaction: %s", origin(a), strconv.Quote(all[a]), origin(b), strconv.Quote(all[b]), c.Reason)
			txErr = e
		}
	}
	for _, e := range bad {
		if e != nil {
			h.record(e)
		}
	}
	if txErr != nil {
		h.record(txErr)
	}
	if h.mode == modeFailTest {
		err := next(ctx, cmds)
		ch.afterPipeline(cmds, tx)
		return err
	}
	if tx && (txErr != nil || anyBad) {
		e := txErr
		if e == nil {
			for _, b := range bad {
				if b != nil {
					e = b
					break
				}
			}
		}
		for _, cmd := range cmds {
			cmd.SetErr(e)
		}
		return e
	}
	if !anyBad {
		err := next(ctx, cmds)
		ch.afterPipeline(cmds, tx)
		return err
	}
	// A plain pipeline: fail the faulty commands, send the others.
	rest := make([]redis.Cmder, 0, len(cmds))
	for i, cmd := range cmds {
		if bad[i] != nil {
			cmd.SetErr(bad[i])
		} else {
			rest = append(rest, cmd)
		}
	}
	if len(rest) > 0 {
		if err := next(ctx, rest); err != nil && !isRedisReply(err) {
			return err
		}
		ch.afterPipeline(rest, false)
	}
	for _, cmd := range cmds {
		if err := cmd.Err(); err != nil {
			return err
		}
	}
	return nil
}

// endsInside reports whether an EXEC or DISCARD comes between the first
// and the last of cmds.
func endsInside(cmds []redis.Cmder) bool {
	for _, cmd := range cmds[1 : len(cmds)-1] {
		if name := cmdName(cmd); name == "exec" || name == "discard" {
			return true
		}
	}
	return false
}

// afterPipeline updates the WATCH state after a pipeline ran.
func (ch *chain) afterPipeline(cmds []redis.Cmder, tx bool) {
	if tx {
		ch.setWatched(nil)
		ch.setMulti(false)
		return
	}
	for _, cmd := range cmds {
		args := cmd.Args()
		if len(args) > 0 {
			ch.after(lower(argString(args[0])), args, cmd.Err())
		}
	}
}

func isRedisReply(err error) bool {
	_, ok := err.(redis.Error)
	return ok || err == redis.Nil
}

func cmdName(cmd redis.Cmder) string {
	args := cmd.Args()
	if len(args) == 0 {
		return ""
	}
	return lower(argString(args[0]))
}

func stringArgs(args []any) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = argString(a)
	}
	return out
}

func litKeys(keys []string) []keyspace.Key {
	out := make([]keyspace.Key, len(keys))
	for i, k := range keys {
		out[i] = keyspace.Lit(k)
	}
	return out
}

func quoteList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, " ")
}

// checkScript checks EVAL, EVALSHA, EVAL_RO, EVALSHA_RO, FCALL and FCALL_RO:
// argv is name, script (source, SHA1 or function), numkeys, keys, args.
func (ch *chain) checkScript(name string, args []any, watched []string) *CrossSlotError {
	h := ch.h
	argv := stringArgs(args)
	n, ok := scriptcheck.NumKeys(argv)
	if !ok {
		return nil // the server rejects it
	}
	keys := argv[3 : 3+n]
	upper := strings.ToUpper(name)
	if e := colocation(KindScript, upper, keys); e != nil {
		return e
	}
	if watched != nil && n > 0 {
		if e := colocation(KindWatch, upper+" under WATCH", append(append([]string(nil), watched...), keys...)); e != nil {
			return e
		}
	}
	var entry *scriptcheck.Entry
	switch name {
	case "eval", "eval_ro":
		entry = h.scripts.Remember(argv[1])
	case "evalsha", "evalsha_ro":
		entry = h.scripts.Lookup(argv[1])
	}
	if entry == nil {
		return nil
	}
	srv := h.table.server.Load()
	found := entry.Check(argv[2:], n, name == "eval_ro" || name == "evalsha_ro", scriptcheck.Specs{
		ID: srv, Command: h.command,
		// Once the key specs are settled (the server's, or LocalSpecs).
		Settled:      !h.table.needFetch(),
		KeyspaceWide: h.readiness,
	})
	if len(found) == 0 {
		return nil
	}
	slots := make([]int, len(keys))
	for i, k := range keys {
		slots[i] = slot.Of(k)
	}
	return &CrossSlotError{
		Kind: KindScript, Command: upper, Keys: keys, Slots: slots,
		Reason: scriptcheck.Reason(found), Script: found,
	}
}

var _ redis.Hook = (*Hook)(nil)
