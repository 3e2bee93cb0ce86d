// Package redisx wraps go-redis as go-zero's core/stores/redis does
// (redis.go): a Redis value gets its client on each call, and its methods
// return what the client's do. Its users reach the client only through
// it: the facts of its methods carry what each does to them.
package redisx

import (
	"context"

	red "github.com/redis/go-redis/v9"
)

type (
	// Pipeliner is an alias of go-redis's, as go-zero's is.
	Pipeliner = red.Pipeliner
	// Script is an alias of go-redis's.
	Script = red.Script
)

// Redis is a client by address.
type Redis struct{ Addr string }

func getRedis(r *Redis) (red.UniversalClient, error) {
	return red.NewUniversalClient(&red.UniversalOptions{Addrs: []string{r.Addr}}), nil
}

// NewScript returns a script of its source.
func NewScript(script string) *Script { // want NewScript:`pipeFunc\(new-script script \$0\)`
	return red.NewScript(script)
}

// SmembersCtx returns the members of key.
func (s *Redis) SmembersCtx(ctx context.Context, key string) ([]string, error) { // want SmembersCtx:`keyReply\(SMEMBERS\)`
	conn, err := getRedis(s)
	if err != nil {
		return nil, err
	}
	return conn.SMembers(ctx, key).Result()
}

// TxPipeline returns a MULTI/EXEC pipeline.
func (s *Redis) TxPipeline() (pipe Pipeliner, err error) { // want TxPipeline:`pipeFunc\(tx-pipeline\)`
	conn, err := getRedis(s)
	if err != nil {
		return nil, err
	}
	return conn.TxPipeline(), nil
}

// DelCtx deletes keys in one DEL.
func (s *Redis) DelCtx(ctx context.Context, keys ...string) (int, error) { // want DelCtx:`keyWrapper\(DEL "<keys...>"\)`
	conn, err := getRedis(s)
	if err != nil {
		return 0, err
	}
	v, err := conn.Del(ctx, keys...).Result() // want `DEL of the callers' keys "<keys...>"`
	return int(v), err
}

// ScriptRunCtx runs a script with its keys and arguments.
func (s *Redis) ScriptRunCtx(ctx context.Context, script *Script, keys []string, args ...any) (any, error) { // want ScriptRunCtx:`keyWrapper\(.*\)`
	conn, err := getRedis(s)
	if err != nil {
		return nil, err
	}
	return script.Run(ctx, conn, keys, args...).Result() // want `EVALSHA of the callers' keys`
}
