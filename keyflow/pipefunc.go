package keyflow

import (
	"go/ast"
	"go/types"
	"strconv"

	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/types/typeutil"
)

// Projects wrap the client's pipelines in functions of their own:
//
//	func (c *Cache) NewTxPipeline() redis.Pipeliner { return c.client.TxPipeline() }
//
//	func (r *Redis) Tx(ctx context.Context, fn func(redis.Pipeliner) error) error {
//		_, err := r.client.TxPipelined(ctx, fn)
//		return err
//	}
//
//	func (r *Redis) Transaction(fn func(redis.Pipeliner)) error {
//		p := r.client.TxPipeline()
//		fn(p)
//		_, err := p.Exec(ctx)
//		return err
//	}
//
// Such a function is, to its callers, the client method it wraps: a call
// of NewTxPipeline makes a MULTI/EXEC pipeline as TxPipeline does, and
// r.Tx(ctx, func(p redis.Pipeliner) error { ... }) queues the function
// literal's commands in one MULTI/EXEC as TxPipelined does. The engine
// resolves their calls to a rule of that kind (Engine.Resolve), here and,
// through the PipeFunc fact, in other packages; the rest of the model
// (handles, transactions, Execs) is the client's.

// PipeFunc is the fact that a function makes a pipeline (Kind
// tx-pipeline or pipeline), runs the function it is given as parameter Fn
// on one (Kind tx-pipelined or pipelined), in a Watch of the keys its
// parameters Keys give (Kind watch; selectors as in rules.yaml), or makes
// a script of its parameter's source (Kind new-script).
type PipeFunc struct {
	Kind string
	Fn   int
	Keys []string
	// Script is 1 + the parameter that holds the source of the script a
	// function makes (Kind new-script): go-zero's NewScript(script string)
	// returns red.NewScript(script).
	Script int
}

func (*PipeFunc) AFact() {}

func (f *PipeFunc) String() string {
	s := "pipeFunc(" + f.Kind
	if f.Fn >= 0 {
		s += " $" + strconv.Itoa(f.Fn)
	}
	if f.Script > 0 {
		s += " script $" + strconv.Itoa(f.Script-1)
	}
	for _, k := range f.Keys {
		s += " " + k
	}
	return s + ")"
}

// pipeFunc returns the rule that a function of the project acts as, or
// nil: a pipeline it makes or a function it runs on one.
func (g *Engine) pipeFunc(fn *types.Func) *ruleset.Method {
	if m, ok := g.pipeFuncs[fn]; ok {
		return m
	}
	if g.pipeFuncs == nil {
		g.pipeFuncs = map[*types.Func]*ruleset.Method{}
	}
	g.pipeFuncs[fn] = nil // guards against recursion
	var f PipeFunc
	if decl := g.decls[fn]; decl != nil {
		f = g.pipeFuncOf(fn, decl)
	} else if recv := fn.Signature().Recv(); recv != nil && fn.Pkg() == g.pkg && types.IsInterface(recv.Type()) {
		f = g.ifacePipeFunc(fn)
	} else if fn.Pkg() != nil && !g.IsClientPackage(fn.Pkg()) && g.mayBePipeFunc(fn) {
		g.facts.ImportObjectFact(fn, &f)
	}
	if f.Kind == "" {
		return nil
	}
	m := &ruleset.Method{Name: fn.Name(), Kind: ruleset.MethodKind(f.Kind), Script: ruleset.NoParam, Fn: ruleset.NoParam, DB: ruleset.NoParam, Reply: ruleset.NoParam}
	if f.Fn >= 0 {
		m.Fn = f.Fn
	}
	if f.Script > 0 {
		m.Script = f.Script - 1
	}
	for _, text := range f.Keys {
		sel, err := ruleset.ParseSelector(text)
		if err != nil {
			return nil
		}
		m.Keys = append(m.Keys, sel)
	}
	g.pipeFuncs[fn] = m
	return m
}

