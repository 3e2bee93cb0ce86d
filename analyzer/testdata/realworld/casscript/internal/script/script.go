// Package script reduces trpc-database goredis v1.0.0's internal/script:
// a script that runs with EVAL on a pipeline and with EVALSHA otherwise,
// sending the keys its callers give.
package script

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Script struct{ *redis.Script }

func New(src string) *Script { return &Script{redis.NewScript(src)} }

func (s *Script) RunEx(ctx context.Context, c redis.Scripter, keys []string, args ...interface{}) *redis.Cmd { // want RunEx:`keyWrapper\(.*\)`
	if _, ok := c.(*redis.Pipeline); ok {
		return s.Eval(ctx, c, keys, args...)
	}
	return s.Run(ctx, c, keys, args...)
}
