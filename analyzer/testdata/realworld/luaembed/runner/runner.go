// Package runner implements, over go-redis, the script runner interface
// that the luaembed package declares: the package that runs a script sees
// only the interface, and the commands its implementation sends come
// through a fact.
package runner

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Redis is the shape of vx416/dcard-hw's RedisScripter implementation and
// of the redis packages of services that hide go-redis behind a small
// interface of their own.
type Redis struct {
	rdb redis.UniversalClient
}

func New(rdb redis.UniversalClient) *Redis { return &Redis{rdb: rdb} }

// RunScript runs a script with its caller's keys.
func (r *Redis) RunScript(ctx context.Context, s *redis.Script, keys []string, args ...interface{}) (interface{}, error) { // want RunScript:`keyWrapper\(EVALSHA "<keys...>" script \$1\)`
	return s.Run(ctx, r.rdb, keys, args...).Result() // want `EVALSHA of the callers' keys "<[^"]*>": callers in other modules are not checked`
}

// EvalSource runs a script's source.
func (r *Redis) EvalSource(ctx context.Context, src string, keys []string, args ...interface{}) error { // want EvalSource:`keyWrapper\(EVAL "<keys...>" script \$1\)`
	return r.rdb.Eval(ctx, src, keys, args...).Err() // want `EVAL of the callers' keys "<[^"]*>": callers in other modules are not checked`
}
