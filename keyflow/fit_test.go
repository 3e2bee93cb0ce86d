package keyflow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/ruleset"
)

// TestFit checks rules against the signatures they are met on: go-redis
// v8's rules, whose parameter 0 is ctx, do not fit v7's methods, which
// take none, and v7's own rules do.
func TestFit(t *testing.T) {
	const src = `package redis
type Client struct{}
func (Client) Rename(key, newkey string) {}
func (Client) MGet(keys ...string) {}
func (Client) Eval(script string, keys []string, args ...interface{}) {}
func (Client) Watch(fn func() error, keys ...string) {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "redis.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := new(types.Config).Check("example.com/redis", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	method := func(name string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(pkg.Scope().Lookup("Client").Type(), false, pkg, name)
		return obj.(*types.Func)
	}
	rules, err := ruleset.ParseRules("rules.yaml", []byte(`version: 1
clients:
  v8:
    methods:
      Rename: {command: RENAME, keys: ["1", "2"]}
      MGet: {command: MGET, keys: ["1..."]}
      Eval: {command: EVAL, kind: script, script: 1, keys: ["2[]"], args: "3..."}
      Watch: {command: WATCH, kind: watch, fn: 1, keys: ["2..."]}
  v7:
    methods:
      Rename: {command: RENAME, keys: ["0", "1"]}
      MGet: {command: MGET, keys: ["0..."]}
      Eval: {command: EVAL, kind: script, script: 0, keys: ["1[]"], args: "2..."}
      Watch: {command: WATCH, kind: watch, fn: 0, keys: ["1..."]}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Rename": `rules.yaml:5:7: the rule of Rename does not fit (example.com/redis.Client).Rename: selector "2" names parameter 2, but it has 2 (parameters count from 0`,
		"MGet":   `selector "1..." names parameter 1, but it has 1`,
		"Eval":   `selector "2[]" takes a slice, but parameter 2 is variadic; its selector is 2...`,
		"Watch":  `selector "2..." names parameter 2, but it has 2`,
	}
	for name, w := range want {
		v8, v7 := rules.Clients[0].Methods[name], rules.Clients[1].Methods[name]
		if err := fit(method(name), v8); err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("v8's %s on v7: got %v, want %s", name, err, w)
		}
		if err := fit(method(name), v7); err != nil {
			t.Errorf("v7's %s: %v", name, err)
		}
	}
}
