package driver

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"os"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
)

// order returns the analyzers that a requires, a last, each after the
// analyzers it requires.
func order(a *analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		out = append(out, a)
	}
	visit(a)
	return out
}

// typesOf returns the types of a package from its export data, loading
// them, and those of its dependencies, on first use.
func (d *run) typesOf(n *node) (*types.Package, error) {
	d.typesMu.Lock()
	defer d.typesMu.Unlock()
	return d.loadTypes(n)
}

// pkgOf returns the package that the export data of n fills, creating it
// empty: every package of a view exists before export data is read, so
// that the reader never makes a second one for the same package.
// d.typesMu is held.
func (d *run) pkgOf(n *node) *types.Package {
	if n.lp.ImportPath == "unsafe" {
		return types.Unsafe
	}
	if n.tpkg == nil {
		n.tpkg = types.NewPackage(n.lp.pkgPath, n.lp.Name)
		if d.pkgIDs == nil {
			d.pkgIDs = map[*types.Package]*node{}
		}
		d.pkgIDs[n.tpkg] = n
	}
	return n.tpkg
}

// loadTypes is typesOf with d.typesMu held.
func (d *run) loadTypes(n *node) (*types.Package, error) {
	tpkg := d.pkgOf(n)
	if tpkg.Complete() {
		return tpkg, nil
	}
	var imports []*types.Package
	for _, dep := range n.deps {
		p, err := d.loadTypes(dep)
		if err != nil {
			return nil, err
		}
		imports = append(imports, p)
	}
	if n.lp.Export == "" {
		return nil, fmt.Errorf("%s has no export data", n.lp.ImportPath)
	}
	// The view: the package and its dependencies, by path, as the export
	// data names them.
	view := map[string]*types.Package{n.lp.pkgPath: tpkg}
	seen := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		for _, dep := range n.deps {
			if !seen[dep] {
				seen[dep] = true
				view[dep.lp.pkgPath] = d.pkgOf(dep)
				visit(dep)
			}
		}
	}
	visit(n)
	f, err := os.Open(n.lp.Export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", n.lp.Export, err)
	}
	if _, err := gcexportdata.Read(r, d.fset, view, n.lp.pkgPath); err != nil {
		return nil, fmt.Errorf("reading %s: %v", n.lp.Export, err)
	}
	// Export data lists as imports the packages whose objects it
	// mentions; the source lists those it imports. Analyses that walk
	// the import graph expect the latter, as type-checking from source
	// gives.
	tpkg.SetImports(imports)
	tpkg.MarkComplete()
	return tpkg, nil
}

