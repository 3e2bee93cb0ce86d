// Package lib is a reduced rueidis: the declarations genrueidis reads.
package lib

type CommandClient interface {
	Do()
	DoMulti()
}

type Client interface {
	CommandClient
	DoCache()
	Nodes() map[string]Client
}

type Lua struct{}

func NewLuaScript(src string) *Lua                                { return &Lua{} }
func NewLuaScriptReadOnly(src string) *Lua                        { return &Lua{} }
func NewLuaScriptNoSha(src string) *Lua                           { return &Lua{} }
func NewLuaScriptReadOnlyNoSha(src string) *Lua                   { return &Lua{} }
func NewLuaScriptRetryable(src string) *Lua                       { return &Lua{} }
func NewLuaScriptNoShaRetryable(src string) *Lua                  { return &Lua{} }
func (s *Lua) Exec(ctx any, c CommandClient, keys, args []string) {}
