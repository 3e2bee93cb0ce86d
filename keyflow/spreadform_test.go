package keyflow

import (
	"os"
	"testing"

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
