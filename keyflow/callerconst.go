package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// A parameter that every caller fills with a constant:
//
//	func getObjectsBySomeRange(conn redis.Conn, command, key string, ...) {
//		ids, err := redis.Values(conn.Do(command, key, start, end))
//		...
//	}
//	getObjectsBySomeRange(conn, ZREVRANGE, key, start, end)
//
// An unexported function that the package only calls, never takes as a
// value, has the parameter values its calls pass: constants, or a
// parameter of the calling function that is such a parameter in turn
// (callerConsts follows three calls up), when no statement sets the
// parameter.

// paramSite is where a parameter belongs: its function and its index.
type paramSite struct {
	fn  *types.Func
	idx int
}

// callIndex lists, for each unexported function of the package, the calls
// of it, and the parameters of each function declared with a body.
type callIndex struct {
	calls   map[*types.Func][]*ast.CallExpr
	in      map[*ast.CallExpr]*ast.FuncDecl // the declaration each call is in
	escapes map[*types.Func]bool            // used other than as the callee of a call
	params  map[*types.Var]paramSite
	set     map[*types.Var]bool // assigned to, or its address taken
	// changed are the variables whose fields may change after they are
	// set: a field assigned (v.f = x, v.f++), the variable's or a field's
	// address taken, or a method of pointer receiver called on it.
	changed  map[types.Object]bool
	ifaceFns map[string]bool       // the names of the interface methods of the package
	foreign  map[*types.Named]bool // interfaces of other packages the package uses
}

func (g *Engine) callIndex() *callIndex {
	if g.calls != nil {
		return g.calls
	}
	ix := &callIndex{
		calls:    map[*types.Func][]*ast.CallExpr{},
		in:       map[*ast.CallExpr]*ast.FuncDecl{},
		escapes:  map[*types.Func]bool{},
		params:   map[*types.Var]paramSite{},
		set:      map[*types.Var]bool{},
		changed:  map[types.Object]bool{},
		ifaceFns: map[string]bool{},
		foreign:  map[*types.Named]bool{},
	}
	mark := func(x ast.Expr) {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			if v, ok := g.info.Uses[id].(*types.Var); ok {
				ix.set[v] = true
			}
		}
		if _, isSel := ast.Unparen(x).(*ast.SelectorExpr); isSel {
			if obj := rootObject(g.info, x); obj != nil {
				ix.changed[obj] = true
			}
		}
	}
	callee := map[*ast.Ident]bool{}
	for _, f := range g.files {
		var decl *ast.FuncDecl
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				decl = n
				fn, _ := g.info.Defs[n.Name].(*types.Func)
				if fn == nil {
					break
				}
				params := fn.Signature().Params()
				for i := 0; i < params.Len(); i++ {
					ix.params[params.At(i)] = paramSite{fn, i}
				}
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					mark(lhs)
				}
			case *ast.IncDecStmt:
				mark(n.X)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					mark(n.X)
					if obj := rootObject(g.info, n.X); obj != nil {
						ix.changed[obj] = true
					}
				}
			case *ast.CallExpr:
				var id *ast.Ident
				switch fun := ast.Unparen(n.Fun).(type) {
				case *ast.Ident:
					id = fun
				case *ast.SelectorExpr:
					id = fun.Sel
					if sel, ok := g.info.Selections[fun]; ok && sel.Kind() == types.MethodVal {
						if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
							if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
								if obj := rootObject(g.info, fun.X); obj != nil {
									ix.changed[obj] = true
								}
							}
						}
					}
				}
				if fn, ok := g.info.Uses[id].(*types.Func); ok && id != nil {
					ix.calls[fn] = append(ix.calls[fn], n)
					ix.in[n] = decl
					callee[id] = true
				}
			}
			return true
		})
	}
	for id, obj := range g.info.Uses {
		if fn, ok := obj.(*types.Func); ok && !callee[id] {
			ix.escapes[fn] = true
		}
	}
	for _, tv := range g.info.Types {
		if it, ok := tv.Type.Underlying().(*types.Interface); ok {
			for i := 0; i < it.NumMethods(); i++ {
				ix.ifaceFns[it.Method(i).Name()] = true
			}
			if n, ok := tv.Type.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg() != g.pkg {
				ix.foreign[n] = true
			}
		}
	}
	// A package may hand a value to another as an interface it never
	// names (session.Register("redis", provider), of a session.Provider):
	// the exported interfaces of the packages it imports, outside the
	// standard library and the clients, of more than one method.
	for _, imp := range g.pkg.Imports() {
		if !strings.Contains(strings.SplitN(imp.Path(), "/", 2)[0], ".") || g.rules.ClientOf(imp.Path()) != nil {
			continue
		}
		scope := imp.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 {
				if it, ok := n.Underlying().(*types.Interface); ok && it.NumMethods() > 1 {
					ix.foreign[n] = true
				}
			}
		}
	}
	g.calls = ix
	return ix
}

// callerConsts returns the constant strings that the calls of the
// function whose parameter v is pass in its place, when every call passes
// one (or a parameter that callerConsts resolves in turn), and the
// function is unexported, of this package, and only called directly.
func (g *Engine) callerConsts(v *types.Var) ([]string, bool) {
	return g.callerConstsDepth(v, 3, map[*types.Var]bool{})
}

