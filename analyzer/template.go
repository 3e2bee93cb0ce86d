package analyzer

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/slotlint/slotlint/keyspace"
	"golang.org/x/tools/go/types/typeutil"
)

const keyspacePath = "github.com/slotlint/slotlint/keyspace"

// template evaluates t.Key(values...) and t.Build(values...) on a keyspace
// template whose text is known.
func (c *checker) template(e *evaluator, call *ast.CallExpr, fn *types.Func) ([]kval, bool) {
	if fn.Pkg() == nil || fn.Pkg().Path() != keyspacePath || (fn.Name() != "Key" && fn.Name() != "Build") {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	text, ok := c.templateText(e, sel.X)
	if !ok || call.Ellipsis.IsValid() {
		return nil, false
	}
	t, err := keyspace.ParseTemplate(text)
	if err != nil {
		return nil, false
	}
	out := []kval{{keyspace.Key{}, call.Pos()}}
	values := make([][]kval, len(call.Args))
	for i, a := range call.Args {
		values[i] = e.keys(a)
	}
	// Every combination of the values' alternatives.
	var combos [][]keyspace.Key
	var walk func(i int, acc []keyspace.Key)
	walk = func(i int, acc []keyspace.Key) {
		if len(combos) > maxAlts {
			return
		}
		if i == len(values) {
			combos = append(combos, append([]keyspace.Key(nil), acc...))
			return
		}
		for _, v := range values[i] {
			walk(i+1, append(acc, v.key))
		}
	}
	walk(0, nil)
	if len(combos) > maxAlts {
		return nil, false
	}
	out = out[:0]
	for _, vals := range combos {
		out = append(out, kval{t.Apply(vals), call.Pos()})
	}
	return out, true
}

// templateText returns the text of the template that x holds: a call to
// keyspace.MustTemplate or ParseTemplate with a constant, or a variable
// set to one, here or (by a fact) in another package.
func (c *checker) templateText(e *evaluator, x ast.Expr) (string, bool) {
	info := c.pass.TypesInfo
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
		return c.templateText(e, x.Sel)
	case *ast.Ident:
		v, ok := info.ObjectOf(x).(*types.Var)
		if !ok {
			return "", false
		}
		if v.Pkg() != c.pass.Pkg {
			var f keyVar
			if c.pass.ImportObjectFact(v, &f) && f.Template != "" {
				return f.Template, true
			}
			return "", false
		}
		if init, ok := c.pkgVars[v]; ok {
			return c.templateText(e, init)
		}
		if defs := e.defs[v]; len(defs) == 1 && defs[0].rhs != nil {
			return c.templateText(e, defs[0].rhs)
		}
	}
	return "", false
}
