package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/slotlint/slotlint/keyspace"
)

// A field that nothing sets empty makes a test of it for the empty
// string dead code:
//
//	func (b *Backend) keyPrefix() string {
//		if b.prefix == "" {
//			return "go-worker" // never: the constructor sets a prefix
//		}
//		return "{" + b.prefix + "}"
//	}
//
// The return under the test is left out of what the function returns
// (liveReturns), as clusterReturns leaves out those that run only off a
// cluster.

// A test of a string parameter for the empty string decides which return
// runs, and a caller's constant argument decides the test:
//
//	func userKey(id, suffix string) string {
//		if suffix == "" {
//			return "{user:" + id + "}" // never for userKey(id, "presence")
//		}
//		return "{user:" + id + "}:" + suffix
//	}
//
// Each return holds the choice "empty" of the parameters tested on its way
// (emptyTests); at a call, emptyAt keeps the returns that the constants
// passed reach.

// emptyChoice is the Of of the choice that a parameter (its In) is empty
// (Alt 1) or not (Alt 0).
const emptyChoice = "empty"

// emptyTests returns the choices of the string parameters that the code at
// pos runs only where they are empty, or only where they are not.
func (e *evaluator) emptyTests(pos token.Pos) []keyspace.Choice {
	var out []keyspace.Choice
	for v, id := range e.params {
		if !isParamID(id) || !isStringType(v.Type()) || e.paramSet(v) {
			continue
		}
		empty := func(cond ast.Expr) bool {
			return slices.ContainsFunc(flatten(cond, token.LAND), func(t ast.Expr) bool { return e.testsEmpty(t, v, true) })
		}
		notEmpty := func(cond ast.Expr) bool {
			return slices.ContainsFunc(flatten(cond, token.LAND), func(t ast.Expr) bool { return e.testsEmpty(t, v, false) })
		}
		// A condition that fails: each of its || terms fails.
		failsEmpty := func(cond ast.Expr) bool {
			return slices.ContainsFunc(flatten(cond, token.LOR), func(t ast.Expr) bool { return e.testsEmpty(t, v, true) })
		}
		failsNotEmpty := func(cond ast.Expr) bool {
			return slices.ContainsFunc(flatten(cond, token.LOR), func(t ast.Expr) bool { return e.testsEmpty(t, v, false) })
		}
		noClause := func(ast.Node, *ast.CaseClause) bool { return false }
		switch {
		case e.guarded(pos, empty, failsNotEmpty, noClause):
			out = append(out, keyspace.Choice{Of: emptyChoice, In: []string{id}, Alt: 1})
		case e.guarded(pos, notEmpty, failsEmpty, noClause):
			out = append(out, keyspace.Choice{Of: emptyChoice, In: []string{id}, Alt: 0})
		}
	}
	return out
}

// testsEmpty reports whether t is v == "" or len(v) == 0 (empty true), or
// v != "", len(v) != 0 or len(v) > 0 (empty false).
func (e *evaluator) testsEmpty(t ast.Expr, v *types.Var, empty bool) bool {
	x, isEmpty, ok := e.g.emptyCompare(t)
	id, isID := x.(*ast.Ident)
	return ok && isEmpty == empty && isID && e.g.info.Uses[id] == v
}

// emptyCompare reads cond as a test of a string for the empty string: x
// == "" or len(x) == 0 (empty true); x != "", len(x) != 0 or len(x) > 0
// (empty false). x is the string, len's argument for len(x).
func (g *Engine) emptyCompare(cond ast.Expr) (x ast.Expr, empty, ok bool) {
	b, isBin := ast.Unparen(cond).(*ast.BinaryExpr)
	if !isBin {
		return nil, false, false
	}
	for _, side := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if !g.isZeroLen(side[0], side[1]) {
			continue
		}
		x = ast.Unparen(side[0])
		if call, isCall := x.(*ast.CallExpr); isCall && isBuiltin(g.info, call.Fun, "len") && len(call.Args) == 1 {
			x = ast.Unparen(call.Args[0])
		}
		switch {
		case b.Op == token.EQL:
			return x, true, true
		case b.Op == token.NEQ, b.Op == token.GTR && side[0] == b.X: // len(x) > 0
			return x, false, true
		}
	}
	return nil, false, false
}

