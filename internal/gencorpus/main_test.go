package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestDeterministic checks that the same flags write the same files, that
// another seed writes others, and that every Go file parses.
func TestDeterministic(t *testing.T) {
	a, err := generate("corpus.example/shop", 40, 1, 30)
	if err != nil {
		t.Fatal(err)
	}
	b, err := generate("corpus.example/shop", 40, 1, 30)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(a, b, bytes.Equal) {
		t.Error("two runs with the same flags wrote different files")
	}
	c, err := generate("corpus.example/shop", 40, 2, 30)
	if err != nil {
		t.Fatal(err)
	}
	if maps.EqualFunc(a, c, bytes.Equal) {
		t.Error("seeds 1 and 2 wrote the same files")
	}
	pkgs := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range slices.Sorted(maps.Keys(a)) {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		if _, err := parser.ParseFile(fset, name, a[name], parser.SkipObjectResolution); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		pkgs[name[:strings.LastIndexByte(name, '/')]] = true
	}
	if len(pkgs) != 40 {
		t.Errorf("%d packages, want 40", len(pkgs))
	}
	for _, want := range []string{"go.mod", "go.sum", "keys/keys.go", "huge/huge.go", "cmd/server/main.go"} {
		if a[want] == nil {
			t.Errorf("no %s", want)
		}
	}
}
