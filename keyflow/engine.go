package keyflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Facts gives the engine the facts that other packages exported, and takes
// those of the package it follows. *analysis.Pass is one; tests give a map.
type Facts interface {
	ImportObjectFact(obj types.Object, fact analysis.Fact) bool
	ExportObjectFact(obj types.Object, fact analysis.Fact)
}

// FactTypes are the facts that the engine imports and exports. The one
// Analyzer that runs the engine lists them as its FactTypes.
func FactTypes() []analysis.Fact {
	return []analysis.Fact{new(KeyFunc), new(KeyVar), new(KeyWrapper), new(KeyField), new(KeyScript), new(KeyScriptFunc), new(KeyScriptFS), new(KeyScriptMaker), new(KeyScriptCtor), new(PipeFunc), new(KeyJoin), new(KeyFormat), new(KeyReply)}
}

// Config is one type-checked package and what the engine needs with it.
type Config struct {
	Fset  *token.FileSet
	Pkg   *types.Package
	Info  *types.Info
	Files []*ast.File
	Rules *ruleset.Rules
	Facts Facts
}

// An Engine follows the keys of one package. It computes each function's
// model once, on demand, and never reports.
type Engine struct {
	fset  *token.FileSet
	pkg   *types.Package
	info  *types.Info
	files []*ast.File
	rules *ruleset.Rules
	facts Facts
	// fits caches whether each rule fits each function it was met on,
	// faults holds those that do not (fit.go).
	fits   map[fitKey]error
	faults []error

	// called are the functions and methods the package calls; nil until
	// calledMethods scans it.
	called map[string]bool

	decls map[*types.Func]*ast.FuncDecl
	// nonEmpty caches neverEmpty of string fields (emptyfields.go).
	nonEmpty map[*types.Var]bool
	pkgVars  map[*types.Var]ast.Expr // package-level variables set once, by their initializer
	// pkgInitial are the initializers of the package-level variables
	// that are assigned too (initReset).
	pkgInitial map[*types.Var]ast.Expr
	pkgEval    *evaluator

	funcs map[*types.Func]*Func
	init  *Func
	// initNames names the variables that package-level calls initialize.
	initNames map[*ast.CallExpr]string
	scripts   scripts
	// mvals maps local variables set once to a method value to it; nil
	// until methodValues scans the package.
	mvals map[*types.Var]*ast.SelectorExpr
	// written marks variables whose elements are assigned; nil until
	// indexWritten scans the package.
	written map[*types.Var]bool
	// pure are the package's functions known to return the same for the
	// same arguments (deterministic).
	pure map[*types.Func]bool
	// calls indexes the calls of the package's functions; nil until
	// callerConsts needs it.
	calls *callIndex
	// fields are the writes of the package's string fields, fieldVals
	// their keys, writerEvals the evaluators of the functions that write
	// them; nil until fieldKeys scans the package.
	fields      map[*types.Var][]fieldWrite
	fieldVals   map[*types.Var][]keyspace.Key
	writerEvals map[*ast.FuncDecl]*evaluator
	// lits are the keys that function literals stored in fields return
	// (heldCall), found on first use.
	lits map[*ast.FuncLit][]keyspace.Key
	// makers are the package's functions that make a counted script, by
	// scriptMaker (nil: not one).
	makers map[*types.Func]*KeyScriptMaker
	// formatting holds the fmt.Sprintf calls whose script formattedScript
	// is reading, against a value made of itself.
	formatting map[*ast.CallExpr]bool
	// allFieldWrites are the writes of every field, of any type, in the
	// package's code, and badFieldWrites the fields also written in ways
	// not followed; nil until fieldWrites scans the package.
	allFieldWrites map[*types.Var][]fieldWrite
	// indexWrites are the writes by index into each map or slice field
	// (elemWrites), found on first use.
	indexWrites    map[*types.Var][]indexWrite
	badFieldWrites map[*types.Var]bool
	// resultFieldWrites are the writes of fields from one result of a
	// call of several (x.a, x.b = names(id)), which only a string field's
	// values read (fieldKeys); fieldWrites marks such fields bad.
	resultFieldWrites map[*types.Var][]fieldWrite
	// otherBadFieldWrites are the fields written in ways not followed
	// other than those.
	otherBadFieldWrites map[*types.Var]bool
	fieldOwners         map[*types.Var]*types.Struct    // the struct of each field of the package
	initSets            map[*types.Var]initSet          // package-level variables set once, in a function (setOnce)
	initResets          map[*types.Var]initSet          // package-level variables with an initializer set once more, in init (initReset)
	resetting           map[*types.Var]bool             // variables whose init assignment is being read (pkgVarScript)
	registered          map[*types.Var]registration     // package-level variables a loader fills by address (scriptreg.go)
	impls               map[*types.Func][]*types.Func   // the implementations of each interface method called
	pipeFuncs           map[*types.Func]*ruleset.Method // the project's functions that act as a client's pipeline methods (pipefunc.go)
	implPkgs            []*types.Package                // the packages whose types may implement them
	// embeds are the //go:embed directives of package-level variables;
	// nil until embedded scans the package.
	embeds map[*types.Var]embedDirective
	// scriptCalls are the functions being followed for the script a call
	// of them makes, against recursion.
	scriptCalls map[*ast.FuncDecl]bool
	// building are the functions being followed for the command they
	// build (builtByCall), against recursion.
	building map[*ast.FuncDecl]bool
	// tagged caches TaggedPrefix; nil until it is asked.
	tagged *bool
	// sends is false in packages that cannot reach a client library: there
	// only the keys that functions return and variables hold are followed,
	// for importers.
	sends bool
	// rawRules are the raw rules of a project's own raw executors
	// (rawByName), made once each.
	rawRules map[*types.Func]*ruleset.Method
	// ssaL is the package's SSA form, built on first need (ssa.go);
	// ssaFailed is true when it could not be.
	ssaL      *ssaLayer
	ssaFailed bool
	// ssaUnits are the package's top-level declarations with code and
	// how they refer to each other (ssaunits.go); nil until first needed.
	ssaUnits *unitGraph
	// againOf maps a key to its value in another element of the
	// collection it came from, where the SSA layer knows it.
	againOf map[string]keyspace.Key
}

