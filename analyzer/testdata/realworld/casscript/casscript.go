// Package casscript reduces trpc.group/trpc-go/trpc-database/goredis
// v1.0.0 (redcas/cas.go, MSetWithEval and HMSet): the keys of the
// caller's values, each a field of a struct, go to one script run
// through another package's helper, and the command the helper returns
// is kept in the result's field. The package's tests fill the same field
// with hash fields ("f1", "f2" for HMSet), which are not the keys the
// package's own code reads.
package casscript

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/casscript/internal/script"
)

var (
	MSetScript  = script.New(`local old = redis.call('mget', unpack(KEYS)) return old`)
	HMSetScript = script.New(`return redis.call('hset', KEYS[1], ARGV[1], ARGV[2])`)
)

type S struct {
	Key   string
	Value interface{}
}

type MSetCmd struct{ Cmd *redis.Cmd }

func MSetWithEval(ctx context.Context, c redis.Cmdable, values ...*S) *MSetCmd {
	cmd := &MSetCmd{}
	keys := make([]string, len(values))
	args := make([]interface{}, len(values))
	for i, v := range values {
		keys[i] = v.Key
		args[i] = v.Value
	}
	cmd.Cmd = MSetScript.RunEx(ctx, c, keys, args...) // want `EVAL \(through RunEx at script.go:\d+\) of the callers' keys "<v.Key>": callers in other modules are not checked`
	return cmd
}

// Fixed: HMSet sends one key, whose fields are the values' keys.
func HMSet(ctx context.Context, c redis.Cmdable, key string, values ...*S) *MSetCmd {
	cmd := &MSetCmd{}
	args := make([]interface{}, 0, 2*len(values))
	for _, v := range values {
		args = append(args, v.Key, v.Value)
	}
	cmd.Cmd = HMSetScript.RunEx(ctx, c, []string{key}, args...)
	return cmd
}
