// Package luascript is reduced from mgomes/senna (internal/script): the
// project's own script type, made with the script's name and its Lua,
// that runs it by EVALSHA and falls back to EVAL, loading it for the next
// run. The Lua is the field the constructor sets; which script runs,
// each caller's script value says.
package luascript

import (
	"context"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

type Script struct {
	Name   string
	Source string
	sha    string
	mu     sync.RWMutex
}

func New(name, source string) *Script { // want New:`keyScriptCtor\(Source=\$1\)`
	return &Script{Name: name, Source: source}
}

func (s *Script) Run(ctx context.Context, client redis.Scripter, keys []string, args ...any) (any, error) { // want Run:`keyWrapper\(EVALSHA "<keys...>"; EVAL "<keys...>" script \$recv.Source\)`
	s.mu.RLock()
	sha := s.sha
	s.mu.RUnlock()
	if sha != "" {
		result, err := client.EvalSha(ctx, sha, keys, args...).Result()
		if err == nil || !strings.Contains(err.Error(), "NOSCRIPT") {
			return result, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	result, err := client.Eval(ctx, s.Source, keys, args...).Result()
	if err != nil {
		return nil, err
	}
	if loaded, err := client.ScriptLoad(ctx, s.Source).Result(); err == nil {
		s.sha = loaded
	}
	return result, nil
}
