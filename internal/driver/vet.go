package driver

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/slotlint/slotlint/internal/jsonout"
)

// Under go vet, the go command runs the vet tool once per package, in
// dependency order, with a JSON file (*.cfg) that describes the package:
// its files, the compiler's export data of every dependency (PackageFile),
// and the facts file (vetx) that the tool wrote for each direct import
// (PackageVetx). The tool writes the package's own facts file for its
// importers, and the go command hashes every dependency's facts file into
// the cache key of each package on every run, warm or not.
//
// x/tools' unitchecker (v0.52) writes the package's types into its facts
// file beside the facts, and reads its imports' types from there: for a
// module that imports go-redis, megabytes that the go command hashes on
// each run, where go vet's own vet tool writes facts only and takes types
// from the compiler's export data. Vet does the latter: types from
// PackageFile, and facts files that hold facts alone, in unitchecker's
// layout ("vetx", the two lengths, then the facts as gob) with no types,
// so that it reads the files of either.
//
// Facts travel as unitchecker's do: a package's file holds its own facts
// and those of its imports' that are about types, their fields and their
// methods, which an importer can reach without importing their package;
// facts about another package's functions, variables and the package
// itself are read from that package's own file, by its direct importers
// only.

// A VetConfig is what go vet says of the package it asks the vet tool to
// analyse, in its *.cfg file (cmd/go's vetConfig).
type VetConfig struct {
	ID            string // e.g. "fmt [fmt.test]"
	ImportPath    string
	GoVersion     string
	GoFiles       []string
	NonGoFiles    []string
	IgnoredFiles  []string
	Module        *analysis.Module
	ModulePath    string
	ModuleVersion string
	ImportMap     map[string]string // import path in the source -> package path
	PackageFile   map[string]string // package path -> compiler export data
	PackageVetx   map[string]string // package path -> facts file of a direct import
	VetxOnly      bool              // facts only: the package is a dependency
	VetxOutput    string            // where to write the facts file
	Stdout        string            // where to write the JSON output
}

// ReadVetConfig reads go vet's description of a package.
func ReadVetConfig(file string) (*VetConfig, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	cfg := new(VetConfig)
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("cannot decode JSON config file %s: %v", file, err)
	}
	if len(cfg.GoFiles) == 0 {
		return nil, fmt.Errorf("package has no files: %s", cfg.ImportPath)
	}
	return cfg, nil
}

// HasExportData reports whether go vet gave the compiler's export data of
// every package that this one imports, and imports one at least, so that
// Vet can take their types from there. (A go command that stops compiling
// packages for go vet would not; x/tools' unitchecker then takes over, for
// every package of the run: a package that imports nothing but unsafe,
// which Vet could analyse either way, is left to it as well, so that its
// facts file has the types that unitchecker's importers need.)
func (cfg *VetConfig) HasExportData() bool {
	n := 0
	for _, path := range cfg.ImportMap {
		if path == "unsafe" || path == "C" {
			continue
		}
		if cfg.PackageFile[path] == "" {
			return false
		}
		n++
	}
	return n > 0
}

// VetOptions are the vet tool's output flags, and what the analyzer says
// of packages it has nothing for.
type VetOptions struct {
	JSON         bool // -json: x/tools' JSON tree on stdout
	ContextLines int  // -c: lines of source around each finding; -1 for none
	// Idle, when set, reports whether the analyzer exports no facts about
	// the package and imports none that it would pass on. A dependency
	// that go vet analyses for its facts alone is then not analysed: its
	// facts file is empty.
	Idle func(*VetConfig) bool
}

