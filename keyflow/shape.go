package keyflow

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/ruleset"
)

// Projects hide their client behind interfaces of their own (a "store"
// with Del, TxPipeline and Eval, so that tests can swap it), and pass
// client methods around as values (move := rdb.LMove). A method of such
// an interface whose name and signature are those of a method of a client
// type of the rules is that method: go-redis's own *redis.Client or
// *redis.ClusterClient is what satisfies it in the program. A method value
// kept in a variable set once is the method it was taken from.

// byShape returns the client method that fn, a method of an interface
// declared outside the client packages, stands for: a method of one of
// the client's types (its clients, cluster clients, transactions and
// pipelines) in a client package that fn's signature names, with fn's name
// and an identical signature. It returns nil when there is none.
func (g *Engine) byShape(fn *types.Func) (*types.Func, *ruleset.Method) {
	sig := fn.Signature()
	recv := sig.Recv()
	if recv == nil || !types.IsInterface(recv.Type()) || g.IsClientPackage(fn.Pkg()) {
		return nil, nil
	}
	for _, pkg := range g.clientPackages(sig) {
		c := g.rules.ClientOf(pkg.Path())
		names := make([]string, 0, len(c.Types))
		for name := range c.Types {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			tn, _ := pkg.Scope().Lookup(name).(*types.TypeName)
			if tn == nil {
				continue
			}
			t := tn.Type()
			if !types.IsInterface(t) {
				t = types.NewPointer(t)
			}
			obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, fn.Name())
			m, ok := obj.(*types.Func)
			if !ok || !sameShape(m.Signature(), sig) {
				continue
			}
			m = m.Origin()
			recvName := ""
			if r := m.Signature().Recv(); r != nil {
				if n := namedOf(r.Type()); n != nil {
					recvName = n.Obj().Name()
				}
			}
			if rm := g.rules.Method(m.Pkg().Path(), recvName, m.Name()); rm != nil {
				return m, rm
			}
		}
	}
	return nil, nil
}

// sameShape reports whether two signatures take and return identical
// types, receivers aside.
func sameShape(a, b *types.Signature) bool {
	return a.Variadic() == b.Variadic() &&
		types.Identical(a.Params(), b.Params()) &&
		types.Identical(a.Results(), b.Results())
}

// clientPackages returns the client packages of the rules whose types a
// signature names, in its parameters or results, in order.
func (g *Engine) clientPackages(sig *types.Signature) []*types.Package {
	var out []*types.Package
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			if p := t.Obj().Pkg(); p != nil && g.IsClientPackage(p) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Signature:
			walkTuple(t.Params(), walk)
			walkTuple(t.Results(), walk)
		}
	}
	walkTuple(sig.Params(), walk)
	walkTuple(sig.Results(), walk)
	return out
}

func walkTuple(t *types.Tuple, f func(types.Type)) {
	for i := 0; i < t.Len(); i++ {
		f(t.At(i).Type())
	}
}

// methodValue returns the method of a method value that a call calls
// through a local variable set once (move := rdb.LMove; move(...)), and
// the receiver expression it was taken from.
func (g *Engine) methodValue(call *ast.CallExpr) (*types.Func, ast.Expr) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, ok := g.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != g.pkg || v.Parent() == nil || v.Parent() == g.pkg.Scope() {
		return nil, nil
	}
	sel := g.methodValues()[v]
	if sel == nil {
		return nil, nil
	}
	fn, _ := g.info.Selections[sel].Obj().(*types.Func)
	return fn, sel.X
}

