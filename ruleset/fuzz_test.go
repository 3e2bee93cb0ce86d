package ruleset

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// fuzzSeeds are rules files for FuzzParseRules to start from: the good one
// of the tests, and small ones with each kind of fault.
var fuzzSeeds = []string{
	goodRules,
	"version: 1\n",
	"",
	"version: 1\nfamilies:\n  job: \"emq:{<queue>:job\"\n",
	"version: 1\nfamilies: {job: 'a''b:{<>}'}\n",
	"version: 1\nfamilies:\n  job: \"\\x61\\u0062:{<q>}:<q>\"\n",
	"version: 1\nfamilies:\n  job: \"emq:{<queue>}:job:\n    <id>>\"\n",
	"version: 1\nfamilies:\n  j\u00e9: \"\u00e9:{<q>}\"\n",
	"version: 1\ngroups:\n  queue: [job, job]\n",
	"version: 1\nchecks: {cross-slot: fatal}\n",
	"version: 1\nclients:\n  c:\n    packages: [p]\n    methods:\n      M: {command: GET, keys: [\"1...pairs\", \"2.F[]\"], kind: command}\n",
	"version: 1\ncommands:\n  get: {arity: 2, keys: [{index: 1, lastkey: 0, step: 1, keynum: 2}]}\n",
	"version: 1\nwrappers:\n  \"(*x.T).M\": {command: LMOVE, keys: [\"1\", \"2\"]}\n",
	"version: 1\na: &x {b: *x}\n",
	"version: 1\n<<: {checks: {}}\n",
	"version: 1\nfamilies:\n\tjob: x\n",
	"version: 1\r\nfamilies:\r\n  job: \"a:{<q>\"\r\n",
	"- [1, {a: b}\n",
	"version: 1\nfamilies: \"\\xff\"\n",
	"\xef\xbb\xbfversion: 1\n",
	"%YAML 1.2\n---\nversion: 1\n...\n---\nversion: 2\n",
	// Lines that end in "\r" alone, or in NEL.
	"version: 1\rfamilies:\r  job: \"a:{<q>\"\r",
	"version: 1\rfamilies: [\r",
	"version: 1\u0085families:\u2028  job: \"a:{<q>\"\u2029",
	// UTF-16.
	"\xff\xfev\x00e\x00r\x00s\x00i\x00o\x00n\x00:\x00 \x002\x00\n\x00",
}

// yamlBreak matches a line break as YAML counts them.
var yamlBreak = regexp.MustCompile("\r\n|\r|\n|\u0085|\u2028|\u2029")

// FuzzParseRules checks that ParseRules never panics on any bytes, and that
// every fault it reports is at a line and column of the file:
// "file:line:col: message", the line in the file and the column at most one
// past the line's end.
func FuzzParseRules(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz.yaml"
		r, err := ParseRules(name, data)
		if err == nil {
			if r == nil {
				t.Fatal("ParseRules returned neither rules nor an error")
			}
			for _, fam := range r.Families {
				if fam.Template == nil {
					t.Fatalf("family %q has no template", fam.Name)
				}
			}
			_ = r.Validate()
			r.Match("emq:{orders}:job:42")
			return
		}
		var re *RulesError
		if !errors.As(err, &re) || len(re.Faults) == 0 {
			t.Fatalf("ParseRules error %v is a %T with no faults, want a *RulesError", err, err)
		}
		lines := yamlBreak.Split(string(data), -1)
		for _, fault := range re.Faults {
			p := fault.Pos
			if p.File != name || p.Line < 1 || p.Line > len(lines) || p.Col < 1 {
				t.Fatalf("fault %q is at %s, not at a line of the file's %d", fault.Msg, p, len(lines))
			}
			if line := lines[p.Line-1]; p.Col > len(line)+1 {
				t.Fatalf("fault %q is at %s, past the end of line %q", fault.Msg, p, line)
			}
			if want := fmt.Sprintf("%s:%d:%d: ", name, p.Line, p.Col); fault.Msg == "" || !strings.HasPrefix(fault.Error(), want) {
				t.Fatalf("fault %q does not start with %q and a message", fault, want)
			}
		}
		if !strings.HasPrefix(err.Error(), re.Faults[0].Error()) {
			t.Fatalf("error %q does not start with its first fault %q", err, re.Faults[0])
		}
	})
}
