package keyflow

import (
	"go/build"
	"go/types"
	"os"
	"path/filepath"
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
	if standardPath(fn.Pkg().Path()) {
		return nil // io.Writer, context.Context: no project's interface
	}
	var found *types.Func
	n := 0
	if g.implPkgs == nil {
		g.implPkgs = []*types.Package{g.pkg}
		for _, pkg := range g.pkg.Imports() {
			if !g.IsClientPackage(pkg) && !standardPath(pkg.Path()) {
				g.implPkgs = append(g.implPkgs, pkg)
			}
		}
	}
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
