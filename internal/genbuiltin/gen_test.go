package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/ruleset"
)

// TestUpToDate checks that builtin_rules.go is what genbuiltin writes from
// rules.yaml today.
func TestUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	if err := run(filepath.Join(root, "rules.yaml"), filepath.Join(root, "builtin_rules.go"), true); err != nil {
		t.Fatal(err)
	}
}

// TestGenerateUserParts covers what the built-in rules leave empty but a
// rule set may hold: families, whose templates are written as calls to
// keyspace.MustTemplate, groups and wrappers. Generate formats its output
// with go/format, so it is valid Go.
func TestGenerateUserParts(t *testing.T) {
	rules, err := ruleset.ParseRules("user.yaml", []byte(`version: 1
families:
  job: "emq:{<queue>}:job:<id>"
  pending: "emq:{<queue>}:pending"
groups:
  queue: [job, pending]
wrappers:
  "example.com/shop/store.Get": {command: GET, keys: ["1"]}
`))
	if err != nil {
		t.Fatal(err)
	}
	src, err := Generate(rules)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`Template: keyspace.MustTemplate("emq:{<queue>}:job:<id>")`,
		`[]*ruleset.Family{{Name: "job"`,
		`[]*ruleset.Group{{Name: "queue", Families: []string{"job", "pending"}`,
		`[]*ruleset.Wrapper{{Func: "example.com/shop/store.Get", Method: &ruleset.Method{`,
		`Pos: ruleset.Pos{File: "user.yaml", Line: 3, Col: 3}`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the generated code lacks %s:\n%s", want, src)
		}
	}
}