func (g *Engine) callerConstsDepth(v *types.Var, depth int, seen map[*types.Var]bool) ([]string, bool) {
	ix := g.callIndex()
	ps, ok := g.calledParam(v)
	if !ok || depth == 0 || seen[v] {
		return nil, false
	}
	seen[v] = true
	var out []string
	for _, call := range ix.calls[ps.fn] {
		if ps.idx >= len(call.Args) || call.Ellipsis.IsValid() {
			return nil, false
		}
		arg := call.Args[ps.idx]
		if tv := g.info.Types[arg]; tv.Value != nil {
			s, ok := constString(tv.Value)
			if !ok {
				return nil, false
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
			continue
		}
		id, ok := ast.Unparen(arg).(*ast.Ident)
		if !ok {
			return nil, false
		}
		pv, ok := g.info.Uses[id].(*types.Var)
		if !ok {
			return nil, false
		}
		more, ok := g.callerConstsDepth(pv, depth-1, seen)
		if !ok {
			return nil, false
		}
		for _, s := range more {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out, len(out) > 0
}

// calledParam returns where v belongs, when it is a parameter, not the
// variadic one, that its function never sets, of an unexported function
// of the package that is only called directly, by name, and is called:
// each call's argument is its value.
func (g *Engine) calledParam(v *types.Var) (paramSite, bool) {
	ix := g.callIndex()
	ps, ok := ix.params[v]
	if !ok || ix.set[v] || ps.fn.Exported() || ps.fn.Pkg() != g.pkg || ix.escapes[ps.fn] || len(ix.calls[ps.fn]) == 0 {
		return paramSite{}, false
	}
	sig := ps.fn.Signature()
	if sig.Variadic() && ps.idx == sig.Params().Len()-1 {
		return paramSite{}, false
	}
	if sig.Recv() != nil && ix.ifaceFns[ps.fn.Name()] {
		// An interface of the package may call the method dynamically.
		return paramSite{}, false
	}
	return ps, true
}

// callerValues returns the values that the calls of the function whose
// parameter v is pass in its place, each as its caller's evaluator gives
// it, with the caller's parameters named after it (foreign), when the
// function is unexported, of this package, only called directly, and
// never sets v: a pattern a helper lists keys by, given by its callers
// (deleteKeysByPattern(ctx, stockPattern(activityNo))).
func (g *Engine) callerValues(v *types.Var) ([]Value, bool) {
	return g.callerValuesUpTo(v, false)
}

// callerPatterns is callerValues for the pattern of a listing command
// (KEYS, SCAN): past maxAlts, the first maxAlts of the patterns the
// callers give (a range over a list of ten patterns). Each is a pattern a
// caller sends, so a finding on the keys one of them lists is true; the
// patterns left out can only hide one.
func (g *Engine) callerPatterns(v *types.Var) ([]Value, bool) {
	return g.callerValuesUpTo(v, true)
}

// rangedElems returns the values of the elements of the slice that x, a
// range variable, ranges over (for _, p := range []string{...}), however
// many: those a turn may hold.
func (e *evaluator) rangedElems(x ast.Expr) ([]Value, bool) {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v := e.localVar(id)
	if v == nil || len(e.defs[v]) != 1 || e.defs[v][0].rng == nil {
		return nil, false
	}
	sl := e.slice(e.defs[v][0].rng)
	if sl.open || len(sl.elems) == 0 {
		return nil, false
	}
	var out []Value
	for _, el := range sl.elems {
		out = append(out, el.alts...)
	}
	return out, true
}

func (g *Engine) callerValuesUpTo(v *types.Var, truncate bool) ([]Value, bool) {
	ix := g.callIndex()
	ps, ok := g.calledParam(v)
	if !ok {
		return nil, false
	}
	var out []Value
	for _, call := range ix.calls[ps.fn] {
		decl := ix.in[call]
		if ps.idx >= len(call.Args) || call.Ellipsis.IsValid() || decl == nil || decl.Body == nil {
			return nil, false
		}
		ev := g.writerEval(decl)
		alts := ev.keys(call.Args[ps.idx])
		if truncate {
			if elems, ok := ev.rangedElems(call.Args[ps.idx]); ok {
				alts = elems
			}
		}
		out = append(out, foreign(alts, decl.Name.Name)...)
		if len(out) > maxAlts {
			if !truncate {
				return nil, false
			}
			return out[:maxAlts], true
		}
	}
	return out, len(out) > 0
}

// behindForeign reports whether the method fn is one that nothing in the
// package calls, directly, through an interface method of its name or as
// a value, while its type implements an interface of another package that
// has it: its callers reach it through that interface, in packages that
// cannot see its facts (the interface's package does not import this one).
func (g *Engine) behindForeign(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil || !fn.Exported() {
		return false
	}
	ix := g.callIndex()
	if len(ix.calls[fn]) > 0 || ix.escapes[fn] {
		return false
	}
	for callee := range ix.calls {
		if r := callee.Signature().Recv(); r != nil && callee.Name() == fn.Name() && types.IsInterface(r.Type()) {
			return false
		}
	}
	for n := range ix.foreign {
		it := n.Underlying().(*types.Interface)
		for i := 0; i < it.NumMethods(); i++ {
			if it.Method(i).Name() == fn.Name() && types.Implements(recv.Type(), it) {
				return true
			}
		}
	}
	return false
}