// Vet analyses the package that cfg describes with a, as x/tools'
// unitchecker would, and returns the exit code: it writes the facts file,
// then, unless the package is analysed for its facts only, prints the
// findings, as a JSON tree on stdout (cfg.Stdout, when set) with opts.JSON,
// else as text on stderr. Errors are printed on stderr.
func Vet(cfg *VetConfig, a *analysis.Analyzer, opts VetOptions) int {
	if cfg.Stdout != "" {
		f, err := os.Create(cfg.Stdout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "slotlint: %v\n", err)
			return 1
		}
		defer f.Close()
		os.Stdout = f
	}
	if cfg.VetxOnly && opts.Idle != nil && opts.Idle(cfg) {
		if cfg.VetxOutput != "" {
			if err := os.WriteFile(cfg.VetxOutput, nil, 0o666); err != nil {
				return 1
			}
		}
		return 0
	}
	fset := token.NewFileSet()
	diags, err := vetUnit(fset, cfg, a)
	var aerr *analyzerError
	if err != nil && !errors.As(err, &aerr) {
		if cfg.VetxOnly {
			return 1
		}
		// Syntax and type errors as the compiler prints them, others
		// after the tool's name.
		switch err.(type) {
		case types.Error, *scanner.Error, scanner.ErrorList:
			fmt.Fprintln(os.Stderr, err)
		default:
			fmt.Fprintf(os.Stderr, "slotlint: %v\n", err)
		}
		return 1
	}
	if cfg.VetxOnly {
		return 0
	}
	act := &checker.Action{
		Analyzer:    a,
		Package:     &packages.Package{ID: cfg.ID, Fset: fset},
		IsRoot:      true,
		Diagnostics: diags,
	}
	if aerr != nil {
		act.Err = rootError(a, aerr)
	}
	g := &checker.Graph{Roots: []*checker.Action{act}}
	if opts.JSON {
		out := jsonout.Writer(os.Stdout)
		g.PrintJSON(out) // as unitchecker, whatever was found
		out.Close()
		return 0
	}
	var buf bytes.Buffer
	g.PrintText(&buf, opts.ContextLines)
	os.Stderr.Write(buf.Bytes())
	if act.Err != nil || len(diags) > 0 {
		return 1
	}
	return 0
}

// rootError is the error of the root analyzer a as unitchecker gives it:
// its own, or that of the analyzer it required that failed.
func rootError(a *analysis.Analyzer, err *analyzerError) error {
	if err.analyzer == a {
		return err.err
	}
	return fmt.Errorf("failed prerequisites: %s", err.analyzer.Name)
}

// vetUnit parses and type-checks the package, runs the analyzers and
// writes the facts file. It returns the root analyzer's diagnostics, or an
// *analyzerError when an analyzer failed, after the facts file is written
// all the same.
func vetUnit(fset *token.FileSet, cfg *VetConfig, a *analysis.Analyzer) ([]analysis.Diagnostic, error) {
	var files []*ast.File
	for _, name := range cfg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	compiler := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file := cfg.PackageFile[path]
		if file == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(file)
	})
	tc := &types.Config{
		Importer: importerFunc(func(importPath string) (*types.Package, error) {
			path, ok := cfg.ImportMap[importPath]
			if !ok {
				return nil, fmt.Errorf("can't resolve import %q", importPath)
			}
			return compiler.Import(path)
		}),
		Sizes:     types.SizesFor("gc", build.Default.GOARCH),
		GoVersion: cfg.GoVersion,
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	tpkg, err := tc.Check(cfg.ImportPath, fset, files, info)
	if err != nil {
		return nil, err
	}

	analyzers := order(a)
	register(analyzers)
	facts, err := readVetFacts(tpkg, cfg.PackageVetx, analyzers)
	if err != nil {
		return nil, err
	}
	module := cfg.Module
	if module == nil && cfg.ModulePath != "" {
		// go vet before Go 1.27 names the module this way.
		module = &analysis.Module{Path: cfg.ModulePath, Version: cfg.ModuleVersion, GoVersion: cfg.GoVersion}
	}
	base := analysis.Pass{
		Fset:         fset,
		Files:        files,
		OtherFiles:   cfg.NonGoFiles,
		IgnoredFiles: cfg.IgnoredFiles,
		Pkg:          tpkg,
		TypesInfo:    info,
		TypesSizes:   tc.Sizes,
		Module:       module,
		ReadFile:     vetReadFile(cfg),
	}
	diags, runErr := runAnalyzers(analyzers, base, func(pass *analysis.Pass) {
		// One set per analyzer holds the imports' facts and the
		// package's own.
		set := facts[pass.Analyzer]
		if set == nil {
			set = newFactSet()
			facts[pass.Analyzer] = set
		}
		setFactFuncs(pass, tpkg, set, func(*types.Package) *factSet { return set }, func() []*factSet { return []*factSet{set} })
	})
	if cfg.VetxOutput != "" {
		if err := writeVetFacts(cfg.VetxOutput, tpkg, facts); err != nil {
			return nil, fmt.Errorf("writing the facts of %s: %v", cfg.ImportPath, err)
		}
	}
	return diags, runErr
}