// ForPass returns the engine of an analysis pass.
func ForPass(pass *analysis.Pass, rules *ruleset.Rules) *Engine {
	return New(Config{Fset: pass.Fset, Pkg: pass.Pkg, Info: pass.TypesInfo, Files: pass.Files, Rules: rules, Facts: passFacts{pass}})
}

// passFacts are the facts of an analysis pass.
type passFacts struct{ pass *analysis.Pass }

func (f passFacts) ImportObjectFact(obj types.Object, fact analysis.Fact) bool {
	return f.pass.ImportObjectFact(obj, fact)
}

func (f passFacts) ExportObjectFact(obj types.Object, fact analysis.Fact) {
	f.pass.ExportObjectFact(obj, fact)
}

// New returns the engine of a package.
func New(cfg Config) *Engine {
	g := &Engine{
		fset:      cfg.Fset,
		pkg:       cfg.Pkg,
		info:      cfg.Info,
		files:     cfg.Files,
		rules:     cfg.Rules,
		facts:     cfg.Facts,
		decls:     map[*types.Func]*ast.FuncDecl{},
		pkgVars:   map[*types.Var]ast.Expr{},
		funcs:     map[*types.Func]*Func{},
		initNames: map[*ast.CallExpr]string{},
	}
	g.sends = reachesClient(g.pkg, g.rules)
	assigned := map[*types.Var]bool{}
	for _, f := range g.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if fn, ok := g.info.Defs[d.Name].(*types.Func); ok {
					g.decls[fn] = d
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					if len(vs.Values) != len(vs.Names) {
						continue
					}
					for i, id := range vs.Names {
						if v, ok := g.info.Defs[id].(*types.Var); ok {
							g.pkgVars[v] = vs.Values[i]
						}
					}
				}
			}
		}
		// A package-level variable that is assigned anywhere is not taken
		// to hold its initial value.
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
						if v, ok := g.info.Uses[id].(*types.Var); ok {
							assigned[v] = true
						}
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
					if v, ok := g.info.Uses[id].(*types.Var); ok {
						assigned[v] = true
					}
				}
			}
			return true
		})
	}
	g.pkgInitial = map[*types.Var]ast.Expr{}
	for v := range assigned {
		if init, ok := g.pkgVars[v]; ok {
			g.pkgInitial[v] = init
		}
		delete(g.pkgVars, v)
	}
	g.pkgEval = newEvaluator(g, nil)
	return g
}

