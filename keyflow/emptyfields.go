package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
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
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	for _, side := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if v := g.testedField(side[0]); v != nil && g.isZeroLen(side[0], side[1]) {
			return g.neverEmpty(v)
		}
	}
	return false
}

// testedField returns the string field that x reads, x.f or len(x.f).
func (g *Engine) testedField(x ast.Expr) *types.Var {
	x = ast.Unparen(x)
	if call, ok := x.(*ast.CallExpr); ok && isBuiltin(g.info, call.Fun, "len") && len(call.Args) == 1 {
		x = ast.Unparen(call.Args[0])
	}
	sel, ok := x.(*ast.SelectorExpr)
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
