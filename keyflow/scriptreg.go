package keyflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Scripts registered by address: package-level variables that a table
// names by a constant, and a loader of the package sets through the
// table's pointers, as go-workflows's Redis backend loads its Lua:
//
//	var sizeCmd *redis.Script
//
//	cmdMapping := map[string]**redis.Script{"queue/size.lua": &sizeCmd}
//	loadScripts(ctx, rdb, cmdMapping)
//
//	func loadScripts(ctx context.Context, rdb redis.UniversalClient, m map[string]**redis.Script) error {
//		for file, cmd := range m {
//			src, err := fs.ReadFile(luaScripts, "scripts/"+file)
//			...
//			*cmd = redis.NewScript(string(src))
//		}
//	}
//
// Each variable holds what the loop's assignment makes with the range key
// bound to the variable's key in the table. A variable whose address is
// taken anywhere else, or that is assigned anywhere, is left unknown.

// registeredScript returns the script that a package-level variable holds
// when the package registers it by address in a table that a loader fills.
func (g *Engine) registeredScript(v *types.Var, name string) (ScriptRef, bool) {
	if v.Pkg() != g.pkg || v.Parent() != g.pkg.Scope() {
		return ScriptRef{}, false
	}
	if g.registered == nil {
		g.registered = g.findRegistered()
	}
	r, ok := g.registered[v]
	if !ok {
		return ScriptRef{}, false
	}
	if g.scriptCalls[r.loader] {
		return ScriptRef{}, false
	}
	ce := newEvaluator(g, r.loader)
	ce.consts = map[*types.Var]string{r.key: r.name}
	if g.scriptCalls == nil {
		g.scriptCalls = map[*ast.FuncDecl]bool{}
	}
	g.scriptCalls[r.loader] = true
	defer delete(g.scriptCalls, r.loader)
	ref, ok := g.scriptOf(ce, r.rhs, name)
	if !ok {
		return ScriptRef{}, false
	}
	ref.Name, ref.Pos = name, v.Pos()
	return ref, true
}

// A registration is one variable's entry in a table that a loader fills:
// the loader, its range key variable, the entry's key, and what the loop
// assigns through the pointer.
type registration struct {
	loader *ast.FuncDecl
	key    *types.Var
	name   string
	rhs    ast.Expr
}

// findRegistered finds the package-level variables registered by address
// in a map literal with constant keys that is handed, directly or through
// a local variable, to a function of the package that ranges over it and
// assigns through each pointer once.
func (g *Engine) findRegistered() map[*types.Var]registration {
	out := map[*types.Var]registration{}
	addrs := map[*types.Var]int{}
	assigned := map[*types.Var]bool{}
	type entry struct {
		v    *types.Var
		name string
	}
	var tables []struct {
		lit     *ast.CompositeLit
		decl    *ast.FuncDecl
		entries []entry
	}
	for _, f := range g.files {
		for _, d := range f.Decls {
			decl, _ := d.(*ast.FuncDecl)
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.UnaryExpr:
					if v := g.pkgVarOf(n.X); v != nil && n.Op == token.AND {
						addrs[v]++
					}
				case *ast.AssignStmt:
					for _, lhs := range n.Lhs {
						if v := g.pkgVarOf(lhs); v != nil {
							assigned[v] = true
						}
					}
				case *ast.IncDecStmt:
					if v := g.pkgVarOf(n.X); v != nil {
						assigned[v] = true
					}
				case *ast.CompositeLit:
					if decl == nil {
						return true
					}
					mt, ok := g.info.TypeOf(n).Underlying().(*types.Map)
					if !ok {
						return true
					}
					if _, ok := mt.Elem().Underlying().(*types.Pointer); !ok {
						return true
					}
					var es []entry
					for _, el := range n.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							return true
						}
						kval := g.info.Types[kv.Key].Value
						u, ok := ast.Unparen(kv.Value).(*ast.UnaryExpr)
						if kval == nil || kval.Kind() != constant.String || !ok || u.Op != token.AND {
							continue
						}
						if v := g.pkgVarOf(u.X); v != nil {
							es = append(es, entry{v, constant.StringVal(kval)})
						}
					}
					if len(es) > 0 {
						tables = append(tables, struct {
							lit     *ast.CompositeLit
							decl    *ast.FuncDecl
							entries []entry
						}{n, decl, es})
					}
				}
				return true
			})
		}
	}
	for _, t := range tables {
		loader, param := g.tableLoader(t.decl, t.lit)
		if loader == nil {
			continue
		}
		key, rhs := g.loadLoop(loader, param)
		if key == nil {
			continue
		}
		for _, en := range t.entries {
			if addrs[en.v] != 1 || assigned[en.v] {
				continue
			}
			if _, init := g.pkgVars[en.v]; init {
				continue
			}
			out[en.v] = registration{loader: loader, key: key, name: en.name, rhs: rhs}
		}
	}
	return out
}

