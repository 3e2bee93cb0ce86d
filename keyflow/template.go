package keyflow

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"

	"github.com/slotlint/slotlint/keyspace"
	"golang.org/x/tools/go/types/typeutil"
)

const keyspacePath = "github.com/slotlint/slotlint/keyspace"

// template evaluates t.Key(values...) and t.Build(values...) on a keyspace
// template whose text is known.
func (g *Engine) template(e *evaluator, call *ast.CallExpr, fn *types.Func) ([]Value, bool) {
	if fn.Pkg() == nil || fn.Pkg().Path() != keyspacePath || (fn.Name() != "Key" && fn.Name() != "Build") {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	text, ok := g.templateText(e, sel.X)
	if !ok || call.Ellipsis.IsValid() {
		return nil, false
	}
	t, err := keyspace.ParseTemplate(text)
	if err != nil {
		return nil, false
	}
	values := make([][]keyspace.Key, len(call.Args))
	for i, a := range call.Args {
		for _, v := range e.keys(a) {
			values[i] = append(values[i], v.Key)
		}
	}
	// Every combination of the values' alternatives.
	if count(values, maxAlts) > maxAlts {
		return nil, false
	}
	var out []Value
	combos(reversed(values), maxAlts, func(vals []keyspace.Key) bool {
		if !keyspace.Consistent(vals...) {
			return true
		}
		vals = slices.Clone(vals)
		slices.Reverse(vals)
		out = append(out, Value{t.Apply(vals), call.Pos()})
		return true
	})
	return out, true
}

// templateText returns the text of the template that x holds: a call to
// keyspace.MustTemplate or ParseTemplate with a constant, or a variable
// set to one, here or (by a fact) in another package.
func (g *Engine) templateText(e *evaluator, x ast.Expr) (string, bool) {
	info := g.info
	x = ast.Unparen(x)
	switch x := x.(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, x).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != keyspacePath ||
			(fn.Name() != "MustTemplate" && fn.Name() != "ParseTemplate") || len(x.Args) != 1 {
			return "", false
		}
		tv := info.Types[x.Args[0]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(tv.Value), true
	case *ast.SelectorExpr:
		return g.templateText(e, x.Sel)
	case *ast.Ident:
		v, ok := info.ObjectOf(x).(*types.Var)
		if !ok {
			return "", false
		}
		if v.Pkg() != g.pkg {
			var f KeyVar
			if g.facts.ImportObjectFact(v, &f) && f.Template != "" {
				return f.Template, true
			}
			return "", false
		}
		if init, ok := g.pkgVars[v]; ok {
			return g.templateText(e, init)
		}
		if defs := e.defs[v]; len(defs) == 1 && defs[0].rhs != nil {
			return g.templateText(e, defs[0].rhs)
		}
	}
	return "", false
}
