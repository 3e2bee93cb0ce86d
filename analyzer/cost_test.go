package analyzer

import (
	"maps"
	"slices"
	"testing"

	"github.com/slotlint/slotlint"
)

// TestBuiltinClients checks that builtinClients, which spares the packages
// that cannot reach a client library the parsing of the rules, names the
// client libraries of the built-in rules, and that those declare no
// wrappers (which would make every package one to check).
func TestBuiltinClients(t *testing.T) {
	rules := slotlint.Builtin()
	var paths []string
	for _, cl := range rules.Clients {
		paths = append(paths, cl.Packages...)
	}
	slices.Sort(paths)
	want := slices.Sorted(maps.Keys(builtinClients))
	if !slices.Equal(paths, want) {
		t.Errorf("the built-in rules' clients are %q; builtinClients has %q", paths, want)
	}
	if len(rules.Wrappers) > 0 {
		t.Errorf("the built-in rules declare %d wrappers; needsRules assumes none", len(rules.Wrappers))
	}
}
