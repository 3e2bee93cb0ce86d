package keyflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/types/typeutil"
)

// formatHelper follows a call of a function of the package that formats
// its caller's template: a body of one return statement in which
// fmt.Sprintf takes a string parameter as its format and the variadic
// parameter spread, or strings.Join joins the variadic parameter, as in
//
//	func GetRedisKey(tmpl string, params ...interface{}) string {
//		return keyPrefix + fmt.Sprintf(tmpl, params...)
//	}
//
//	func join(args ...string) string { return strings.Join(args, "/") }
//
// A summary cannot hold a Sprintf of a format that is a parameter. At a
// call with a constant template, GetRedisKey("lora:ns:devaddr:%s", a),
// the Sprintf is the caller's Sprintf of that template and its
// arguments; the rest of the expression is the function's own values,
// with the caller's arguments for its parameters.
func (e *evaluator) formatHelper(call *ast.CallExpr, fn *types.Func) ([]Value, bool) {
	g := e.g
	sig, _ := fn.Type().(*types.Signature)
	decl := g.decls[fn.Origin()]
	if sig == nil || !sig.Variadic() || call.Ellipsis.IsValid() || decl == nil || decl.Body == nil || len(decl.Body.List) != 1 {
		return nil, false
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, false
	}
	params := sig.Params()
	param := func(x ast.Expr) int { return paramOf(g.info, fn, x) }
	ce := g.writerEval(decl)
	formatted := false
	var walk func(x ast.Expr) ([]Value, bool)
	walk = func(x ast.Expr) ([]Value, bool) {
		switch x := ast.Unparen(x).(type) {
		case *ast.BinaryExpr:
			if x.Op != token.ADD {
				break
			}
			l, ok := walk(x.X)
			if !ok {
				return nil, false
			}
			r, ok := walk(x.Y)
			if !ok {
				return nil, false
			}
			return concatAlts(l, r, call.Pos()), true
		case *ast.CallExpr:
			f, _ := typeutil.Callee(g.info, x).(*types.Func)
			if f != nil && f.FullName() == "strings.Join" && len(x.Args) == 2 && param(x.Args[0]) == params.Len()-1 {
				// strings.Join(parts, "/") of the variadic parameter: the
				// caller's arguments joined.
				sep := g.info.Types[x.Args[1]].Value
				if sep == nil || sep.Kind() != constant.String {
					return nil, false
				}
				var parts [][]Value
				for _, a := range call.Args[min(params.Len()-1, len(call.Args)):] {
					parts = append(parts, e.keys(a))
				}
				formatted = true
				return joinAlts(parts, litSep(constant.StringVal(sep), call.Pos()), call.Pos())
			}
			if f == nil || f.FullName() != "fmt.Sprintf" {
				break
			}
			fi, ok := g.formatParam(fn, x)
			if !ok {
				return nil, false
			}
			formatted = true
			return e.formatAt(call, fn, fi)
		}
		var out []Value
		for _, a := range ce.keys(x) {
			for _, k := range g.substitute(e, call, a.Key) {
				out = append(out, Value{k, call.Pos()})
			}
		}
		return out, len(out) > 0
	}
	alts, ok := walk(ret.Results[0])
	if !ok || !formatted || len(alts) > maxAlts {
		return nil, false
	}
	return alts, true
}

// formatParam reports which parameter of fn is the format of x, a
// fmt.Sprintf of it with fn's variadic parameter spread: its index, or -1
// for the receiver, as a key type's method formats its constants,
//
//	type Key string
//	func (k Key) Format(params ...any) string { return fmt.Sprintf(string(k), params...) }
//	const RecapBatch1 Key = "recap/replay/%d/batch"
func (g *Engine) formatParam(fn *types.Func, x *ast.CallExpr) (int, bool) {
	sig := fn.Signature()
	params := sig.Params()
	if !sig.Variadic() || !x.Ellipsis.IsValid() || len(x.Args) != 2 {
		return 0, false
	}
	if id, ok := ast.Unparen(x.Args[1]).(*ast.Ident); !ok || g.info.Uses[id] != params.At(params.Len()-1) {
		return 0, false
	}
	f := ast.Unparen(x.Args[0])
	if c, ok := f.(*ast.CallExpr); ok && len(c.Args) == 1 && g.info.Types[c.Fun].IsType() {
		f = ast.Unparen(c.Args[0]) // string(k)
	}
	id, ok := f.(*ast.Ident)
	if !ok {
		return 0, false
	}
	if r := sig.Recv(); r != nil && g.info.Uses[id] == r {
		return -1, true
	}
	for i := range params.Len() - 1 {
		if g.info.Uses[id] == params.At(i) {
			return i, true
		}
	}
	return 0, false
}

