package keyflow

import (
	"go/ast"
	"go/types"

	"github.com/slotlint/slotlint/keyspace"
)

// Keys made by a function kept in a struct field:
//
//	if ch.cacheKey == nil {
//		ch.cacheKey = func(key datastore.Key) string {
//			return "mercari:rediscache:" + key.Encode()
//		}
//	}
//	...
//	conn.Send("SET", ch.cacheKey(ci.Key), value)
//
// A call of a func-typed field of a struct of the package gives what the
// functions that the package stores in the field return: each function
// literal and each named function written there, with the call's
// arguments for their parameters. A function that a caller stores there
// (a parameter of an option) is the caller's choice, not the package's:
// the keys are those of the package's own functions, its default.

// heldCall evaluates a call of a function held in a field of a struct of
// the package; false when the package stores no function of its own there.
func (e *evaluator) heldCall(call *ast.CallExpr) ([]Value, bool) {
	g := e.g
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	s, ok := g.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil, false
	}
	v, _ := s.Obj().(*types.Var)
	if v == nil || v.Pkg() != g.pkg {
		return nil, false
	}
	writes, bad := g.fieldWrites()
	if bad[v] {
		return nil, false
	}
	var out []Value
	for _, w := range writes[v] {
		var results []keyspace.Key
		switch x := ast.Unparen(w.value).(type) {
		case *ast.FuncLit:
			results = g.litResults(x)
		case *ast.Ident, *ast.SelectorExpr:
			fn, _ := g.info.Uses[IdentOf(x)].(*types.Func)
			if fn == nil {
				continue // a caller's function, nil, another field
			}
			alts, ok := g.summaryCall(e, call, fn)
			if !ok {
				return nil, false
			}
			out = append(out, alts...)
			continue
		default:
			continue
		}
		if len(results) == 0 {
			return nil, false
		}
		for _, r := range results {
			for _, k := range g.substitute(e, call, r) {
				out = append(out, Value{k, call.Pos()})
			}
		}
	}
	if len(out) == 0 || len(out) > maxAlts {
		return nil, false
	}
	return out, true
}

// litResults returns the keys a function literal returns, in terms of its
// parameters ("$0", ...), as a summary gives a declared function's; nil
// when they say nothing more than "some value". The literal's captured
// variables are fresh values at each call.
func (g *Engine) litResults(lit *ast.FuncLit) []keyspace.Key {
	if ks, ok := g.lits[lit]; ok {
		return ks
	}
	if g.lits == nil {
		g.lits = map[*ast.FuncLit][]keyspace.Key{}
	}
	g.lits[lit] = nil // guards against recursion through the field
	res := lit.Type.Results
	if res == nil || len(res.List) == 0 || !isStringType(g.info.TypeOf(res.List[0].Type)) {
		return nil
	}
	e := newEvaluator(g, &ast.FuncDecl{Name: ast.NewIdent("func"), Type: lit.Type, Body: lit.Body})
	var alts []Value
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) > 0 {
				alts = append(alts, e.keys(n.Results[0])...)
			}
		}
		return true
	})
	if len(alts) == 0 || len(alts) > maxAlts || allOpaque(alts) {
		return nil
	}
	ks := make([]keyspace.Key, len(alts))
	for i, a := range alts {
		ks[i] = a.Key
	}
	g.lits[lit] = ks
	return ks
}