// tableLoader returns the function of the package that a map literal of
// decl is handed to, and its parameter there: the literal is the call's
// argument, or the value of a local variable set once and used only as
// that argument; or decl itself and that variable, when decl ranges over
// it.
func (g *Engine) tableLoader(decl *ast.FuncDecl, lit *ast.CompositeLit) (*ast.FuncDecl, *types.Var) {
	var holder *types.Var
	var loader *ast.FuncDecl
	var param *types.Var
	uses := 0
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && ast.Unparen(n.Rhs[0]) == lit {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					holder, _ = g.info.ObjectOf(id).(*types.Var)
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == 1 && len(n.Values) == 1 && ast.Unparen(n.Values[0]) == lit {
				holder, _ = g.info.Defs[n.Names[0]].(*types.Var)
			}
		}
		return true
	})
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && holder != nil && g.info.Uses[id] == holder {
			uses++
		}
		if rs, ok := n.(*ast.RangeStmt); ok && holder != nil {
			// for k, p := range table in the function itself
			if id, ok := ast.Unparen(rs.X).(*ast.Ident); ok && g.info.Uses[id] == holder {
				loader, param = decl, holder
			}
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for i, a := range call.Args {
			a = ast.Unparen(a)
			if a != lit {
				if id, ok := a.(*ast.Ident); !ok || holder == nil || g.info.Uses[id] != holder {
					continue
				}
			}
			fn, ok := g.info.Uses[calleeIdent(call)].(*types.Func)
			if !ok || call.Ellipsis.IsValid() {
				continue
			}
			d := g.decls[fn.Origin()]
			if d == nil || d.Body == nil || i >= fn.Signature().Params().Len() {
				continue
			}
			loader, param = d, fn.Signature().Params().At(i)
			if o, ok := g.info.Defs[paramIdent(d, i)].(*types.Var); ok {
				param = o
			}
		}
		return true
	})
	if holder != nil && uses != 1 {
		return nil, nil
	}
	return loader, param
}

// paramIdent returns the name of a function declaration's i-th parameter.
func paramIdent(d *ast.FuncDecl, i int) *ast.Ident {
	for _, f := range d.Type.Params.List {
		for _, n := range f.Names {
			if i == 0 {
				return n
			}
			i--
		}
		if len(f.Names) == 0 {
			i--
		}
	}
	return nil
}

// loadLoop returns, for a loader that ranges over its parameter table
// (for k, p := range table), the range key variable and the one value the
// loop assigns through p (*p = x).
func (g *Engine) loadLoop(loader *ast.FuncDecl, table *types.Var) (*types.Var, ast.Expr) {
	var key *types.Var
	var rhs ast.Expr
	n := 0
	ast.Inspect(loader.Body, func(x ast.Node) bool {
		rs, ok := x.(*ast.RangeStmt)
		if !ok || rs.Tok != token.DEFINE || rs.Key == nil || rs.Value == nil {
			return true
		}
		if id, ok := ast.Unparen(rs.X).(*ast.Ident); !ok || g.info.Uses[id] != table {
			return true
		}
		kid, _ := rs.Key.(*ast.Ident)
		vid, _ := rs.Value.(*ast.Ident)
		if kid == nil || vid == nil {
			return true
		}
		ptr := g.info.Defs[vid]
		ast.Inspect(rs.Body, func(y ast.Node) bool {
			as, ok := y.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			star, ok := ast.Unparen(as.Lhs[0]).(*ast.StarExpr)
			if !ok {
				return true
			}
			if id, ok := ast.Unparen(star.X).(*ast.Ident); ok && g.info.Uses[id] == ptr {
				rhs = as.Rhs[0]
				n++
			}
			return true
		})
		key, _ = g.info.Defs[kid].(*types.Var)
		return true
	})
	if n != 1 || key == nil {
		return nil, nil
	}
	return key, rhs
}