// methodValues maps each local variable assigned exactly once, and to a
// method value, to that selector expression.
func (g *Engine) methodValues() map[*types.Var]*ast.SelectorExpr {
	if g.mvals != nil {
		return g.mvals
	}
	g.mvals = map[*types.Var]*ast.SelectorExpr{}
	writes := map[*types.Var]int{}
	for _, f := range g.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					id, ok := ast.Unparen(lhs).(*ast.Ident)
					if !ok {
						continue
					}
					v, ok := g.info.ObjectOf(id).(*types.Var)
					if !ok {
						continue
					}
					writes[v]++
					if len(n.Lhs) != len(n.Rhs) {
						continue
					}
					if sel, ok := ast.Unparen(n.Rhs[i]).(*ast.SelectorExpr); ok {
						if s := g.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
							g.mvals[v] = sel
						}
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					v, ok := g.info.Defs[name].(*types.Var)
					if !ok || i >= len(n.Values) {
						continue
					}
					writes[v]++
					if sel, ok := ast.Unparen(n.Values[i]).(*ast.SelectorExpr); ok {
						if s := g.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
							g.mvals[v] = sel
						}
					}
				}
			case *ast.UnaryExpr:
				// &v may be written through.
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					if v, ok := g.info.ObjectOf(id).(*types.Var); ok {
						writes[v] += 2
					}
				}
			}
			return true
		})
	}
	for v := range g.mvals {
		if writes[v] != 1 {
			delete(g.mvals, v)
		}
	}
	return g.mvals
}

// Some projects' Redis interfaces name no client type at all: a
// framework's own Redis API returns plain values (Del(ctx, keys
// ...string) (int64, error)) and its implementation, over go-redis or
// another client, is in another module that the program may not even
// build. A method of such an interface, declared in a package named for
// Redis, that no implementation in sight carries commands for, and whose
// name is that of a go-redis method taking several keys, or listing keys
// (KEYS, SMEMBERS), is that method when its key parameters have
// go-redis's types; what it returns is the reply itself (a []string).

// shapeClient is the client whose method names a project's own Redis
// interface is read by.
const shapeClient = "go-redis v9"

// byName returns the go-redis method rule that fn stands for, or nil.
func (g *Engine) byName(fn *types.Func) *ruleset.Method {
	sig := fn.Signature()
	if recv := sig.Recv(); recv == nil || !types.IsInterface(recv.Type()) || fn.Pkg() == nil ||
		g.IsClientPackage(fn.Pkg()) || !redisNamed(fn.Pkg().Path()) {
		return nil
	}
	var m *ruleset.Method
	for _, c := range g.rules.Clients {
		if c.Name == shapeClient {
			m = c.Methods[fn.Name()]
		}
	}
	if m == nil || m.Kind != ruleset.KindCommand {
		return nil
	}
	if pm := mapPairs(sig, m); pm != nil {
		m = pm
	} else if !multiKey(m) && !g.listsReply(sig, m) || !keyTyped(sig, m) {
		return nil
	}
	if len(g.implementations(fn)) > 0 {
		return nil // the implementation's own commands are followed
	}
	return m
}

// mapPairs returns the rule of a method that takes as a map, in sig, the
// key value pairs that go-redis's m takes as pairs ...any (GoFrame's
// MSet(ctx, keyValueMap map[string]interface{})): the map's keys are the
// keys. Nil for another.
func mapPairs(sig *types.Signature, m *ruleset.Method) *ruleset.Method {
	if len(m.Keys) != 1 || !m.Keys[0].Variadic || m.Keys[0].Step != 2 || m.Keys[0].Field != "" {
		return nil
	}
	n := m.Keys[0].Param
	if sig.Params().Len() != n+1 || !IsContext(sig.Params().At(0).Type()) || sig.Variadic() {
		return nil
	}
	mt, ok := sig.Params().At(n).Type().Underlying().(*types.Map)
	if !ok || !types.Identical(mt.Key(), types.Typ[types.String]) {
		return nil
	}
	sel, err := ruleset.ParseSelector(strconv.Itoa(n) + "{}")
	if err != nil {
		return nil
	}
	pm := *m
	pm.Keys = []ruleset.Selector{sel}
	return &pm
}

// redisNamed reports whether an element of an import path names Redis
// (redis, gredis, redisx, ...).
func redisNamed(path string) bool {
	for _, el := range strings.Split(path, "/") {
		if strings.Contains(strings.ToLower(el), "redis") {
			return true
		}
	}
	return false
}

// listsReply reports whether a rule's command lists keys (listsKeys) and
// sig returns that list itself first, a []string.
func (g *Engine) listsReply(sig *types.Signature, m *ruleset.Method) bool {
	if !g.listsKeys(m.Command) || sig.Results().Len() == 0 {
		return false
	}
	sl, ok := sig.Results().At(0).Type().Underlying().(*types.Slice)
	return ok && types.Identical(sl.Elem(), types.Typ[types.String])
}