// mayBePipeFunc reports whether fn's signature allows it to be one: one
// result that may hold a pipeline, or a parameter of a function type that
// takes one first.
func (g *Engine) mayBePipeFunc(fn *types.Func) bool {
	sig := fn.Signature()
	if n := sig.Results().Len(); n == 1 || n == 2 && isErrorType(sig.Results().At(1).Type()) {
		if held, _ := g.mayHoldPipeline(sig.Results().At(0).Type()); held {
			return true
		}
		if n := namedOf(sig.Results().At(0).Type()); n != nil && n.Obj().Pkg() == g.pkg {
			return true // a wrapper of the package's own (returnsPipeline)
		}
		if n := namedOf(sig.Results().At(0).Type()); n != nil && g.IsClientPackage(n.Obj().Pkg()) {
			return true // a client's script
		}
	}
	for i := range sig.Params().Len() {
		if g.runsOnPipeline(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// runsOnPipeline reports whether t is a function type whose first
// parameter may hold a pipeline.
func (g *Engine) runsOnPipeline(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() == 0 {
		return false
	}
	held, _ := g.mayHoldPipeline(sig.Params().At(0).Type())
	return held
}

// pipeFuncOf finds what a declaration of the package does with
// pipelines: its body is one return of a pipeline-making call; or it
// hands a function parameter to TxPipelined or Pipelined (or to another
// such function), or calls it with a pipeline it made.
func (g *Engine) pipeFuncOf(fn *types.Func, decl *ast.FuncDecl) PipeFunc {
	if decl.Body == nil || !g.mayBePipeFunc(fn) {
		return PipeFunc{}
	}
	if k := g.returnsPipeline(decl); k != "" {
		return PipeFunc{Kind: string(k), Fn: -1}
	}
	if i, ok := g.madeScriptParam(fn, decl); ok {
		return PipeFunc{Kind: string(ruleset.KindNewScript), Fn: -1, Script: i + 1}
	}
	params := map[*types.Var]int{}
	for i := range fn.Signature().Params().Len() {
		if p := fn.Signature().Params().At(i); g.runsOnPipeline(p.Type()) {
			params[p] = i
		}
	}
	if len(params) == 0 {
		return PipeFunc{}
	}
	paramOf := func(x ast.Expr) int {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			if v, ok := g.info.Uses[id].(*types.Var); ok {
				if i, ok := params[v]; ok {
					return i
				}
			}
		}
		return -1
	}
	made := map[*types.Var]ruleset.MethodKind{} // variables set to a pipeline made here
	var found PipeFunc
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if found.Kind != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					if k := g.madePipeline(call); k != "" {
						if id, ok := n.Lhs[0].(*ast.Ident); ok {
							if v, ok := g.info.ObjectOf(id).(*types.Var); ok {
								made[v] = k
							}
						}
					}
				}
			}
		case *ast.CallExpr:
			if i := paramOf(n.Fun); i >= 0 && len(n.Args) > 0 {
				// fn(p) with a pipeline made here.
				if id, ok := ast.Unparen(n.Args[0]).(*ast.Ident); ok {
					if v, ok := g.info.Uses[id].(*types.Var); ok {
						switch made[v] {
						case ruleset.KindTxPipeline:
							found = PipeFunc{Kind: string(ruleset.KindTxPipelined), Fn: i}
						case ruleset.KindPipeline:
							found = PipeFunc{Kind: string(ruleset.KindPipelined), Fn: i}
						}
					}
				}
				return true
			}
			_, m := g.Resolve(n)
			if m == nil || m.Fn < 0 || m.Fn >= len(n.Args) {
				return true
			}
			i := paramOf(n.Args[m.Fn])
			if i < 0 {
				return true
			}
			switch m.Kind {
			case ruleset.KindTxPipelined, ruleset.KindPipelined:
				found = PipeFunc{Kind: string(m.Kind), Fn: i}
			case ruleset.KindWatch:
				if keys, ok := g.keyParams(fn, n, m); ok {
					found = PipeFunc{Kind: string(m.Kind), Fn: i, Keys: keys}
				}
			}
		}
		return true
	})
	return found
}

// returnsPipeline returns the kind of the pipeline that a function makes
// and returns, or "": each of its return statements returns a pipeline
// that a call there makes, or nil with an error, as go-zero's
//
//	func (s *Redis) TxPipeline() (pipe Pipeliner, err error) {
//		conn, err := getRedis(s)
//		if err != nil {
//			return nil, err
//		}
//		return conn.TxPipeline(), nil
//	}
func (g *Engine) returnsPipeline(decl *ast.FuncDecl) ruleset.MethodKind {
	var kind ruleset.MethodKind
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				ok = false
				return false
			}
			first := ast.Unparen(n.Results[0])
			if id, isID := first.(*ast.Ident); isID && g.info.Uses[id] == types.Universe.Lookup("nil") {
				return false
			}
			k := g.madeOrWrapped(first)
			if k == "" || kind != "" && k != kind {
				ok = false
				return false
			}
			kind = k
		}
		return true
	})
	if !ok {
		return ""
	}
	return kind
}

// madeOrWrapped returns the kind of the pipeline that x makes, or wraps
// as a wrapper of the package's own does: a literal whose field is set to
// the pipeline a call makes (&pipe{pipe: c.TxPipeline()}), or a call of a
// function that puts its parameter in such a field, given the pipeline a
// call makes (newPipe(c.TxPipeline(), ctx)); "" otherwise.
func (g *Engine) madeOrWrapped(x ast.Expr) ruleset.MethodKind {
	made := func(x ast.Expr) ruleset.MethodKind {
		if c, ok := ast.Unparen(x).(*ast.CallExpr); ok {
			return g.madePipeline(c)
		}
		return ""
	}
	if k := made(x); k != "" {
		return k
	}
	lit, field := fieldsLit(x), func(v ast.Expr) ast.Expr { return v }
	if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
		// A function whose one return statement is the literal: its
		// fields hold the call's arguments for its parameters.
		if fn, _ := typeutil.Callee(g.info, call).(*types.Func); fn != nil {
			lit = fieldsLit(oneReturn(g.decls[fn.Origin()]))
			field = func(v ast.Expr) ast.Expr {
				if i := paramOf(g.info, fn, v); i >= 0 && i < len(call.Args) {
					return call.Args[i]
				}
				return nil
			}
		}
	}
	if lit == nil {
		return ""
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if k := made(field(kv.Value)); k != "" {
				return k
			}
		}
	}
	return ""
}