// Fact imports the fact of type fact's that another package exported
// about obj, as analysis.Pass.ImportObjectFact does; it reports whether
// there is one.
func (g *Engine) Fact(obj types.Object, fact analysis.Fact) bool {
	return g.facts.ImportObjectFact(obj, fact)
}

// Rules returns the rule set the engine resolves calls with.
func (g *Engine) Rules() *ruleset.Rules { return g.rules }

// SendsCommands reports whether the package can reach a client library
// named in the rules, directly or through its dependencies, or whether the
// rules declare wrappers. Where it cannot, Funcs is empty: only the facts
// of key-building helpers and variables are worth computing.
func (g *Engine) SendsCommands() bool { return g.sends }

// reachesClient reports whether pkg imports a client library named in the
// rules, or a package named for Redis whose interfaces may be a client
// (byName), directly or through its dependencies, or the rules declare
// wrappers.
func reachesClient(pkg *types.Package, rules *ruleset.Rules) bool {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package) bool
	walk = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		if rules.ClientOf(p.Path()) != nil || redisNamed(p.Path()) {
			return true
		}
		for _, imp := range p.Imports() {
			if walk(imp) {
				return true
			}
		}
		return false
	}
	return walk(pkg) || len(rules.Wrappers) > 0
}

// Funcs returns the model of every function declared with a body in the
// package, in the order of their declarations, and last that of the
// package-level initializers (Decl nil). It is empty where the package
// cannot send commands.
func (g *Engine) Funcs() []*Func {
	if !g.sends {
		return nil
	}
	var out []*Func
	for _, f := range g.files {
		for _, d := range f.Decls {
			if decl, ok := d.(*ast.FuncDecl); ok && decl.Body != nil {
				out = append(out, g.summarize(decl))
			}
		}
	}
	slices.SortFunc(out, func(a, b *Func) int { return int(a.Decl.Pos() - b.Decl.Pos()) })
	return append(out, g.initializers())
}

// initializers is the model of the package-level variables' initializers,
// which make scripts and, rarely, send commands.
func (g *Engine) initializers() *Func {
	if g.init != nil {
		return g.init
	}
	s := &Func{e: g.pkgEval}
	g.init = s
	for _, f := range g.files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					ast.Inspect(v, func(n ast.Node) bool {
						if call, ok := n.(*ast.CallExpr); ok {
							if i < len(vs.Names) && ast.Unparen(v) == call {
								g.initNames[call] = vs.Names[i].Name
							}
							g.addSites(s, call)
						}
						return true
					})
				}
			}
		}
	}
	g.finish(s)
	return s
}

