package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestSpecs loads the command JSON files under specs and checks what the
// generator makes of the commands issue 16 names, from key specs and from
// arguments.
func TestSpecs(t *testing.T) {
	sources, err := loadSpecs("specs", nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]command{}
	commit := regexp.MustCompile(`^[0-9a-f]{40}$`)
	for _, s := range sources {
		if s.Repo == "" || len(s.Files) == 0 || len(s.Commands) == 0 {
			t.Errorf("source %s: repository %q, %d files, %d commands", s.Dir, s.Repo, len(s.Files), len(s.Commands))
		}
		for _, f := range s.Files {
			if !commit.MatchString(f.Commit) {
				t.Errorf("source %s: %s has commit %q", s.Dir, f.Path, f.Commit)
			}
		}
		for _, c := range s.Commands {
			byName[c.Name] = c
		}
	}
	one := func(i int) keySpec { return keySpec{Index: i, Step: 1} }
	for _, tc := range []struct {
		name string
		keys []keySpec
	}{
		// From key specs.
		{"sunioncard", []keySpec{{Index: 1, IsKeyNum: true, FirstKey: 1, Step: 1, Flags: []string{"RO", "ACCESS"}}}},
		{"lmovem", []keySpec{
			{Index: 1, Step: 1, Flags: []string{"RW", "ACCESS", "DELETE"}},
			{Index: 2, Step: 1, Flags: []string{"RW", "INSERT"}}}},
		{"tdigest.merge", []keySpec{
			{Index: 1, Step: 1, Flags: []string{"RW", "ACCESS", "UPDATE"}},
			{Index: 2, IsKeyNum: true, FirstKey: 1, Step: 1, Flags: []string{"RO", "ACCESS"}}}},
		{"himport|set", []keySpec{{Index: 2, Step: 1, Flags: []string{"OW", "UPDATE"}}}},
		// From the key specs of Redis's command pages (redis-docs).
		{"ts.nrange", []keySpec{{Index: 1, IsKeyNum: true, FirstKey: 1, Step: 1, Flags: []string{"RO", "ACCESS"}}}},
		{"ts.nrevrange", []keySpec{{Index: 1, IsKeyNum: true, FirstKey: 1, Step: 1, Flags: []string{"RO", "ACCESS"}}}},
		{"ts.read", []keySpec{{Index: 1, Step: 1, Flags: []string{"RO"}}}},
		// Derived from the arguments.
		{"json.mget", []keySpec{{Index: 1, LastKey: -2, Step: 1}}},
		{"json.mset", []keySpec{{Index: 1, LastKey: -1, Step: 3}}},
		{"ts.madd", []keySpec{{Index: 1, LastKey: -1, Step: 3}}},
		{"ts.createrule", []keySpec{one(1), one(2)}},
		{"ts.range", []keySpec{one(1)}},
		{"vadd", []keySpec{one(1)}},
		{"vismember", []keySpec{one(1)}},
		{"vrange", []keySpec{one(1)}},
		{"ts.mget", nil},
	} {
		c, ok := byName[tc.name]
		if !ok {
			t.Errorf("%s: not in the specs", tc.name)
			continue
		}
		if !reflect.DeepEqual(c.Keys, tc.keys) {
			t.Errorf("%s: keys %+v, want %+v", tc.name, c.Keys, tc.keys)
		}
	}
	if c := byName["msetex"]; !c.Split || c.Arity != -4 || !reflect.DeepEqual(c.Flags, []string{"write", "denyoom"}) {
		t.Errorf("msetex: %+v", c)
	}
	// Arity from the arguments: JSON.ARRTRIM key path start stop.
	if c := byName["json.arrtrim"]; c.Arity != 5 {
		t.Errorf("json.arrtrim: arity %d, want 5", c.Arity)
	}

	// A command the live table has is not taken again.
	live := []command{{Name: "json.mget", Arity: -3}}
	again, err := loadSpecs("specs", live)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range again {
		for _, c := range s.Commands {
			if c.Name == "json.mget" {
				t.Errorf("json.mget taken from %s, though the live table has it", s.Dir)
			}
		}
	}
}