// ifacePipeFunc returns what every implementation in the package of fn, a
// method of one of the package's interfaces, makes and returns: a
// pipeline of one kind (RedisClient.TxPipeline() Pipeliner, whose one
// implementation wraps the client's TxPipeline); nothing when one of them
// does not, or none is in sight.
func (g *Engine) ifacePipeFunc(fn *types.Func) PipeFunc {
	iface, ok := fn.Signature().Recv().Type().Underlying().(*types.Interface)
	if !ok || fn.Signature().Results().Len() == 0 {
		return PipeFunc{}
	}
	// Only a result that holds a pipeline, or a type of the package's
	// own that may wrap one, is looked for in the implementations.
	result := fn.Signature().Results().At(0).Type()
	if held, _ := g.mayHoldPipeline(result); !held {
		if n := namedOf(result); n == nil || n.Obj().Pkg() != g.pkg {
			return PipeFunc{}
		}
	}
	var kind ruleset.MethodKind
	scope := g.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 {
			continue
		}
		t := tn.Type()
		if !types.Implements(t, iface) {
			if t = types.NewPointer(t); !types.Implements(t, iface) {
				continue
			}
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, g.pkg, fn.Name())
		m, ok := obj.(*types.Func)
		if !ok {
			return PipeFunc{}
		}
		pm := g.pipeFunc(m)
		if pm == nil || pm.Kind != ruleset.KindTxPipeline && pm.Kind != ruleset.KindPipeline || kind != "" && pm.Kind != kind {
			return PipeFunc{}
		}
		kind = pm.Kind
	}
	if kind == "" {
		return PipeFunc{}
	}
	return PipeFunc{Kind: string(kind), Fn: -1}
}

// madeScriptParam reports which parameter of fn holds the source of the
// script it makes, when its body is one return of a client's NewScript of
// that parameter.
func (g *Engine) madeScriptParam(fn *types.Func, decl *ast.FuncDecl) (int, bool) {
	call, ok := oneReturn(decl).(*ast.CallExpr)
	if !ok {
		return 0, false
	}
	_, m := g.Resolve(call)
	if m == nil || m.Kind != ruleset.KindNewScript || m.Script < 0 || m.Script >= len(call.Args) {
		return 0, false
	}
	i := paramOf(g.info, fn, call.Args[m.Script])
	return i, i >= 0
}

// madePipeline returns the kind of the pipeline a call makes
// (tx-pipeline or pipeline), or "".
func (g *Engine) madePipeline(call *ast.CallExpr) ruleset.MethodKind {
	if _, m := g.Resolve(call); m != nil && (m.Kind == ruleset.KindTxPipeline || m.Kind == ruleset.KindPipeline) {
		return m.Kind
	}
	return ""
}

// keyParams returns the selectors of fn's parameters that give the keys
// of call, a Watch in fn's body: every key argument is one of fn's
// parameters, a string, or a slice or variadic one spread.
func (g *Engine) keyParams(fn *types.Func, call *ast.CallExpr, m *ruleset.Method) ([]string, bool) {
	if len(m.Keys) != 1 || !m.Keys[0].Variadic || m.Keys[0].Step > 1 || m.Keys[0].Param > len(call.Args) {
		return nil, false
	}
	params := fn.Signature().Params()
	var keys []string
	for _, arg := range call.Args[m.Keys[0].Param:] {
		i := paramOf(g.info, fn, arg)
		if i < 0 {
			return nil, false
		}
		switch {
		case !call.Ellipsis.IsValid():
			if !isStringType(params.At(i).Type()) {
				return nil, false
			}
			keys = append(keys, strconv.Itoa(i))
		case fn.Signature().Variadic() && i == params.Len()-1:
			keys = append(keys, strconv.Itoa(i)+"...")
		default:
			keys = append(keys, strconv.Itoa(i)+"[]")
		}
	}
	return keys, true
}

// exportPipeFuncs exports the PipeFunc facts of the package's exported
// functions.
func (g *Engine) exportPipeFuncs() {
	for fn, decl := range g.decls {
		if !fn.Exported() || decl.Body == nil {
			continue
		}
		if m := g.pipeFunc(fn); m != nil {
			f := &PipeFunc{Kind: string(m.Kind), Fn: -1}
			if m.Fn >= 0 {
				f.Fn = m.Fn
			}
			if m.Kind == ruleset.KindNewScript {
				f.Script = m.Script + 1
			}
			for _, k := range m.Keys {
				f.Keys = append(f.Keys, k.Text)
			}
			g.facts.ExportObjectFact(fn, f)
		}
	}
}

// isErrorType reports whether t is the error interface.
func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
