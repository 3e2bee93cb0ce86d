// Package goredisv7hook is slotlint's runtime hook for go-redis v7
// (github.com/go-redis/redis/v7): a redis.Hook that lets a test suite run
// on a single Redis server catch what would fail only on a Redis Cluster.
// Each command's keys, found through the key specs of slotlint's commands
// table, must share a slot, and so must the keys of each MULTI/EXEC
// transaction that TxPipelined or TxPipeline sends. A WATCH or MULTI sent
// inside MULTI, which any Redis server refuses, is reported too.
//
//	rdb := redis.NewClient(opt)
//	rdb.AddHook(goredisv7hook.New(goredisv7hook.FailTest(t)))
//
// Scripts are checked by their source, with the Lua checks of slotlint's
// other hooks: keys a script touches but was not given in KEYS, its flags,
// a write in a script run with EVAL_RO. The hook learns a script's source
// when it goes by (EVAL, SCRIPT LOAD) or from WithScripts. An EVALSHA of
// any other script it answers itself with NOSCRIPT, unsent, as a server
// whose script cache is empty would: go-redis's Script.Run then sends the
// script with EVAL, which the hook checks. PassUnseenScripts sends such an
// EVALSHA unchecked instead.
//
// go-redis v7 gives a hook each command, and each pipeline with the MULTI
// and EXEC of a transaction around it, but not the connection they go out
// on. So the keys of a Watch are checked together, and those of the
// transaction its function sends, but not the ones with the others: that
// a Watch's keys and its TxPipelined's share a slot is the static
// analyzer's to check.
//
// It lives in a module of its own, so that users of other clients do not
// download go-redis v7.
package goredisv7hook

import (
	"context"
	"strings"

	"github.com/go-redis/redis/v7"
	"github.com/slotlint/slotlint/clustercheck/rawcheck"
	"github.com/slotlint/slotlint/ruleset"
)

// An Option configures the hook.
type Option func(*Hook)

// FailTest lets each command through and fails the test with every finding
// when it ends. Without it, a command at fault fails with a
// *rawcheck.Error before it is sent, as a cluster would refuse it.
func FailTest(t rawcheck.TB) Option {
	return func(h *Hook) { h.FailTest(t) }
}

// WithRules checks with the commands table of rules instead of slotlint's
// built-in one.
func WithRules(rules *ruleset.Rules) Option {
	return func(h *Hook) { h.rules = rules }
}

// WithScripts gives the hook the sources of scripts that the program runs
// with EVALSHA without ever sending them with EVAL or SCRIPT LOAD through
// the hooked client (they were loaded elsewhere), so that it can check
// them.
func WithScripts(sources ...string) Option {
	return func(h *Hook) { h.sources = append(h.sources, sources...) }
}

// PassUnseenScripts makes the hook send an EVALSHA of a script whose source
// it has not seen, unchecked, instead of answering NOSCRIPT. A test suite
// then passes whatever such a script does.
func PassUnseenScripts() Option {
	return func(h *Hook) { h.passUnseen = true }
}

// A Hook checks the commands of the go-redis v7 clients it is added to. It
// is safe for concurrent use.
type Hook struct {
	// Log has the hook's findings: Findings returns them in order.
	rawcheck.Log
	rc         *rawcheck.Checker
	rules      *ruleset.Rules
	sources    []string
	passUnseen bool
}

var _ redis.Hook = (*Hook)(nil)

// New returns a hook with the options applied.
func New(opts ...Option) *Hook {
	h := &Hook{}
	for _, o := range opts {
		o(h)
	}
	h.rc = rawcheck.New(h.rules)
	for _, src := range h.sources {
		h.rc.RegisterScript(src)
	}
	return h
}

// BeforeProcess checks one command. An EVALSHA of a script the hook has not
// seen fails with NOSCRIPT, unsent.
func (h *Hook) BeforeProcess(ctx context.Context, cmd redis.Cmder) (context.Context, error) {
	argv := rawcheck.Args(cmd.Args())
	if e := h.rc.Command(argv); h.Record(e) {
		return ctx, e
	}
	if !h.passUnseen && h.rc.Unseen(argv) {
		return ctx, noScript(argv)
	}
	return ctx, nil
}

// AfterProcess does nothing.
func (h *Hook) AfterProcess(ctx context.Context, cmd redis.Cmder) error { return nil }

// BeforeProcessPipeline checks a pipeline: each command alone, and the
// commands from MULTI to EXEC, which go-redis v7 puts around those of
// TxPipelined and TxPipeline, as a transaction. A pipeline at fault is not
// sent. An EVALSHA of an unseen script in a pipeline is sent unchecked:
// Pipeline.Exec does not send the script again on NOSCRIPT.
func (h *Hook) BeforeProcessPipeline(ctx context.Context, cmds []redis.Cmder) (context.Context, error) {
	argvs := make([][]string, len(cmds))
	for i, c := range cmds {
		argvs[i] = rawcheck.Args(c.Args())
	}
	if _, e := h.rc.Batch(argvs); h.Record(e) {
		return ctx, e
	}
	return ctx, nil
}

// AfterProcessPipeline does nothing.
func (h *Hook) AfterProcessPipeline(ctx context.Context, cmds []redis.Cmder) error { return nil }

// A noScriptError is the NOSCRIPT reply the hook gives an EVALSHA of a
// script whose source it has not seen. go-redis's Script.Run sends the
// script with EVAL on an error whose text starts with "NOSCRIPT ".
type noScriptError string

func (e noScriptError) Error() string { return string(e) }

// RedisError marks the error as a reply of the server, as go-redis's own
// replies are, so that the client does not take it for a network fault.
func (noScriptError) RedisError() {}

func noScript(argv []string) error {
	return noScriptError("NOSCRIPT No matching script. Please use EVAL. (slotlint: " + strings.ToUpper(argv[0]) + ": script " + strings.ToLower(argv[1]) +
		": the hook has not seen its source, so it cannot check the keys it touches; run it with Script.Run, which sends the source with EVAL after NOSCRIPT, or give the hook its source with WithScripts)")
}