// Resolve returns the function a call calls and its rule, if any: a client
// method from the rules' table, or a wrapper the user declared.
func (g *Engine) Resolve(call *ast.CallExpr) (*types.Func, *ruleset.Method) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil {
		// move := rdb.LMove; move(...)
		fn, _ = g.methodValue(call)
	}
	if fn == nil {
		return nil, nil
	}
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return fn, nil
	}
	recv := ""
	if r := fn.Signature().Recv(); r != nil {
		if n := namedOf(r.Type()); n != nil {
			recv = n.Obj().Name()
		}
	}
	if m := g.rules.Method(fn.Pkg().Path(), recv, fn.Name()); m != nil {
		return g.fitting(fn, m)
	}
	if w := g.rules.Wrapper(fn.FullName()); w != nil {
		return g.fitting(fn, w.Method)
	}
	if m := g.pipeFunc(fn); m != nil {
		return fn, m
	}
	if m, rm := g.byShape(fn); rm != nil {
		return g.fitting(m, rm)
	}
	if rm := g.byName(fn); rm != nil {
		return fn, rm
	}
	if rm := g.rawByName(fn); rm != nil {
		return fn, rm
	}
	return fn, nil
}

// fitting returns fn with its rule m, or with none when m does not fit
// fn's signature (a fault of the rules, which RuleFaults returns).
func (g *Engine) fitting(fn *types.Func, m *ruleset.Method) (*types.Func, *ruleset.Method) {
	if !g.checkFit(fn, m) {
		return fn, nil
	}
	return fn, m
}

// namedOf returns the named type of t or of what t points to.
func namedOf(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// TypeRole returns what the rules say a type of a client library is:
// ruleset.RoleClient, RoleCluster, RoleTx, RolePipeline, or "" for a type
// they do not name. Only the rules say it: the type's package must be one
// of a client's packages, and its name one of that client's types.
func (g *Engine) TypeRole(t types.Type) ruleset.TypeRole {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return ""
	}
	c := g.rules.ClientOf(n.Obj().Pkg().Path())
	if c == nil {
		return ""
	}
	return c.Types[n.Obj().Name()]
}

// FuncDecl returns the declaration of a function of the package, or nil
// for one declared elsewhere.
func (g *Engine) FuncDecl(fn *types.Func) *ast.FuncDecl {
	return g.decls[fn.Origin()]
}

// IsClientPackage reports whether pkg is a package of a client library of
// the rules.
func (g *Engine) IsClientPackage(pkg *types.Package) bool {
	return pkg != nil && g.rules.ClientOf(pkg.Path()) != nil
}

// onTx reports whether a method call is made on a value whose static type
// is a client's transaction (go-redis's *redis.Tx): its commands belong to
// the transaction of a Watch, wherever that is.
func (g *Engine) onTx(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && g.TypeRole(g.info.TypeOf(sel.X)) == ruleset.RoleTx
}

// clusterCapable reports whether a client expression may talk to a Redis
// Cluster, by its static type.
func (g *Engine) clusterCapable(x ast.Expr) bool {
	return x != nil && g.clusterType(g.info.TypeOf(x), 0)
}

// clusterType reports whether the rules name t a cluster client, or t is a
// type the rules do not name, a project's interface or struct, that embeds
// one (go-zero's RedisNode interface embeds redis.Cmdable): its value may
// be a cluster client.
func (g *Engine) clusterType(t types.Type, depth int) bool {
	if t == nil || depth > 4 {
		return false
	}
	if role := g.TypeRole(t); role != "" {
		// A client of one node, a transaction or a pipeline, which embed
		// redis.Cmdable too, is not a cluster client.
		return role == ruleset.RoleCluster
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		for i := 0; i < u.NumEmbeddeds(); i++ {
			if g.clusterType(u.EmbeddedType(i), depth+1) {
				return true
			}
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); f.Embedded() && g.clusterType(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// ExprName is how messages show an expression: its source text, shortened.
func ExprName(x ast.Expr) string {
	s := types.ExprString(x)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

func exprName(x ast.Expr) string { return ExprName(x) }

// where shows a position as file:line, for messages about other functions.
func (g *Engine) where(pos token.Pos) string {
	p := g.fset.Position(pos)
	return fmt.Sprintf("%s:%d", shortFile(p.Filename), p.Line)
}

func shortFile(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}