// vetReadFile gives a pass the files of its package, and no others, as
// unitchecker does.
func vetReadFile(cfg *VetConfig) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if slices.Contains(cfg.GoFiles, name) || slices.Contains(cfg.NonGoFiles, name) || slices.Contains(cfg.IgnoredFiles, name) {
			return os.ReadFile(name)
		}
		return nil, fmt.Errorf("Pass.ReadFile: %s is not among OtherFiles, IgnoredFiles, or names of Files", name)
	}
}

// vetxMagic starts a facts file, as unitchecker's.
const vetxMagic = "vetx"

// A vetFact is a fact as a facts file holds it, unitchecker's gobFact: the
// package, and the object's path from the package scope (objectpath), ""
// for a package fact.
type vetFact struct {
	PkgPath string
	Object  objectpath.Path
	Fact    analysis.Fact
}

// readVetFacts reads the facts files of the imports, each fact against the
// package it is about, among those that the imports' types reach. Facts
// about what they do not reach are of no use, and dropped; so is a file's
// types section.
func readVetFacts(tpkg *types.Package, vetx map[string]string, analyzers []*analysis.Analyzer) (map[*analysis.Analyzer]*factSet, error) {
	reach := reachable(tpkg.Imports())
	byType := map[reflect.Type]*analysis.Analyzer{}
	for _, a := range analyzers {
		for _, f := range a.FactTypes {
			byType[reflect.TypeOf(f)] = a
		}
	}
	facts := map[*analysis.Analyzer]*factSet{}
	for _, imp := range tpkg.Imports() {
		file := vetx[imp.Path()]
		if file == "" {
			continue // unsafe, or a package go vet gave no facts of
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		list, err := decodeVetx(data)
		if err != nil {
			return nil, fmt.Errorf("the facts of %s: %s: %v", imp.Path(), file, err)
		}
		for _, f := range list {
			p := reach[f.PkgPath]
			if p == nil || f.Fact == nil {
				continue
			}
			if a := byType[reflect.TypeOf(f.Fact)]; a != nil {
				addFact(facts, a, p, f.Object, f.Fact)
			}
		}
	}
	return facts, nil
}

// decodeVetx decodes a facts file, with or without types.
func decodeVetx(data []byte) ([]vetFact, error) {
	if len(data) == 0 {
		return nil, nil
	}
	if len(data) < 12 || string(data[:4]) != vetxMagic {
		return nil, errors.New("not a facts file")
	}
	typesLen := uint64(binary.LittleEndian.Uint32(data[4:8]))
	factsLen := uint64(binary.LittleEndian.Uint32(data[8:12]))
	if 12+typesLen+factsLen > uint64(len(data)) {
		return nil, fmt.Errorf("facts file of %d bytes, where its header says 12+%d+%d", len(data), typesLen, factsLen)
	}
	body := data[12+typesLen : 12+typesLen+factsLen]
	if len(body) == 0 {
		return nil, nil
	}
	var list []vetFact
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&list); err != nil {
		return nil, err
	}
	return list, nil
}

