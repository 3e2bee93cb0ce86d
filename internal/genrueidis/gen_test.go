package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/ruleset"
)

const testCommands = `version: 1
commands:
  rename: {arity: 3, keys: [{index: 1, lastkey: 0, step: 1}, {index: 2, lastkey: 0, step: 1}]}
  mget: {arity: -2, keys: [{index: 1, lastkey: -1, step: 1}]}
  object: {arity: -2}
  object|encoding: {arity: 3, keys: [{index: 2, lastkey: 0, step: 1}]}
  ping: {arity: -1}
  multi: {arity: 1}
`

// TestReadBuilder reads a reduced builder in rueidis's generated shape: the
// command of each Builder method, the chain methods that call slot on a
// parameter or on the elements of a variadic one, and the command each
// belongs to.
func TestReadBuilder(t *testing.T) {
	b, err := ReadBuilder(filepath.Join("testdata", "lib"))
	if err != nil {
		t.Fatal(err)
	}
	if b.Roots["ObjectEncoding"] != "OBJECT ENCODING" || b.Roots["Rename"] != "RENAME" {
		t.Errorf("roots: %v", b.Roots)
	}
	rules, err := ruleset.ParseRules("rules.yaml", []byte(testCommands))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Generate(Libraries[0], b, rules)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(tab.Lines, "\n")
	for _, want := range []string{
		`Builder.Rename: {kind: builder, command: RENAME}`,
		`Builder.ObjectEncoding: {kind: builder, command: "OBJECT ENCODING"}`,
		`Rename.Key: {kind: builder-keys, keys: ["0"]}`,
		`RenameKey.Newkey: {kind: builder-keys, keys: ["0"]}`,
		`Mget.Key: {kind: builder-keys, keys: ["0..."]}`,
		`MgetKey.Key: {kind: builder-keys, keys: ["0..."]}`,
		`CommandClient.DoMulti: {kind: send, args: "1..."}`,
		`Builder.Multi: {kind: builder, command: MULTI}`,
		`Lua.Exec: {command: EVALSHA, kind: script, script: receiver, keys: ["2[]"], args: "3[]"}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "Ping") || strings.Contains(got, "Frob") {
		t.Errorf("a command without keys or not in the table is listed:\n%s", got)
	}
	if len(tab.Missing) != 1 || tab.Missing[0] != "FROB" {
		t.Errorf("missing: %v, want [FROB]", tab.Missing)
	}
}

// TestDisagreement: a chain that takes keys for a command the table gives
// none, or none for one it gives some, stops the generator.
func TestDisagreement(t *testing.T) {
	b, err := ReadBuilder(filepath.Join("testdata", "lib"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ table, want string }{
		{strings.Replace(testCommands, "rename: {arity: 3, keys: [{index: 1, lastkey: 0, step: 1}, {index: 2, lastkey: 0, step: 1}]}", "rename: {arity: 3}", 1),
			"the chain of RENAME takes keys (Rename.Key), but the commands table gives it none"},
		{strings.Replace(testCommands, "ping: {arity: -1}", "ping: {arity: -1, keys: [{index: 1, lastkey: 0, step: 1}]}", 1),
			"PING has keys in the commands table, but no method of its chain takes one"},
	} {
		rules, err := ruleset.ParseRules("rules.yaml", []byte(tc.table))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Generate(Libraries[0], b, rules); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}

// TestUpToDate regenerates the section from the real rueidis, valkey-go and
// rueidiscompat that analyzer/testdata/go.mod pins, and compares it with
// rules.yaml.
func TestUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks rueidiscompat and go-redis")
	}
	path := filepath.Join("..", "..", "rules.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	section, err := Build(path, data, filepath.Join("..", "..", "analyzer", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	updated, err := ReplaceSection(data, section)
	if err != nil {
		t.Fatal(err)
	}
	if string(updated) != string(data) {
		t.Errorf("%s: the builder clients section is out of date; run go run ./internal/genrueidis", path)
	}
}

// TestMergeTables: libraries with the same table are one client of all
// their packages; others stay apart.
func TestMergeTables(t *testing.T) {
	a := &Table{Library: Libraries[0], Lines: []string{"X: {}"}}
	b := &Table{Library: Libraries[1], Lines: []string{"X: {}"}}
	c := &Table{Library: Library{Name: "other", Module: "example.com/other"}, Lines: []string{"Y: {}"}}
	out := mergeTables([]*Table{a, b, c})
	if len(out) != 2 || out[0].Library.Name != "rueidis and valkey-go" || len(out[0].modules) != 2 || out[1].Library.Name != "other" {
		t.Errorf("got %+v", out)
	}
}
