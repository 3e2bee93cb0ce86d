// Package goredisv6hook is slotlint's runtime hook for go-redis v6
// (github.com/go-redis/redis): it wraps a client's WrapProcess and
// WrapProcessPipeline so that a test suite run on a single Redis server
// catches what would fail only on a Redis Cluster. Each command's keys,
// found through the key specs of slotlint's commands table, must share a
// slot, and so must the keys of each transaction that TxPipelined or
// TxPipeline sends. Scripts are checked by their source, with the Lua
// checks of slotlint's other hooks, when the hook has seen it: sent with
// EVAL or SCRIPT LOAD, or given with WithScripts.
//
//	rdb := redis.NewClient(opt)
//	goredisv6hook.Install(rdb, goredisv6hook.FailTest(t))
//
// go-redis v6 sets a command's error only from inside its package, so the
// hook cannot refuse a command as a cluster would: it sends every command,
// records what it finds, and FailTest fails the test with it when the test
// ends. For the same reason it cannot answer an EVALSHA with NOSCRIPT to
// learn a script's source, so an EVALSHA of a script the server already
// has runs unchecked unless WithScripts gave its source.
//
// The commands of a Watch's function go out on a *redis.Tx that go-redis
// v6 makes with neither wrapper, so the hook does not see them: the keys
// of a Watch and of the transaction in it are the static analyzer's to
// check.
//
// It lives in a module of its own, so that users of other clients do not
// download go-redis v6.
package goredisv6hook

import (
	"github.com/go-redis/redis"
	"github.com/slotlint/slotlint/clustercheck/rawcheck"
	"github.com/slotlint/slotlint/ruleset"
)

// An Option configures the hook.
type Option func(*Hook)

// FailTest fails the test with every finding when it ends.
func FailTest(t rawcheck.TB) Option {
	return func(h *Hook) { h.FailTest(t) }
}

// WithRules checks with the commands table of rules instead of slotlint's
// built-in one.
func WithRules(rules *ruleset.Rules) Option {
	return func(h *Hook) { h.rules = rules }
}

// WithScripts gives the hook the sources of scripts that the program runs
// with EVALSHA, so that it can check them.
func WithScripts(sources ...string) Option {
	return func(h *Hook) { h.sources = append(h.sources, sources...) }
}

// Client is what Install wraps: go-redis v6's *Client and *ClusterClient.
// Their WrapProcessPipeline wraps the plain pipeline first and then the
// MULTI/EXEC one, with the same function.
type Client interface {
	WrapProcess(fn func(oldProcess func(cmd redis.Cmder) error) func(cmd redis.Cmder) error)
	WrapProcessPipeline(fn func(oldProcess func([]redis.Cmder) error) func([]redis.Cmder) error)
}

// A Hook checks the commands of the clients it is installed on. It is
// safe for concurrent use.
type Hook struct {
	// Log has the hook's findings: Findings returns them in order. The
	// hook never fails a command, FailTest or not.
	rawcheck.Log
	rc      *rawcheck.Checker
	rules   *ruleset.Rules
	sources []string
}

// Install wraps the client's processing with a new hook and returns it.
func Install(c Client, opts ...Option) *Hook {
	h := &Hook{}
	for _, o := range opts {
		o(h)
	}
	h.rc = rawcheck.New(h.rules)
	for _, src := range h.sources {
		h.rc.RegisterScript(src)
	}
	c.WrapProcess(func(next func(redis.Cmder) error) func(redis.Cmder) error {
		return func(cmd redis.Cmder) error {
			h.Record(h.rc.Command(rawcheck.Args(cmd.Args())))
			return next(cmd)
		}
	})
	wrapped := 0
	c.WrapProcessPipeline(func(next func([]redis.Cmder) error) func([]redis.Cmder) error {
		wrapped++
		tx := wrapped == 2
		return func(cmds []redis.Cmder) error {
			h.pipeline(cmds, tx)
			return next(cmds)
		}
	})
	return h
}

// pipeline checks the commands of a pipeline: each alone, or all as one
// transaction when tx is set (go-redis v6 writes the MULTI and EXEC
// around them itself).
func (h *Hook) pipeline(cmds []redis.Cmder, tx bool) {
	argvs := make([][]string, 0, len(cmds)+2)
	if tx {
		argvs = append(argvs, []string{"MULTI"})
	}
	for _, c := range cmds {
		argvs = append(argvs, rawcheck.Args(c.Args()))
	}
	if tx {
		argvs = append(argvs, []string{"EXEC"})
	}
	_, e := h.rc.Batch(argvs)
	h.Record(e)
}