// TestDeriveKeysRefuses checks that key arguments in shapes the generator
// does not know are errors, not guesses.
func TestDeriveKeysRefuses(t *testing.T) {
	key := jsonArg{Name: "key", Type: "key"}
	for _, tc := range []struct {
		what string
		args []jsonArg
		want string
	}{
		{"optional key", []jsonArg{{Name: "key", Type: "key", Optional: true}}, "optional"},
		{"key after an optional argument", []jsonArg{{Name: "n", Type: "integer", Optional: true}, key}, "variable width"},
		{"key after a oneof", []jsonArg{{Name: "o", Type: "oneof"}, key}, "variable width"},
		{"multiple key before an optional argument", []jsonArg{{Name: "key", Type: "key", Multiple: true}, {Name: "x", Type: "string", Optional: true}}, "followed by"},
		{"block with two keys", []jsonArg{{Name: "b", Type: "block", Multiple: true, Arguments: []jsonArg{key, key}}}, "two keys"},
		{"key in an optional block", []jsonArg{{Name: "b", Type: "block", Optional: true, Arguments: []jsonArg{key}}}, "shape"},
	} {
		_, err := deriveKeys(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.what, err, tc.want)
		}
	}
}

// TestFrontMatter checks the redis-docs source: the commands come from that
// source, the last, only where no other has them, and the source says which
// of its files had no key specs.
func TestFrontMatter(t *testing.T) {
	sources, err := loadSpecs("specs", nil)
	if err != nil {
		t.Fatal(err)
	}
	last := sources[len(sources)-1]
	if last.Dir != "redis-docs" || last.Repo != "redis/docs" {
		t.Fatalf("last source is %s (%s), want redis-docs (redis/docs)", last.Dir, last.Repo)
	}
	var names []string
	for _, c := range last.Commands {
		names = append(names, c.Name)
	}
	if want := []string{"ts.nrange", "ts.nrevrange", "ts.read", "vismember", "vrange"}; !reflect.DeepEqual(names, want) {
		t.Errorf("redis-docs commands %v, want %v", names, want)
	}
	if want := []string{"vismember", "vrange"}; !reflect.DeepEqual(last.Derived, want) {
		t.Errorf("redis-docs derived %v, want %v", last.Derived, want)
	}
	for _, c := range last.Commands {
		if c.Name == "ts.nrange" && (c.Arity != -5 || !reflect.DeepEqual(c.Flags, []string{"readonly", "module", "movablekeys"})) {
			t.Errorf("ts.nrange: %+v", c)
		}
	}
	section := strings.ReplaceAll(formatSection("7.0.15", nil, sources), "\n  # ", " ")
	if !strings.Contains(section, "in redis/docs (internal/gencommands/specs/redis-docs,") ||
		!strings.Contains(section, "The files of VISMEMBER and VRANGE have no key specs") {
		t.Errorf("the section does not name redis-docs and its derived commands:\n%s", section)
	}
}

// TestFrontMatterRefuses checks that front matter in a shape the generator
// does not know is an error naming the file, line and column.
func TestFrontMatterRefuses(t *testing.T) {
	const head = "content/commands/ts.nrange.md:\n  title: TS.NRANGE\n  key_specs:\n    - RO: true\n"
	for _, tc := range []struct {
		what, yaml, want string
	}{
		{"unknown begin_search type", head +
			"      begin_search: {type: pattern, spec: {index: 1}}\n      find_keys: {type: range, spec: {lastkey: 0, keystep: 1, limit: 0}}\n",
			`:5:21: page content/commands/ts.nrange.md: key spec 0: begin_search: type "pattern", which the generator does not know`},
		{"unknown find_keys field", head +
			"      begin_search: {type: index, spec: {index: 1}}\n      find_keys: {type: range, spec: {lastkey: 0, step: 1, limit: 0}}\n",
			`:6:51: page content/commands/ts.nrange.md: key spec 0: find_keys: range spec has field "step"; want lastkey, keystep, limit`},
		{"unknown flag", head + "      fast: true\n",
			`:5:7: page content/commands/ts.nrange.md: key spec 0: field "fast", which is neither begin_search, find_keys nor a key spec flag`},
		{"flag not a boolean", head + "      access: yes please\n",
			`:5:15: page content/commands/ts.nrange.md: key spec 0: flag access is "yes please", not true or false`},
		{"no find_keys", head + "      begin_search: {type: index, spec: {index: 1}}\n",
			`:4:7: page content/commands/ts.nrange.md: key spec 0: want both begin_search and find_keys`},
		{"unknown page field", "content/commands/ts.nrange.md:\n  title: TS.NRANGE\n  summary: Query a range\n",
			"line 3: field summary not found"},
		{"title not the page's", "content/commands/ts.nrange.md:\n  title: TS.RANGE\n",
			`:1:1: page content/commands/ts.nrange.md has title "TS.RANGE", which is not the command of a page named ts.range.md`},
	} {
		file := filepath.Join(t.TempDir(), "frontmatter.yaml")
		if err := os.WriteFile(file, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := readFrontMatter(file)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), file) {
			t.Errorf("%s: error %v, want one starting with %s and with %q", tc.what, err, file, tc.want)
		}
	}
}