// multiKey reports whether a rule can select two keys or more.
func multiKey(m *ruleset.Method) bool {
	if len(m.Keys) > 1 {
		return true
	}
	return len(m.Keys) == 1 && (m.Keys[0].Variadic || m.Keys[0].Slice)
}

// keyTyped reports whether the parameters that m's keys select are strings
// in sig, as go-redis's are: N a string, N... a ...string, N[] a []string,
// and whether parameter 0 is a context.Context, as in go-redis v9.
func keyTyped(sig *types.Signature, m *ruleset.Method) bool {
	n := sig.Params().Len()
	if n == 0 || !IsContext(sig.Params().At(0).Type()) {
		return false
	}
	str := types.Typ[types.String]
	for _, s := range m.Keys {
		if s.Field != "" || s.Step > 1 || s.Half || s.KeyCount || s.Flat || s.PerElement() || s.MapKeys || s.Param >= n {
			return false
		}
		t := sig.Params().At(s.Param).Type()
		switch {
		case s.Variadic:
			sl, ok := t.(*types.Slice)
			if !sig.Variadic() || s.Param != n-1 || !ok || !types.Identical(sl.Elem(), str) {
				return false
			}
		case s.Slice:
			sl, ok := t.Underlying().(*types.Slice)
			if !ok || !types.Identical(sl.Elem(), str) || sig.Variadic() && s.Param == n-1 {
				return false
			}
		default:
			if !types.Identical(t, str) {
				return false
			}
		}
	}
	return true
}

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// rawVerbs are the names a project's own raw command executor goes by.
var rawVerbs = map[string]bool{"Do": true, "Exec": true, "Execute": true, "Cmd": true, "Command": true, "Send": true, "Call": true}

// rawByName returns a raw rule for fn when it is a project's own raw
// command executor: a method of an interface declared in a package whose
// path names Redis, that no implementation in sight sends commands for,
// named Do, Exec, Cmd ... and taking the command and its arguments last,
// as a ...interface{} or an []interface{} (go-spring's Driver.Exec(ctx,
// args []interface{})). An []interface{} passed whole is read as spread.
func (g *Engine) rawByName(fn *types.Func) *ruleset.Method {
	sig := fn.Signature()
	if recv := sig.Recv(); recv == nil || !types.IsInterface(recv.Type()) || fn.Pkg() == nil ||
		!rawVerbs[fn.Name()] || g.IsClientPackage(fn.Pkg()) || !redisNamed(fn.Pkg().Path()) {
		return nil
	}
	n := sig.Params().Len()
	if n == 0 {
		return nil
	}
	sl, ok := sig.Params().At(n - 1).Type().(*types.Slice)
	if !ok || !types.IsInterface(sl.Elem()) || !sl.Elem().Underlying().(*types.Interface).Empty() {
		return nil
	}
	if len(g.implementations(fn)) > 0 {
		return nil
	}
	if g.rawRules == nil {
		g.rawRules = map[*types.Func]*ruleset.Method{}
	}
	if m := g.rawRules[fn]; m != nil {
		return m
	}
	m := rawRule(fn.Name(), n-1, !sig.Variadic())
	g.rawRules[fn] = m
	return m
}

// rawRule returns the rule of a raw method whose command and arguments are
// its parameter param on, spread (args...), or an []interface{} handed
// whole when slice is true.
func rawRule(name string, param int, slice bool) *ruleset.Method {
	return &ruleset.Method{Name: name, Kind: ruleset.KindRaw,
		Args:   &ruleset.Selector{Param: param, Variadic: true, Step: 1, Slice: slice, Text: fmt.Sprintf("%d...", param)},
		Script: ruleset.NoParam, Fn: ruleset.NoParam, DB: ruleset.NoParam, Reply: ruleset.NoParam}
}

// spread reports whether a raw call's last argument is spread into its
// command's arguments: args... to a variadic parameter, or an
// []interface{} handed whole to a project's raw executor (rawByName).
func spread(call *ast.CallExpr, m *ruleset.Method) bool {
	return call.Ellipsis.IsValid() || m.Args != nil && m.Args.Slice && m.Args.Variadic && m.Args.Param == len(call.Args)-1
}
