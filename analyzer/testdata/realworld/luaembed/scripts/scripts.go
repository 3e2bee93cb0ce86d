// Package scripts holds Lua scripts that other packages run: embedded into
// exported strings, and read from an embed.FS into exported
// *redis.Script variables in an init function.
package scripts

import (
	"embed"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: LXJ0000/go-backend (script/script.go): the scripts of a
// verification-code service embedded into exported strings, run by the
// repository package.
var (
	//go:embed lua/send_code.lua
	LuaSendCode string // want LuaSendCode:`keyScript\("LuaSendCode"\)`
	//go:embed lua/send_code_fixed.lua
	LuaSendCodeFixed string // want LuaSendCodeFixed:`keyScript\("LuaSendCodeFixed"\)`
)

// Origin: AsynqLab/asynq (internal/script/script.go): every script read
// from an embed.FS by name, with fmt.Sprintf, and made a *redis.Script in
// init; internal/rdb runs them.
//
//go:embed lua/*.lua
var luaScripts embed.FS

func loadLuaScript(name string) (string, error) {
	content, err := luaScripts.ReadFile(fmt.Sprintf("lua/%s.lua", name))
	if err != nil {
		return "", fmt.Errorf("failed to read Lua script %s: %w", name, err)
	}
	return string(content), nil
}

var (
	EnqueueCmd      *redis.Script // want EnqueueCmd:`keyScript\("EnqueueCmd"\)`
	EnqueueFixedCmd *redis.Script // want EnqueueFixedCmd:`keyScript\("EnqueueFixedCmd"\)`
)

const (
	enqueueCmd      = "enqueue"
	enqueueFixedCmd = "enqueue_fixed"
)

func init() {
	enqueueLua, err := loadLuaScript(enqueueCmd)
	if err != nil {
		panic(err)
	}
	EnqueueCmd = redis.NewScript(enqueueLua)
	enqueueFixedLua, err := loadLuaScript(enqueueFixedCmd)
	if err != nil {
		panic(err)
	}
	EnqueueFixedCmd = redis.NewScript(enqueueFixedLua)
}
