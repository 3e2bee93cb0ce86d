package keyflow

import (
	"go/ast"
	"go/build"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Projects run their commands through an interface of their own whose
// implementation lives in another package:
//
//	type scriptRunner interface {
//		RunScript(ctx context.Context, s *redis.Script, keys []string, args ...any) (any, error)
//	}
//
//	func newService(rdb *redis.ClusterClient) *service { return &service{r: runner.New(rdb)} }
//	func (s *service) allow(ctx context.Context, user string) { s.r.RunScript(ctx, limit, keys, user) }
//
// A call of a method of such an interface sends what the method of its
// implementation sends: the engine looks for the named types of the
// package and of the packages it imports that implement the interface, and
// takes those whose method carries commands to its callers (its summary
// here, its KeyWrapper fact elsewhere). Which one runs is not known, so
// the call is a call of each: a cache with a Redis and a memory
// implementation sends what the Redis one sends, and the memory one,
// which carries nothing, adds nothing. The package that declares an
// exported interface puts what its own implementations carry in a fact on
// each method of the interface, since an importer may not see an
// unexported implementation (the compiler's export data, as some readers
// give it, holds only what the exported declarations reach).

// implementations returns the methods, of types of the package or of the
// packages it imports, that implement the interface method fn and carry
// commands to their callers, in the order of their packages and names.
func (g *Engine) implementations(fn *types.Func) []*types.Func {
	sig := fn.Signature()
	if sig.Recv() == nil || fn.Pkg() == nil || g.IsClientPackage(fn.Pkg()) {
		return nil
	}
	iface, ok := sig.Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if g.impls == nil {
		g.impls = map[*types.Func][]*types.Func{}
	}
	if impls, ok := g.impls[fn]; ok {
		return impls
	}
	g.impls[fn] = nil // guards against recursion
	if standardPath(fn.Pkg().Path()) {
		return nil // io.Writer, context.Context: no project's interface
	}
	if g.implPkgs == nil {
		g.implPkgs = []*types.Package{g.pkg}
		for _, pkg := range g.pkg.Imports() {
			if !g.IsClientPackage(pkg) && !standardPath(pkg.Path()) {
				g.implPkgs = append(g.implPkgs, pkg)
			}
		}
	}
	var found []*types.Func
	for _, pkg := range g.implPkgs {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
				continue
			}
			var t types.Type = named
			if !types.Implements(t, iface) {
				t = types.NewPointer(named)
				if !types.Implements(t, iface) {
					continue
				}
			}
			obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), fn.Name())
			m, ok := obj.(*types.Func)
			if !ok || slices.Contains(found, m) {
				continue
			}
			if calls, ok := g.wrapperCalls(m); ok && len(calls) > 0 {
				found = append(found, m)
			}
		}
	}
	g.impls[fn] = found
	return found
}

// exportInterfaces exports, on each method of the package's exported
// interfaces, what the implementations the package declares carry to
// their callers: a KeyWrapper fact whose calls name their type (Impl).
// An importer finds them there even where its view of the package holds
// only what the package exports (an unexported redisCache behind
// NewRedis() Cache is not in the compiler's export data for every
// reader).
func (g *Engine) exportInterfaces() {
	if !g.sends {
		return
	}
	scope := g.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := 0; i < iface.NumExplicitMethods(); i++ {
			m := iface.ExplicitMethod(i)
			if !m.Exported() {
				continue
			}
			var calls []WrappedCall
			for _, impl := range g.implementations(m) {
				if impl.Pkg() != g.pkg {
					continue
				}
				wrapped, _ := g.wrapperCalls(impl)
				for _, w := range wrapped {
					if !w.local {
						w.Impl = namedOf(impl.Signature().Recv().Type()).Obj().Name()
						calls = append(calls, w)
					}
				}
			}
			if len(calls) > 0 {
				g.facts.ExportObjectFact(m, &KeyWrapper{Calls: calls})
			}
		}
	}
}

// interfaceCalls returns what a call of the interface method fn sends:
// what each implementation in sight carries, and for an interface of
// another package, what its fact says the implementations of that
// package carry. Only the implementations of the receiver's own
// interface count, which may embed fn's (a mock's interface embeds the
// cache's); when several implementations carry commands, those queued on
// the caller's transaction are left out: the keys of several, each
// running alone, are not one transaction.
func (g *Engine) interfaceCalls(call *ast.CallExpr, fn *types.Func) (impls []*types.Func, calls [][]WrappedCall) {
	iface := g.receiverInterface(call)
	if iface != nil && types.Identical(iface, fn.Signature().Recv().Type().Underlying()) {
		iface = nil // fn's own interface: every implementation fits
	}
	fits := func(t types.Type) bool {
		return iface == nil || types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface)
	}
	for _, impl := range g.implementations(fn) {
		if fn.Pkg() != g.pkg && impl.Pkg() == fn.Pkg() {
			continue // in the interface's fact
		}
		if wrapped, _ := g.wrapperCalls(impl); fits(impl.Signature().Recv().Type()) {
			impls, calls = append(impls, impl), append(calls, wrapped)
		}
	}
	var f KeyWrapper
	if fn.Pkg() != g.pkg && g.facts.ImportObjectFact(fn, &f) {
		byImpl := map[string]int{}
		for _, w := range f.Calls {
			tn, _ := fn.Pkg().Scope().Lookup(w.Impl).(*types.TypeName)
			if iface != nil && (tn == nil || !fits(tn.Type())) {
				// Not of the receiver's interface, or not in sight to
				// tell.
				continue
			}
			i, ok := byImpl[w.Impl]
			if !ok {
				i = len(impls)
				byImpl[w.Impl] = i
				impls, calls = append(impls, fn), append(calls, nil)
			}
			calls[i] = append(calls[i], w)
		}
	}
	if len(calls) > 1 {
		for i := range calls {
			calls[i] = slices.DeleteFunc(slices.Clone(calls[i]), func(w WrappedCall) bool { return w.On > 0 || w.OnRecv })
		}
	}
	return impls, calls
}

// receiverInterface returns the interface that a method call's receiver
// has as its static type, or nil.
func (g *Engine) receiverInterface(call *ast.CallExpr) *types.Interface {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	t := g.info.TypeOf(sel.X)
	if t == nil {
		return nil
	}
	iface, _ := t.Underlying().(*types.Interface)
	return iface
}

// standardPath reports whether an import path is of the standard library:
// its first element has no dot (io, context, net/http) and GOROOT has it.
// A module path may have no dot either ("myapp/internal/store").
func standardPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return false
	}
	root := build.Default.GOROOT
	if root == "" {
		return false
	}
	fi, err := os.Stat(filepath.Join(root, "src", filepath.FromSlash(path)))
	return err == nil && fi.IsDir()
}