// analysePackage parses and type-checks a package, runs the analyzers on
// it, and returns its facts and diagnostics.
func (d *run) analysePackage(n *node) (*entry, error) {
	lp := n.lp
	// The dependencies' types, before parsing: a failure there needs no
	// syntax.
	for _, dep := range n.deps {
		if _, err := d.typesOf(dep); err != nil {
			return nil, fmt.Errorf("not analysed: %v", err)
		}
	}
	var files []*ast.File
	var errs []error
	for _, name := range lp.files {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(d.fset, name, src, parser.AllErrors|parser.ParseComments)
		if err != nil {
			errs = append(errs, err)
		}
		if f != nil {
			files = append(files, f)
		}
	}
	if len(errs) > 0 {
		return nil, firstError(errs)
	}
	tpkg := types.NewPackage(lp.pkgPath, lp.Name)
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Instances:    map[*ast.Ident]types.Instance{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		FileVersions: map[*ast.File]string{},
	}
	sizes := types.SizesFor("gc", d.goarch)
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			id, ok := lp.deps[path]
			if !ok {
				return nil, fmt.Errorf("no package for import %q", path)
			}
			dep := d.nodes[id]
			if dep == nil {
				return nil, fmt.Errorf("no package for import %q", path)
			}
			return d.typesOf(dep)
		}),
		Sizes: sizes,
		Error: func(err error) { errs = append(errs, err) },
	}
	if lp.Module != nil && lp.Module.GoVersion != "" {
		tc.GoVersion = "go" + lp.Module.GoVersion
	}
	types.NewChecker(tc, d.fset, tpkg, info).Files(files)
	if len(errs) > 0 {
		return nil, firstError(errs)
	}

	var module *analysis.Module
	if lp.Module != nil {
		module = &analysis.Module{Path: lp.Module.Path, Version: lp.Module.Version, GoVersion: lp.Module.GoVersion}
	}
	own := map[*analysis.Analyzer]*factSet{}
	base := analysis.Pass{
		Fset:         d.fset,
		Files:        files,
		OtherFiles:   lp.OtherFiles,
		IgnoredFiles: lp.IgnoredGoFiles,
		Pkg:          tpkg,
		TypesInfo:    info,
		TypesSizes:   sizes,
		Module:       module,
		ReadFile:     readFileFunc(lp),
	}
	diags, err := runAnalyzers(d.analyzers, base, func(pass *analysis.Pass) {
		own[pass.Analyzer] = newFactSet()
		d.factFuncs(pass, n, tpkg, own[pass.Analyzer])
	})
	if err != nil {
		return nil, err
	}
	e := &entry{}
	if e.Facts, err = encodeFacts(d.analyzers, tpkg, own); err != nil {
		return nil, err
	}
	for _, diag := range diags {
		e.Diags = append(e.Diags, storeDiagnostic(d.fset, diag))
	}
	// In the order of their positions, whatever order the analyzer
	// reported them in.
	slices.SortStableFunc(e.Diags, func(a, b storedDiag) int {
		return cmp.Or(strings.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column))
	})
	return e, nil
}

// An analyzerError is the error of one analyzer of a package.
type analyzerError struct {
	analyzer *analysis.Analyzer
	err      error
}

func (e *analyzerError) Error() string { return e.analyzer.Name + ": " + e.err.Error() }

// runAnalyzers runs analyzers, each after those it requires, on the package
// of base, a pass with all but its analyzer, results, report and fact
// functions; facts gives each pass its fact functions. It returns the
// diagnostics of the last analyzer, in the order it reported them, or the
// error of the first analyzer that failed.
func runAnalyzers(analyzers []*analysis.Analyzer, base analysis.Pass, facts func(*analysis.Pass)) ([]analysis.Diagnostic, error) {
	results := map[*analysis.Analyzer]any{}
	var diags []analysis.Diagnostic
	for i, a := range analyzers {
		pass := base
		pass.Analyzer = a
		pass.ResultOf = map[*analysis.Analyzer]any{}
		for _, req := range a.Requires {
			pass.ResultOf[req] = results[req]
		}
		if i == len(analyzers)-1 {
			pass.Report = func(diag analysis.Diagnostic) { diags = append(diags, diag) }
		} else {
			pass.Report = func(analysis.Diagnostic) {}
		}
		facts(&pass)
		result, err := a.Run(&pass)
		if err != nil {
			return nil, &analyzerError{a, err}
		}
		if got, want := reflect.TypeOf(result), a.ResultType; got != want && result != nil {
			return nil, &analyzerError{a, fmt.Errorf("returned a %v, not a %v", got, want)}
		}
		results[a] = result
	}
	return diags, nil
}

// firstError is the first of errs, with how many follow.
func firstError(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return fmt.Errorf("%v (and %d more errors)", errs[0], len(errs)-1)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// readFileFunc gives the pass the files of its package, and no others, as
// x/tools' checker does.
func readFileFunc(lp *listPackage) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if slices.Contains(lp.files, name) || slices.Contains(lp.GoFiles, name) || slices.Contains(lp.OtherFiles, name) ||
			slices.Contains(lp.IgnoredGoFiles, name) || slices.Contains(lp.EmbedFiles, name) {
			return os.ReadFile(name)
		}
		return nil, fmt.Errorf("%s is not a file of package %s", name, lp.ImportPath)
	}
}

