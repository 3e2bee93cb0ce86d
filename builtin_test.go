package slotlint

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/ruleset"
)

const (
	v9 = "github.com/redis/go-redis/v9"
	v8 = "github.com/go-redis/redis/v8"
)

// TestBuiltinValid proves the embedded rules.yaml parses and validates.
func TestBuiltinValid(t *testing.T) {
	r, err := ruleset.ParseRules("rules.yaml", builtinSource)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	b := Builtin()
	if b != Builtin() {
		t.Error("Builtin builds the rules more than once")
	}
	if b.Version != ruleset.SchemaVersion {
		t.Errorf("version %d", b.Version)
	}
	if len(b.Families) != 0 || len(b.Groups) != 0 || len(b.Wrappers) != 0 {
		t.Errorf("the built-in set declares families %v, groups %v or wrappers %v", b.Families, b.Groups, b.Wrappers)
	}
	if len(b.Commands) < 200 {
		t.Errorf("only %d commands", len(b.Commands))
	}
	var names []string
	for _, c := range b.Clients {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "go-redis v9,go-redis v8,go-redis v7,go-redis v6,rueidis and valkey-go,rueidiscompat,valkeycompat,redigo,radix.v2,radix v3,radix v4" {
		t.Errorf("clients %v", names)
	}
}

// TestBuiltinGenerated checks that builtin_rules.go, the Go data that
// Builtin returns, is what rules.yaml parses to: a change to rules.yaml
// needs go generate.
func TestBuiltinGenerated(t *testing.T) {
	want, err := ruleset.ParseRules("rules.yaml", builtinSource)
	if err != nil {
		t.Fatal(err)
	}
	if got := builtinRules(); !reflect.DeepEqual(got, want) {
		t.Fatal("builtin_rules.go differs from rules.yaml; run go generate")
	}
}

func TestBuiltinChecks(t *testing.T) {
	want := map[string]ruleset.Severity{
		"cross-slot":               ruleset.SeverityError,
		"maybe-cross-slot":         ruleset.SeverityWarning,
		"caller-keys":              ruleset.SeverityWarning,
		"keyspace-wide":            ruleset.SeverityError,
		"cluster-db":               ruleset.SeverityError,
		"ignore-directive":         ruleset.SeverityWarning,
		"lua-syntax":               ruleset.SeverityError,
		"undeclared-key":           ruleset.SeverityError,
		"undeclared-key-same-slot": ruleset.SeverityWarning,
		"script-arity":             ruleset.SeverityError,
		"script-flags":             ruleset.SeverityError,
		"read-outside-watch":       ruleset.SeverityWarning,
		"tx-write-outside-multi":   ruleset.SeverityError,
		"unbounded-watch-retry":    ruleset.SeverityWarning,
		"retry-on-any-error":       ruleset.SeverityWarning,
		"unwatched-decision-key":   ruleset.SeverityWarning,
		"lost-update":              ruleset.SeverityWarning,
		"watch-in-multi":           ruleset.SeverityError,
		"pooled-transaction":       ruleset.SeverityError,
		"watch-without-keys":       ruleset.SeverityError,
	}
	b := Builtin()
	if len(b.Checks) != len(want) {
		t.Errorf("%d checks, want %d: %v", len(b.Checks), len(want), b.Checks)
	}
	for name, sev := range want {
		if got := b.Severity(name); got != sev {
			t.Errorf("%s: %s, want %s", name, got, sev)
		}
	}
}

func TestBuiltinLookups(t *testing.T) {
	b := Builtin()
	for _, pkg := range []string{v9, v8} {
		m := b.Method(pkg, "Client", "Rename")
		if m == nil || m.Command != "RENAME" || len(m.Keys) != 2 {
			t.Errorf("%s Rename: %+v", pkg, m)
		}
		if m := b.Method(pkg, "Tx", "Watch"); m == nil || m.Kind != ruleset.KindCommand || m.Keys[0].Param != 1 {
			t.Errorf("%s Tx.Watch: %+v", pkg, m)
		}
		if m := b.Method(pkg, "ClusterClient", "Watch"); m == nil || m.Kind != ruleset.KindWatch || m.Fn != 1 {
			t.Errorf("%s ClusterClient.Watch: %+v", pkg, m)
		}
		if m := b.Method(pkg, "Script", "Run"); m == nil || m.Script != ruleset.ReceiverParam {
			t.Errorf("%s Script.Run: %+v", pkg, m)
		}
		if m := b.Method(pkg, "", "NewScript"); m == nil || m.Kind != ruleset.KindNewScript {
			t.Errorf("%s NewScript: %+v", pkg, m)
		}
		if m := b.Method(pkg, "Pipeline", "Exec"); m == nil || m.Kind != ruleset.KindExec {
			t.Errorf("%s Exec: %+v", pkg, m)
		}
	}
	if c := b.Command("OBJECT ENCODING"); c == nil || c.Name != "object|encoding" {
		t.Errorf("OBJECT ENCODING: %+v", c)
	}
	if c := b.Command("mget"); c == nil || !c.Split || len(c.Keys) != 1 {
		t.Errorf("mget: %+v", c)
	}
}

func TestBuiltinSource(t *testing.T) {
	onDisk, err := os.ReadFile("rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := BuiltinSource()
	if !bytes.Equal(src, onDisk) {
		t.Error("BuiltinSource differs from rules.yaml")
	}
	src[0] = '!'
	if BuiltinSource()[0] == '!' {
		t.Error("BuiltinSource returns the embedded bytes, not a copy")
	}
}

func writeRules(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "slotlint.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadRules(t *testing.T) {
	r, err := LoadRules("")
	if err != nil || r != Builtin() {
		t.Fatalf("LoadRules(\"\") = %p, %v", r, err)
	}

	path := writeRules(t, `version: 1
checks:
  lost-update: off
  maybe-cross-slot: error
families:
  job: "emq:{<queue>}:job:<id>"
  pending: "emq:{<queue>}:pending"
groups:
  queue: [job, pending]
wrappers:
  "(*example.com/shop/store.Repo).Move": {command: LMOVE, keys: ["1", "2"]}
clients:
  go-redis v9:
    methods:
      Get: {command: GET, keys: ["1"]}
commands:
  json.get: {arity: -2, flags: [readonly], keys: [{index: 1, lastkey: 0, step: 1}]}
`)
	r, err = LoadRules(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Severity("lost-update") != ruleset.SeverityOff || r.Severity("maybe-cross-slot") != ruleset.SeverityError || r.Severity("cross-slot") != ruleset.SeverityError {
		t.Errorf("checks: %v", r.Checks)
	}
	if f, values, ok := r.Match("emq:{q}:job:7"); !ok || f.Name != "job" || strings.Join(values, ",") != "q,7" {
		t.Errorf("Match: %v %v %v", f, values, ok)
	}
	if w := r.Wrapper("(*example.com/shop/store.Repo).Move"); w == nil || w.Method.Command != "LMOVE" {
		t.Errorf("wrapper: %+v", w)
	}
	if r.Command("JSON.GET") == nil || r.Command("get") == nil {
		t.Error("commands not merged")
	}
	if m := r.Method(v9, "", "Rename"); m == nil {
		t.Error("built-in methods lost")
	}
	if Builtin().Severity("lost-update") != ruleset.SeverityWarning || len(Builtin().Families) != 0 {
		t.Error("LoadRules changed the built-in set")
	}
}

func TestLoadRulesErrors(t *testing.T) {
	path := writeRules(t, `version: 1
checks:
  cross-slot: fatal
  lost-updates: off
families:
  job: "emq:{<queue>}:job:<id>"
  stats: "emq:stats"
  bad: "emq:{<queue>:x"
groups:
  queue: [job, stats]
  orphan: [job, nope]
wrappers:
  example.com/shop/store.Get: {command: GETT, keys: ["1"]}
`)
	_, err := LoadRules(path)
	if err == nil {
		t.Fatal("no error")
	}
	var re *ruleset.RulesError
	if !errors.As(err, &re) {
		t.Fatalf("%T: %v", err, err)
	}
	// Parse faults come first, alone: the set is not merged until the file
	// parses.
	want := []string{
		path + `:3:15: severity "fatal" for check "cross-slot" is not one of error, warning, off`,
		path + `:8:13: template "emq:{<queue>:x": '{' opens a hashtag section that is never closed with '}' (column 5 of the template)`,
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", err, strings.Join(want, "\n"))
	}

	path = writeRules(t, `version: 1
checks:
  lost-updates: off
families:
  job: "emq:{<queue>}:job:<id>"
  stats: "emq:stats"
groups:
  queue: [job, stats]
  orphan: [job, nope]
wrappers:
  example.com/shop/store.Get: {command: GETT, keys: ["1"]}
`)
	_, err = LoadRules(path)
	if err == nil {
		t.Fatal("no error")
	}
	want = []string{
		path + `:3:3: unknown check "lost-updates" (did you mean lost-update?); the checks are cross-slot, maybe-cross-slot, caller-keys, keyspace-wide, cluster-db, watch-without-keys, lua-syntax, undeclared-key, undeclared-key-same-slot, script-arity, script-flags, read-outside-watch, tx-write-outside-multi, unbounded-watch-retry, retry-on-any-error, unwatched-decision-key, lost-update, watch-in-multi, pooled-transaction, ignore-directive`,
		path + `:8:3: group "queue": families job ("emq:{<queue>}:job:<id>", hashtag {<queue>}) and stats ("emq:stats", no hashtag) are not proven to share a slot; give them the same hashtag, such as {<queue>} in both`,
		path + `:9:3: group "orphan" names family "nope", which is not defined; defined families: job, stats`,
		path + `:11:31: wrapper "example.com/shop/store.Get" sends command GETT, which is not in the commands table`,
	}
	if got := err.Error(); got != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}

	path = writeRules(t, "version: 1\nchecks:\n  cross-slot: error\n   lost-update: off\n")
	if _, err := LoadRules(path); err == nil || err.Error() != path+":4:15: invalid YAML: mapping values are not allowed in this context" {
		t.Errorf("syntax error: %v", err)
	}

	if _, err := LoadRules(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// BenchmarkBuiltinRules measures what Builtin costs a process: building the
// rules from builtin_rules.go. BenchmarkParseBuiltinYAML is the reference,
// parsing and validating the same rules from rules.yaml, as Builtin did
// before the rules became Go data; see BENCHMARKS.md.
func BenchmarkBuiltinRules(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = builtinRules()
	}
}

func BenchmarkParseBuiltinYAML(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := ruleset.ParseRules("rules.yaml", builtinSource)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// A rules file that names a check by its former name (copy-db, now
// cluster-db) sets the check's severity; the new name wins over the old.
func TestLoadRulesFormerCheckName(t *testing.T) {
	r, err := LoadRules(writeRules(t, "version: 1\nchecks:\n  copy-db: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Severity("cluster-db"); got != ruleset.SeverityOff {
		t.Errorf("copy-db: off gave cluster-db %s, want off", got)
	}
	r, err = LoadRules(writeRules(t, "version: 1\nchecks:\n  copy-db: off\n  cluster-db: warning\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Severity("cluster-db"); got != ruleset.SeverityWarning {
		t.Errorf("copy-db: off, cluster-db: warning gave cluster-db %s, want warning", got)
	}
}

// The target of a rules file merges over the built-in one (redis).
func TestLoadRulesTarget(t *testing.T) {
	if Builtin().ClusterHasDatabases() {
		t.Error("the built-in target has cluster databases; want redis")
	}
	r, err := LoadRules(writeRules(t, "version: 1\ntarget: valkey-9\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.ClusterHasDatabases() {
		t.Errorf("target: valkey-9 gave target %q", r.Target)
	}
}
