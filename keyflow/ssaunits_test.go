package keyflow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"
)

// unitsSrc has a function asked about (asked), its caller and the caller's
// caller, what they call, a sender on a channel that asked receives from,
// and code none of them needs.
const unitsSrc = `package p

var ch = make(chan string)

func asked(prefix string) string { return prefix + <-ch }

func caller() string { return asked(name()) + done() }

func top() { _ = caller(); log() }

func name() string { return "user:" }

func done() string { return deeper() }

func deeper() string { return "x" }

func log() {}

func count() int { return len(deeper()) }

func sender() { ch <- "a" }

var table = map[string]func(){"log": log}

func unrelated() { _ = count() }
`

func TestUnitsNeeded(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", unitsSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{},
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	g := &Engine{fset: fset, pkg: pkg, info: info, files: []*ast.File{f}}
	u := g.unitGraph()
	at := func(name string) ast.Node {
		return u.at(f.Scope.Lookup(name).Pos())
	}
	names := func(set map[ast.Node]bool) string {
		var out []string
		for n := range set {
			switch n := n.(type) {
			case *ast.FuncDecl:
				out = append(out, n.Name.Name)
			case *ast.ValueSpec:
				out = append(out, "var "+n.Names[0].Name)
			}
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	// asked's callers to any depth and what they call that returns a
	// value (not log), to any depth; the sender, since asked receives;
	// not count, which calls deeper but returns a number, nor unrelated.
	if got, want := names(u.needed([]ast.Node{at("asked")})), "asked caller deeper done name sender top"; got != want {
		t.Errorf("needed(asked) = %s, want %s", got, want)
	}
	// A function that no one calls and that receives nothing needs
	// itself and what it calls.
	if got, want := names(u.needed([]ast.Node{at("unrelated")})), "unrelated"; got != want {
		t.Errorf("needed(unrelated) = %s, want %s", got, want)
	}
	if got, want := names(u.needed([]ast.Node{at("table")})), "var table"; got != want {
		t.Errorf("needed(table) = %s, want %s", got, want)
	}

	// The files the builder sees keep every declaration, with the bodies
	// of the units not needed removed, and leave the package's own
	// syntax and types alone.
	needed := u.needed([]ast.Node{at("unrelated")})
	files, binfo := g.bodiless(needed)
	var bodies []string
	for _, d := range files[0].Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			bodies = append(bodies, fd.Name.Name)
		}
	}
	if got, want := strings.Join(bodies, " "), "unrelated"; got != want {
		t.Errorf("bodies kept = %s, want %s", got, want)
	}
	if len(binfo.InitOrder) != 0 {
		t.Errorf("initial values kept: %v", binfo.InitOrder)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
			t.Errorf("the package's own %s lost its body", fd.Name.Name)
		}
	}
	if len(info.InitOrder) != 2 {
		t.Errorf("the package's own initial values: %v", info.InitOrder)
	}
}
