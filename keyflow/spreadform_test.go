package keyflow

import (
	"os"
	"slices"
	"testing"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// TestSpreadKeys checks which arguments of a spread after n fixed ones
// the command table's key specs make keys, and the form a key list passed
// on whole takes for them.
func TestSpreadKeys(t *testing.T) {
	data, err := os.ReadFile("../rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := ruleset.ParseRules("rules.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		n    int
		want string // the form's suffix, or "none"
	}{
		{"del", 1, ""},
		{"mget", 1, ""},
		{"blpop", 1, "-1"},
		{"mset", 1, "%2"},
		{"msetnx", 1, "%2"},
		{"json.mset", 1, "%3"},
		{"json.mget", 1, "-1"},
		{"zunion", 1, "#"},
		{"zinter", 1, "#"},
		{"zunionstore", 2, "#"},
		{"sdiffstore", 2, ""},
		{"hdel", 2, "none"},  // fields, not keys
		{"eval", 2, "none"},  // a script's keys: evalPassedOn
		{"xread", 1, "none"}, // STREAMS keyword
	} {
		cmd := rules.Command(tc.cmd)
		if cmd == nil {
			t.Fatalf("%s: no such command in rules.yaml", tc.cmd)
		}
		f, ok := spreadKeys(cmd, tc.n)
		got := "none"
		if ok {
			got = f.String()
		}
		if got != tc.want {
			t.Errorf("spreadKeys(%s, %d) = %q, want %q", tc.cmd, tc.n, got, tc.want)
		}
		if ok {
			back, ok := parseSpreadForm(f.String())
			if !ok || back != f {
				t.Errorf("%s: form %q does not parse back (%+v, %v)", tc.cmd, f.String(), back, ok)
			}
		}
	}
}

// TestSelectKeys checks the keys a caller's arguments give to a key list
// passed on whole, in each form.
func TestSelectKeys(t *testing.T) {
	lit := func(texts ...string) []Group {
		var out []Group
		for _, s := range texts {
			out = append(out, Group{{Key: keyspace.Lit(s)}})
		}
		return out
	}
	list := Group{{Key: keyspace.Unknown("$2...", "args...", false)}}
	text := func(groups []Group) []string {
		var out []string
		for _, g := range groups {
			out = append(out, g[0].Key.String())
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		form   string
		groups []Group
		want   []string // nil: open
	}{
		{"tail", "-1", lit("a", "b", "0"), []string{"a", "b"}},
		{"pairs", "%2", lit("a", "1", "b", "2"), []string{"a", "b"}},
		{"triples", "%3", lit("a", "$", "1", "b", "$", "2"), []string{"a", "b"}},
		{"counted", "#", lit("2", "a", "b", "WEIGHTS", "1", "2"), []string{"a", "b"}},
		{"counted, too few", "#", lit("3", "a", "b"), nil},
		{"counted, no count", "#", lit("a", "b"), nil},
		{"list alone", "%2", []Group{list}, []string{"<args...>"}},
		{"key, then list, tail", "-1", append(lit("a"), list), []string{"a", "<args...>"}},
		{"pair, then list", "%2", append(lit("a", "1"), list), []string{"a", "<args...>"}},
		{"half a pair, then list", "%2", append(lit("a"), list), nil},
		{"count, then list", "#", append(lit("2"), list), nil},
	} {
		f, ok := parseSpreadForm(tc.form)
		if !ok {
			t.Fatalf("%s: form %q does not parse", tc.name, tc.form)
		}
		got, open := f.selectKeys(tc.groups, false)
		if tc.want == nil {
			if !open {
				t.Errorf("%s: got %v, want open", tc.name, text(got))
			}
			continue
		}
		if open || !slices.Equal(text(got), tc.want) {
			t.Errorf("%s: got %v (open %v), want %v", tc.name, text(got), open, tc.want)
		}
	}
	// The list keeps its form at the caller: its own callers select.
	got, _ := spreadForm{Step: 2}.selectKeys([]Group{list}, false)
	if f := spreadFormOf(got[0][0].Key); f != (spreadForm{Step: 2}) {
		t.Errorf("the caller's list has form %+v, want every other element", f)
	}
}
