package keyflow

import (
	"go/types"
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
// when exactly one of them has a method that carries commands to its
// callers (its summary here, its KeyWrapper fact elsewhere), the call is a
// call of that method. With none or several such, which one runs is not
// known, and nothing is said.

// implementation returns the one method, of a type of the package or of
// a package it imports, that implements the interface method fn and
// carries commands to its callers; nil otherwise.
func (g *Engine) implementation(fn *types.Func) *types.Func {
	sig := fn.Signature()
	if sig.Recv() == nil || fn.Pkg() == nil || g.IsClientPackage(fn.Pkg()) {
		return nil
	}
	iface, ok := sig.Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if g.impls == nil {
		g.impls = map[*types.Func]*types.Func{}
	}
	if impl, ok := g.impls[fn]; ok {
		return impl
	}
	g.impls[fn] = nil // guards against recursion
	var found *types.Func
	n := 0
	pkgs := append([]*types.Package{g.pkg}, g.pkg.Imports()...)
	for _, pkg := range pkgs {
		if g.IsClientPackage(pkg) {
			continue
		}
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
			if !ok {
				continue
			}
			if calls, ok := g.wrapperCalls(m); ok && len(calls) > 0 {
				found = m
				n++
			}
		}
	}
	if n != 1 {
		found = nil
	}
	g.impls[fn] = found
	return found
}
