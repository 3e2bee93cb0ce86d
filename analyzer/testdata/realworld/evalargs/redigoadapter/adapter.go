// Package redigoadapter runs the limiter's scripts on redigo.
package redigoadapter

import (
	"context"

	"github.com/gomodule/redigo/redis"
	"slotlint.test/realworld/evalargs/adapters"
)

// Origin: aidenwallis/go-ratelimiting (redis/adapters/redigo/adapter.go):
// EVAL is sent as a raw command whose arguments a helper builds: the
// script, len(keys), each key, then the arguments. The callers give all
// four, as they would to a client's Eval.
type Adapter struct {
	Conn redis.Conn
}

var _ adapters.Adapter = (*Adapter)(nil)

func New(conn redis.Conn) *Adapter { return &Adapter{Conn: conn} }

func (a *Adapter) Eval(ctx context.Context, script string, keys []string, args []interface{}) (interface{}, error) { // want Eval:`keyWrapper\(EVAL "<keys...>" script \$1\)`
	return redis.DoContext(a.Conn, ctx, "EVAL", buildEvalArgs(script, keys, args...)...) // want `EVAL of the callers' keys "<[^"]*>": callers in other modules are not checked`
}

func buildEvalArgs(script string, keys []string, args ...interface{}) []interface{} {
	out := make([]interface{}, 0, 2+len(keys)+len(args))
	out = append(out, script, len(keys))
	for _, v := range keys {
		out = append(out, v)
	}
	return append(out, args...)
}

// EvalInline builds the same arguments in the method itself.
func (a *Adapter) EvalInline(ctx context.Context, script string, keys []string, args []interface{}) (interface{}, error) { // want EvalInline:`keyWrapper\(EVAL "<keys...>" script \$1\)`
	out := []interface{}{script, len(keys)}
	for _, k := range keys {
		out = append(out, k)
	}
	out = append(out, args...)
	return a.Conn.Do("EVAL", out...) // want `EVAL of the callers' keys "<[^"]*>": callers in other modules are not checked`
}

// EvalArgs builds them with redigo's Args: AddFlat spreads each slice.
func (a *Adapter) EvalArgs(ctx context.Context, script string, keys []string, args []interface{}) (interface{}, error) { // want EvalArgs:`keyWrapper\(EVAL "<keys...>" script \$1\)`
	return a.Conn.Do("EVAL", redis.Args{}.Add(script, len(keys)).AddFlat(keys).AddFlat(args)...) // want `EVAL of the callers' keys "<[^"]*>": callers in other modules are not checked`
}
