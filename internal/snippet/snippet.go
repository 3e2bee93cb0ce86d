// Package snippet type-checks small Go sources for tests, against the real
// packages that this module's go.mod requires (go-redis v9 among them),
// which it loads once from export data.
package snippet

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/packages"
)

// A Package is one type-checked snippet.
type Package struct {
	Fset  *token.FileSet
	Types *types.Package
	Info  *types.Info
	Files []*ast.File
}

// A Loader type-checks snippets that import the packages it was given, and
// snippets it checked before.
type Loader struct {
	mu       sync.Mutex
	imported map[string]*types.Package
}

// NewLoader loads the packages that snippets may import, by import path,
// from dir, a directory of this module.
func NewLoader(dir string, imports ...string) (*Loader, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports, Dir: dir}
	pkgs, err := packages.Load(cfg, imports...)
	if err != nil {
		return nil, err
	}
	l := &Loader{imported: map[string]*types.Package{}}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("loading %s: %v", p.PkgPath, p.Errors[0])
		}
		l.imported[p.PkgPath] = p.Types
	}
	return l, nil
}

// Check type-checks the source of one file as the package path; later
// snippets may import it.
func (l *Loader) Check(path, filename, src string) (*Package, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := &Package{Fset: token.NewFileSet()}
	f, err := parser.ParseFile(p.Fset, filename, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	p.Files = []*ast.File{f}
	p.Info = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Implicits:  map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if p := l.imported[path]; p != nil {
			return p, nil
		}
		return nil, fmt.Errorf("snippets may not import %s", path)
	})}
	p.Types, err = conf.Check(path, p.Fset, p.Files, p.Info)
	if err != nil {
		return nil, fmt.Errorf("snippet %s does not type-check: %v", path, err)
	}
	l.imported[path] = p.Types
	return p, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
