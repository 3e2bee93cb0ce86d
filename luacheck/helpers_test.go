package luacheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

// want is an expected finding: its category and position, and texts its
// message must hold. A want whose exact field is set must match exactly.
type want struct {
	cat       string
	line, col int
	has       []string
	exact     string
}

func w(cat string, line, col int, has ...string) want {
	return want{cat: cat, line: line, col: col, has: has}
}

type checkCase struct {
	name string
	src  string
	call Call
	cmds func(string) *ruleset.Command // lookupTest when nil
	want []want
}

func lits(keys ...string) []keyspace.Key {
	out := make([]keyspace.Key, len(keys))
	for i, k := range keys {
		out[i] = keyspace.Lit(k)
	}
	return out
}

// keysCall is a call with the given literal keys, its argument count unknown.
func keysCall(keys ...string) Call {
	return Call{Keys: lits(keys...), KnownKeyCount: true}
}

// runtimeCall is a call as the runtime hook sees it: every key and argument.
func runtimeCall(keys []string, args ...string) Call {
	return Call{Keys: lits(keys...), KnownKeyCount: true, Args: lits(args...), KnownArgCount: true}
}

func sym(template string) keyspace.Key { return keyspace.MustTemplate(template).Symbolic() }

func slotOf(key string) int { return slot.Of(key) }

func runCases(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			s, _ := Parse(scriptName(tc.name), tc.src)
			cmds := tc.cmds
			if cmds == nil {
				cmds = lookupTest
			}
			got := s.Check(cmds, tc.call)
			checkInvariants(t, s, got)
			expectFindings(t, got, tc.want)
			sameAsCheck(t, s, cmds, tc.call)
		})
	}
}

// scriptName makes a Go-like name of a test case name.
func scriptName(name string) string {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == ' ' || r == '-' || r == '_' })
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "") + "Script"
}

func expectFindings(t *testing.T, got []Finding, wants []want) {
	t.Helper()
	ok := len(got) == len(wants)
	for i := 0; ok && i < len(got); i++ {
		ok = matches(got[i], wants[i])
	}
	if ok {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "got %d findings:\n", len(got))
	for _, f := range got {
		fmt.Fprintf(&b, "\t%s %d:%d %s\n", f.Category, f.Line, f.Col, f.Message)
	}
	fmt.Fprintf(&b, "want %d:\n", len(wants))
	for _, x := range wants {
		fmt.Fprintf(&b, "\t%s %d:%d %q %q\n", x.cat, x.line, x.col, x.has, x.exact)
	}
	t.Error(b.String())
}

func matches(f Finding, x want) bool {
	if f.Category != x.cat || f.Line != x.line || f.Col != x.col {
		return false
	}
	if x.exact != "" && f.Message != x.exact {
		return false
	}
	for _, h := range x.has {
		if !strings.Contains(f.Message, h) {
			return false
		}
	}
	return true
}

var categories = map[string]bool{CategorySyntax: true, CategoryUndeclaredKey: true, CategoryArity: true,
	CategoryFlags: true, CategoryCrossSlot: true, CategoryMaybeCrossSlot: true, CategoryUndeclaredKeySameSlot: true}

// checkInvariants checks what every finding promises: a known category, a
// position that is in the script or absent, and a one-line message with the
// right prefix that starts in lower case and has no trailing period.
func checkInvariants(t *testing.T, s *Script, fs []Finding) {
	t.Helper()
	lines := len(luaLines(s.Source))
	for _, f := range fs {
		if !categories[f.Category] {
			t.Errorf("unknown category %q: %s", f.Category, f.Message)
		}
		if f.Line < 0 || f.Line > lines || (f.Line == 0) != (f.Col == 0) {
			t.Errorf("bad position %d:%d: %s", f.Line, f.Col, f.Message)
		}
		prefix := fmt.Sprintf("script %s: ", s.Name)
		if f.Line > 0 {
			prefix = fmt.Sprintf("script %s line %d: ", s.Name, f.Line)
		}
		if !strings.HasPrefix(f.Message, prefix) {
			t.Errorf("message does not start with %q: %s", prefix, f.Message)
		}
		rest := strings.TrimPrefix(f.Message, prefix)
		if rest == "" || rest[0] >= 'A' && rest[0] <= 'Z' && !strings.HasPrefix(rest, "KEYS[") && !strings.HasPrefix(rest, "ARGV[") {
			t.Errorf("message does not go on in lower case: %s", f.Message)
		}
		if strings.ContainsAny(f.Message, "\n\r") || strings.HasSuffix(f.Message, ".") {
			t.Errorf("message is not one line without a trailing period: %q", f.Message)
		}
	}
}