// factFuncs gives a pass its fact functions: facts of its own package
// go into facts; those of other packages come from their nodes.
func (d *run) factFuncs(pass *analysis.Pass, n *node, tpkg *types.Package, facts *factSet) {
	a := pass.Analyzer
	setFactFuncs(pass, tpkg, facts, func(p *types.Package) *factSet {
		d.typesMu.Lock()
		dep := d.pkgIDs[p]
		d.typesMu.Unlock()
		if dep == nil {
			return nil
		}
		return d.factsOf(dep)[a]
	}, func() []*factSet { return d.closureFacts(n, a, facts) })
}

// setFactFuncs gives a pass of package tpkg its fact functions: its own
// facts go into own, which answers for tpkg; lookup gives the set that
// holds another package's facts, nil when there is none; closure gives
// the sets of the package and of everything it imports, for
// AllObjectFacts and AllPackageFacts.
func setFactFuncs(pass *analysis.Pass, tpkg *types.Package, own *factSet, lookup func(*types.Package) *factSet, closure func() []*factSet) {
	a := pass.Analyzer
	setOf := func(p *types.Package) *factSet {
		if p == tpkg {
			return own
		}
		return lookup(p)
	}
	pass.ImportObjectFact = func(obj types.Object, fact analysis.Fact) bool {
		if obj == nil {
			panic("nil object given to ImportObjectFact")
		}
		set := setOf(obj.Pkg())
		return set != nil && set.getObj(obj, fact)
	}
	pass.ExportObjectFact = func(obj types.Object, fact analysis.Fact) {
		if obj.Pkg() != tpkg {
			panic(fmt.Sprintf("%s: fact %T for %s of another package", a.Name, fact, obj))
		}
		own.obj[objKey{obj, reflect.TypeOf(fact)}] = fact
	}
	pass.ImportPackageFact = func(p *types.Package, fact analysis.Fact) bool {
		set := setOf(p)
		return set != nil && set.getPkg(p, fact)
	}
	pass.ExportPackageFact = func(fact analysis.Fact) {
		own.pkg[pkgKey{tpkg, reflect.TypeOf(fact)}] = fact
	}
	pass.AllObjectFacts = func() []analysis.ObjectFact {
		var out []analysis.ObjectFact
		for _, set := range closure() {
			for k, f := range set.obj {
				out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
			}
		}
		return out
	}
	pass.AllPackageFacts = func() []analysis.PackageFact {
		var out []analysis.PackageFact
		for _, set := range closure() {
			for k, f := range set.pkg {
				out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
			}
		}
		return out
	}
}

// closureFacts returns the facts of a package and of all its
// dependencies.
func (d *run) closureFacts(n *node, a *analysis.Analyzer, own *factSet) []*factSet {
	sets := []*factSet{own}
	seen := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		for _, dep := range n.deps {
			if !seen[dep] {
				seen[dep] = true
				visit(dep)
				if set := d.factsOf(dep)[a]; set != nil {
					sets = append(sets, set)
				}
			}
		}
	}
	visit(n)
	return sets
}

// factsOf returns the facts of a dependency, decoded against the types of
// its export data, by analyzer; nil when it has none.
func (d *run) factsOf(n *node) map[*analysis.Analyzer]*factSet {
	n.factsMu.Lock()
	defer n.factsMu.Unlock()
	if n.facts != nil {
		return n.facts.sets
	}
	n.facts = &decodedFacts{}
	if n.fail != "" || n.lp.ImportPath == "unsafe" {
		return nil
	}
	e := d.entryOf(n)
	if e == nil || len(e.Facts) == 0 {
		return nil
	}
	tpkg, err := d.typesOf(n)
	if err != nil {
		return nil
	}
	n.facts.sets = decodeFacts(d.analyzers, tpkg, e.Facts)
	return n.facts.sets
}