// formatAt returns the keys of call, a call of fn, whose parameter fi (-1
// for the receiver) is the format of a fmt.Sprintf of its variadic
// arguments: the caller's Sprintf of its format and arguments.
func (e *evaluator) formatAt(call *ast.CallExpr, fn *types.Func, fi int) ([]Value, bool) {
	var f ast.Expr
	switch {
	case fi >= 0 && fi < len(call.Args):
		f = call.Args[fi]
	case fi == -1:
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if s := e.g.info.Selections[sel]; !ok || s == nil || s.Kind() != types.MethodVal {
			return nil, false
		}
		f = sel.X
	default:
		return nil, false
	}
	from := fn.Signature().Params().Len() - 1
	return e.formatted(f, call.Args[min(from, len(call.Args)):], call.Pos())
}

// KeyFormat is the fact that a function returns fmt.Sprintf of its
// parameter Format (-1: its receiver) with its variadic arguments: a key
// type of another package, whose Format method formats its constants.
// Each call is the caller's Sprintf.
type KeyFormat struct {
	Format int
}

func (*KeyFormat) AFact() {}

func (f *KeyFormat) String() string { return "keyFormat(" + strconv.Itoa(f.Format) + ")" }

// sprintfReturn returns the parameter that a function whose body is one
// return of fmt.Sprintf formats (formatParam).
func (g *Engine) sprintfReturn(fn *types.Func, decl *ast.FuncDecl) (int, bool) {
	call, ok := oneReturn(decl).(*ast.CallExpr)
	if !ok {
		return 0, false
	}
	if f, _ := typeutil.Callee(g.info, call).(*types.Func); f == nil || f.FullName() != "fmt.Sprintf" {
		return 0, false
	}
	return g.formatParam(fn, call)
}

// importedFormat follows a call of another package's function that
// formats its caller's template (its KeyFormat fact).
func (e *evaluator) importedFormat(call *ast.CallExpr, fn *types.Func) ([]Value, bool) {
	var f KeyFormat
	if fn.Pkg() == e.g.pkg || call.Ellipsis.IsValid() || !e.g.facts.ImportObjectFact(fn, &f) {
		return nil, false
	}
	return e.formatAt(call, fn, f.Format)
}

// oneReturn returns the one result of a body that is one return
// statement, or nil.
func oneReturn(decl *ast.FuncDecl) ast.Expr {
	if decl == nil || decl.Body == nil || len(decl.Body.List) != 1 {
		return nil
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	return ast.Unparen(ret.Results[0])
}

// KeyJoin is the fact that a function returns the arguments of its
// variadic parameter joined by Sep: a key helper of another package,
// func ConcatenatedKey(keyVals ...string) string { return
// strings.Join(keyVals, ":") } (cgrates' utils). Each call is its
// arguments joined.
type KeyJoin struct {
	Sep string
}

func (*KeyJoin) AFact() {}

func (f *KeyJoin) String() string { return "keyJoin(" + strconv.Quote(f.Sep) + ")" }

// joinSep returns the separator of a function whose body is one return
// of strings.Join of its variadic parameter and a constant.
func (g *Engine) joinSep(fn *types.Func, decl *ast.FuncDecl) (string, bool) {
	sig := fn.Signature()
	call, ok := oneReturn(decl).(*ast.CallExpr)
	if !sig.Variadic() || !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return "", false
	}
	if f, _ := typeutil.Callee(g.info, call).(*types.Func); f == nil || f.FullName() != "strings.Join" {
		return "", false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok || g.info.Uses[id] != sig.Params().At(sig.Params().Len()-1) {
		return "", false
	}
	sep := g.info.Types[call.Args[1]].Value
	if sep == nil || sep.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(sep), true
}

// importedJoin follows a call of another package's function that joins
// its variadic arguments (its KeyJoin fact).
func (e *evaluator) importedJoin(call *ast.CallExpr, fn *types.Func) ([]Value, bool) {
	var f KeyJoin
	if fn.Pkg() == e.g.pkg || call.Ellipsis.IsValid() || !e.g.facts.ImportObjectFact(fn, &f) {
		return nil, false
	}
	from := fn.Signature().Params().Len() - 1
	var parts [][]Value
	for _, a := range call.Args[min(from, len(call.Args)):] {
		parts = append(parts, e.keys(a))
	}
	return joinAlts(parts, litSep(f.Sep, call.Pos()), call.Pos())
}
