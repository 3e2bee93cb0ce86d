package keyflow

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/ruleset"
)

// go-redis v9's ClusterClient routes a command by the policy that its
// command policy resolver gives it. A command with a multi_shard request
// policy is cut into one command per slot and the replies are merged: it
// works across slots, without atomicity. The resolver go-redis installs
// (NewDefaultCommandPolicyResolver) knows only RediSearch's FT.*
// commands, so MGET, DEL, EXISTS and MSET sent alone fail with CROSSSLOT,
// in every v9 release. Only a resolver that reads Redis's own command tips,
// which mark these commands request_policy:multi_shard (the rules' split:
// true), makes it split them:
//
//	c.SetCommandInfoResolver(c.NewDynamicResolver())
//
// The rules' split-with names the methods of such an installation. In a
// package that calls all of them, a split command sent alone on a cluster
// client is taken as split. In MULTI/EXEC, in a script and on a client of
// one node nothing is split, and the keys must share a slot.

// splitAlone reports whether a call of the client method fn sends a
// command that the client splits by slot when it is sent alone: the
// command is marked split, the receiver's static type is a cluster client
// of the rules (or a project's interface or struct that embeds one), and
// the package calls every method of the client's split-with.
func (g *Engine) splitAlone(call *ast.CallExpr, fn *types.Func, m *ruleset.Method) bool {
	if m == nil || m.Kind != ruleset.KindCommand || fn.Pkg() == nil {
		return false
	}
	cmd := g.rules.Commands[strings.ToLower(m.Command)]
	if cmd == nil || !cmd.Split {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !g.clusterType(g.info.TypeOf(sel.X), 0) {
		return false
	}
	client := g.rules.ClientOf(fn.Pkg().Path())
	if client == nil || len(client.SplitWith) == 0 {
		return false
	}
	called := g.calledMethods()
	for _, name := range client.SplitWith {
		if !called[qualifiedName(fn.Pkg().Path(), name)] {
			return false
		}
	}
	return true
}

// calledMethods returns the functions and methods that the package calls,
// as "path.Recv.Name" or "path.Name".
func (g *Engine) calledMethods() map[string]bool {
	if g.called != nil {
		return g.called
	}
	g.called = map[string]bool{}
	for _, f := range g.files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				g.noteCall(c)
			}
			return true
		})
	}
	return g.called
}

// noteCall adds the function or method that c calls to g.called.
func (g *Engine) noteCall(c *ast.CallExpr) {
	fn, _ := typeutil.Callee(g.info, c).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	g.called[qualifiedName(fn.Pkg().Path(), recvName(fn))] = true
}

// recvName names a function as rules.yaml does: "Recv.Name" for a method,
// "Name" for a function.
func recvName(fn *types.Func) string {
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	return name
}

func qualifiedName(pkg, name string) string {
	return pkg + "." + name
}

// NodeClientsCall reports whether call is a client library's method that
// returns a client of each node of a cluster (rules.yaml's node-clients:
// rueidis's Client.Nodes).
func (g *Engine) NodeClientsCall(call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	client := g.rules.ClientOf(fn.Pkg().Path())
	if client == nil || len(client.NodeClients) == 0 {
		return false
	}
	return slices.Contains(client.NodeClients, recvName(fn))
}
