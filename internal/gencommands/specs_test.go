package main

import (
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
		// Derived from the arguments.
		{"json.mget", []keySpec{{Index: 1, LastKey: -2, Step: 1}}},
		{"json.mset", []keySpec{{Index: 1, LastKey: -1, Step: 3}}},
		{"ts.madd", []keySpec{{Index: 1, LastKey: -1, Step: 3}}},
		{"ts.createrule", []keySpec{one(1), one(2)}},
		{"ts.range", []keySpec{one(1)}},
		{"vadd", []keySpec{one(1)}},
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