// emptyAt decides at a call a choice of emptyTests whose parameter the call
// gives a constant: possible is whether the constant is empty as the
// choice says. decided is false for any other choice or argument.
func (g *Engine) emptyAt(call *ast.CallExpr, c keyspace.Choice) (decided, possible bool) {
	if call == nil || c.Of != emptyChoice || len(c.In) != 1 || !isParamID(c.In[0]) {
		return false, false
	}
	arg := g.argOf(call, c.In[0][1:])
	if arg == nil {
		return false, false
	}
	tv := g.info.Types[arg]
	if tv.Value == nil {
		return false, false
	}
	s, ok := constString(tv.Value)
	if !ok {
		return false, false
	}
	return true, (s == "") == (c.Alt == 1)
}

// liveReturns leaves out the return statements that run only where a
// string field that nothing sets empty is empty, unless all of them do.
func (g *Engine) liveReturns(e *evaluator, rets []*ast.ReturnStmt) []*ast.ReturnStmt {
	if e == nil || e.decl == nil || e.decl.Body == nil {
		return rets
	}
	never := func(ast.Expr) bool { return false }
	var out []*ast.ReturnStmt
	for _, r := range rets {
		if !e.guarded(r.Pos(), g.emptyFieldTest, never, func(ast.Node, *ast.CaseClause) bool { return false }) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return rets
	}
	return out
}

// emptyFieldTest reports whether cond is x.f == "" (or len(x.f) == 0) of
// a field f that nothing sets empty (neverEmpty).
func (g *Engine) emptyFieldTest(cond ast.Expr) bool {
	x, empty, ok := g.emptyCompare(cond)
	if !ok || !empty {
		return false
	}
	v := g.testedField(x)
	return v != nil && g.neverEmpty(v)
}

// testedField returns the string field that x reads, x.f.
func (g *Engine) testedField(x ast.Expr) *types.Var {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s, ok := g.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	if v == nil || !isStringType(v.Type()) {
		return nil
	}
	return v
}

// isZeroLen reports whether other is what tested is compared with to find
// it empty: "" for the field, 0 for len of it.
func (g *Engine) isZeroLen(tested, other ast.Expr) bool {
	tv := g.info.Types[other]
	if tv.Value == nil {
		return false
	}
	if _, isLen := ast.Unparen(tested).(*ast.CallExpr); isLen {
		return tv.Value.String() == "0"
	}
	s, ok := constString(tv.Value)
	return ok && s == ""
}

// neverEmpty reports whether nothing sets a string field of the package
// empty: it is unexported, every composite literal of its struct in the
// package sets it, and every write of it stores a constant that is not
// empty or a parameter that its writer has found not empty (WithPrefix's
// if prefix != "" { b.prefix = prefix }).
func (g *Engine) neverEmpty(v *types.Var) bool {
	if r, ok := g.nonEmpty[v]; ok {
		return r
	}
	r := g.findNeverEmpty(v)
	if g.nonEmpty == nil {
		g.nonEmpty = map[*types.Var]bool{}
	}
	g.nonEmpty[v] = r
	return r
}

func (g *Engine) findNeverEmpty(v *types.Var) bool {
	if v.Exported() || v.Pkg() != g.pkg {
		return false
	}
	writes, bad := g.fieldWrites()
	if bad[v] || len(writes[v]) == 0 {
		return false
	}
	for _, w := range writes[v] {
		if tv := g.info.Types[w.value]; tv.Value != nil {
			if s, ok := constString(tv.Value); !ok || s == "" {
				return false
			}
			continue
		}
		id, ok := ast.Unparen(w.value).(*ast.Ident)
		if !ok || w.decl == nil {
			return false
		}
		param, _ := g.info.Uses[id].(*types.Var)
		if param == nil {
			return false
		}
		checked := func(cond ast.Expr) bool {
			b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
			if !ok || b.Op != token.NEQ {
				return false
			}
			for _, side := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				x, ok := ast.Unparen(side[0]).(*ast.Ident)
				tv := g.info.Types[side[1]]
				if ok && g.info.Uses[x] == param && tv.Value != nil {
					if s, ok := constString(tv.Value); ok && s == "" {
						return true
					}
				}
			}
			return false
		}
		never := func(ast.Expr) bool { return false }
		if !g.writerEval(w.decl).guarded(w.site, checked, never, func(ast.Node, *ast.CaseClause) bool { return false }) {
			return false
		}
	}
	// Every literal of the struct sets the field.
	owner := g.fieldOwner(v)
	if owner == nil {
		return false
	}
	all := true
	for _, f := range g.files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !all {
				return all
			}
			t := g.info.TypeOf(lit)
			if t == nil || t.Underlying() != owner {
				return true
			}
			set := false
			for _, el := range lit.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && g.info.ObjectOf(id) == v {
						set = true
					}
				}
			}
			all = set
			return all
		})
	}
	return all
}