// writeVetFacts writes the facts file: the package's own facts, and those
// of its imports that its importers may need and cannot read elsewhere,
// about types, fields and methods. A package without such facts gets an
// empty file, which go vet's cache keeps once for all; so does an external
// test package (package p_test), which nothing imports.
func writeVetFacts(file string, tpkg *types.Package, facts map[*analysis.Analyzer]*factSet) error {
	if strings.HasSuffix(tpkg.Name(), "_test") {
		return os.WriteFile(file, nil, 0o666)
	}
	var list []vetFact
	var enc objectpath.Encoder
	for _, set := range facts {
		for k, f := range set.obj {
			if k.obj.Pkg() != tpkg {
				if _, isType := k.obj.(*types.TypeName); !isType && k.obj.Parent() == k.obj.Pkg().Scope() {
					continue // its package's own file has it
				}
			}
			path, err := enc.For(k.obj)
			if err != nil {
				continue // not reachable from the package's scope
			}
			list = append(list, vetFact{k.obj.Pkg().Path(), path, f})
		}
		for k, f := range set.pkg {
			if k.pkg == tpkg {
				list = append(list, vetFact{tpkg.Path(), "", f})
			}
		}
	}
	if len(list) == 0 {
		return os.WriteFile(file, nil, 0o666)
	}
	slices.SortFunc(list, func(x, y vetFact) int {
		return cmp.Or(strings.Compare(x.PkgPath, y.PkgPath), strings.Compare(string(x.Object), string(y.Object)),
			strings.Compare(reflect.TypeOf(x.Fact).String(), reflect.TypeOf(y.Fact).String()))
	})
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(list); err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString(vetxMagic)
	buf.Write(binary.LittleEndian.AppendUint32(nil, 0)) // no types
	buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(body.Len())))
	buf.Write(body.Bytes())
	return os.WriteFile(file, buf.Bytes(), 0o666)
}

// reachable returns the packages that imports reach through the types of
// their objects, by path: the imports, and the packages of every object
// that their scopes' objects name, through types, fields, methods and
// signatures, as unitchecker's fact decoder finds them, so that facts
// travel the same way with either driver.
func reachable(imports []*types.Package) map[string]*types.Package {
	objects := map[types.Object]bool{}
	seen := map[types.Type]bool{} // named types, aliases and type parameters
	packages := map[string]*types.Package{}
	var addObj func(obj types.Object)
	var addType func(t types.Type)
	addObj = func(obj types.Object) {
		if objects[obj] {
			return
		}
		objects[obj] = true
		addType(obj.Type())
		if obj.Pkg() != nil {
			packages[obj.Pkg().Path()] = obj.Pkg()
		}
	}
	// addNamed visits a named type or an alias, instance or not: its type
	// arguments, then, once for its origin, its name, its type parameters
	// and what the type is made of (the underlying type and the methods,
	// or the aliased type).
	addNamed := func(args *types.TypeList, origin types.Type, name *types.TypeName, params *types.TypeParamList, parts func()) {
		for arg := range args.Types() {
			addType(arg)
		}
		if seen[origin] {
			return
		}
		seen[origin] = true
		addObj(name)
		for tp := range params.TypeParams() {
			addType(tp)
		}
		parts()
	}
	addType = func(t types.Type) {
		switch t := t.(type) {
		case *types.Named:
			o := t.Origin()
			addNamed(t.TypeArgs(), o, o.Obj(), o.TypeParams(), func() {
				addType(o.Underlying())
				for m := range o.Methods() {
					addObj(m)
				}
			})
		case *types.Alias:
			o := t.Origin()
			addNamed(t.TypeArgs(), o, o.Obj(), o.TypeParams(), func() { addType(o.Rhs()) })
		case *types.Pointer:
			addType(t.Elem())
		case *types.Slice:
			addType(t.Elem())
		case *types.Array:
			addType(t.Elem())
		case *types.Chan:
			addType(t.Elem())
		case *types.Map:
			addType(t.Key())
			addType(t.Elem())
		case *types.Signature:
			addType(t.Params())
			addType(t.Results())
			for tp := range t.TypeParams().TypeParams() {
				addType(tp)
			}
		case *types.Struct:
			for f := range t.Fields() {
				addObj(f)
			}
		case *types.Tuple:
			for v := range t.Variables() {
				addObj(v)
			}
		case *types.Interface:
			for m := range t.Methods() {
				addObj(m)
			}
			for e := range t.EmbeddedTypes() {
				addType(e)
			}
		case *types.Union:
			for term := range t.Terms() {
				addType(term.Type())
			}
		case *types.TypeParam:
			if !seen[t] {
				seen[t] = true
				addObj(t.Obj())
				addType(t.Constraint())
			}
		}
	}
	for _, imp := range imports {
		packages[imp.Path()] = imp
		for _, name := range imp.Scope().Names() {
			addObj(imp.Scope().Lookup(name))
		}
	}
	return packages
}
