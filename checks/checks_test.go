package checks_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/luacheck"
)

var update = flag.Bool("update", false, "rewrite the README's table of checks from the registry")

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func TestRegistry(t *testing.T) {
	all := checks.All()
	if len(all) == 0 {
		t.Fatal("no checks")
	}
	families := []checks.Family{checks.FamilyCrossSlot, checks.FamilyCluster, checks.FamilyScripts, checks.FamilyAtomicity, checks.FamilyDirectives}
	seen := map[string]bool{}
	last := 0
	for _, c := range all {
		if seen[c.Name] {
			t.Errorf("check %s is listed twice", c.Name)
		}
		seen[c.Name] = true
		if !nameRE.MatchString(c.Name) {
			t.Errorf("check name %q is not lower-case words joined by hyphens", c.Name)
		}
		// The checks of a family stand together, families in this order.
		i := slices.Index(families, c.Family)
		if i < 0 {
			t.Errorf("check %s: family %q is not one of %q", c.Name, c.Family, families)
		} else if i < last {
			t.Errorf("check %s of family %s comes after the checks of a later family", c.Name, c.Family)
		} else {
			last = i
		}
		if c.Severity != checks.SeverityError && c.Severity != checks.SeverityWarning {
			t.Errorf("check %s: default severity %q is not error or warning", c.Name, c.Severity)
		}
		if c.Doc == "" || strings.ContainsAny(c.Doc, "\n`") || strings.HasSuffix(c.Doc, ".") {
			t.Errorf("check %s: doc %q is not one plain line without a trailing period", c.Name, c.Doc)
		}
		if r := []rune(c.Doc)[0]; unicode.IsUpper(r) && !strings.HasPrefix(c.Doc, "COPY") {
			t.Errorf("check %s: doc %q starts with a capital", c.Name, c.Doc)
		}
		if c.Description == "" || strings.Contains(c.Description, "\n") || !strings.HasSuffix(c.Description, ".") {
			t.Errorf("check %s: description %q is not one paragraph of sentences", c.Name, c.Description)
		}
		if c.Anchor == "" || strings.HasPrefix(c.Anchor, "#") {
			t.Errorf("check %s: anchor %q", c.Name, c.Anchor)
		}
		if got, ok := checks.Lookup(c.Name); !ok || got != c {
			t.Errorf("Lookup(%q) = %+v, %v", c.Name, got, ok)
		}
	}
	for _, f := range families {
		if !slices.ContainsFunc(all, func(c checks.Check) bool { return c.Family == f }) {
			t.Errorf("family %s has no check", f)
		}
	}
	if !slices.Equal(checks.Names(), slices.Collect(func(yield func(string) bool) {
		for _, c := range all {
			if !yield(c.Name) {
				return
			}
		}
	})) {
		t.Errorf("Names() = %q, not the names of All()", checks.Names())
	}
	if _, ok := checks.Lookup("los-update"); ok {
		t.Error(`Lookup("los-update") found a check`)
	}
	all[0].Name = "changed"
	if checks.All()[0].Name == "changed" {
		t.Error("All returns the registry itself, not a copy")
	}
}

func TestParseList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{" , ,", nil, ""},
		{"maybe-cross-slot", []string{"maybe-cross-slot"}, ""},
		{" lost-update , cluster-db,lost-update,", []string{"lost-update", "cluster-db"}, ""},
		// copy-db is cluster-db's former name.
		{"copy-db,cluster-db,lost-update", []string{"cluster-db", "lost-update"}, ""},
		{"los-update", nil, `unknown check "los-update" (did you mean lost-update?); the checks are cross-slot, maybe-cross-slot, caller-keys, keyspace-wide, cluster-db, `},
		{"copy-db,Cross-Slot", nil, `unknown check "Cross-Slot" (did you mean cross-slot?); the checks are `},
		{"nothing-like-it", nil, `unknown check "nothing-like-it"; the checks are cross-slot, `},
	} {
		got, err := checks.ParseList(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("ParseList(%q) error %v, want one starting %q", tc.in, err, tc.err)
			} else if !strings.HasSuffix(err.Error(), strings.Join(checks.Names(), ", ")) {
				t.Errorf("ParseList(%q) error %q does not list every check", tc.in, err)
			}
		case err != nil:
			t.Errorf("ParseList(%q): %v", tc.in, err)
		case !slices.Equal(got, tc.want):
			t.Errorf("ParseList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The built-in rules (rules.yaml's checks: section, which builtin_rules.go
// holds as Go data) list exactly the registry's checks, at their default
// severities, in the registry's order.
func TestRulesFileChecks(t *testing.T) {
	builtin := slotlint.Builtin().Checks
	for _, c := range checks.All() {
		if sev, ok := builtin[c.Name]; !ok {
			t.Errorf("rules.yaml checks: has no %s; add it with severity %s", c.Name, c.Severity)
		} else if string(sev) != string(c.Severity) {
			t.Errorf("rules.yaml checks: %s is %s, the registry's default is %s", c.Name, sev, c.Severity)
		}
	}
	for name := range builtin {
		if _, ok := checks.Lookup(name); !ok {
			t.Errorf("rules.yaml checks: %s is not in the registry, package checks", name)
		}
	}
	// The text of the section: each check's description as its comment,
	// then its name and severity, in the registry's order.
	const file = "../rules.yaml"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(data, []byte("\nchecks:\n"))
	if start < 0 {
		t.Fatalf("%s has no checks: section", file)
	}
	start += len("\nchecks:\n")
	end := bytes.Index(data[start:], []byte("\n\n"))
	if end < 0 {
		t.Fatalf("%s: no blank line after the checks: section", file)
	}
	end += start + 1
	want := rulesSection()
	if got := string(data[start:end]); got != want {
		if *update {
			out := slices.Concat(data[:start], []byte(want), data[end:])
			if err := os.WriteFile(file, out, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s rewritten; run go generate at the root for builtin_rules.go", file)
		} else {
			t.Errorf("%s's checks: section is\n%s\nthe registry's is\n%s\nrun go test ./checks -run TestRulesFileChecks -update, then go generate", file, got, want)
		}
	}
}

// rulesSection returns the body of rules.yaml's checks: section: each
// check's description as a comment, wrapped at 78 columns, then the check
// and its default severity.
func rulesSection() string {
	var b strings.Builder
	for _, c := range checks.All() {
		line := "  #"
		for _, word := range strings.Fields(c.Description) {
			if len(line)+1+len(word) > 78 && line != "  #" {
				b.WriteString(line + "\n")
				line = "  #"
			}
			line += " " + word
		}
		b.WriteString(line + "\n")
		fmt.Fprintf(&b, "  %s: %s\n", c.Name, c.Severity)
	}
	return b.String()
}

// luacheck's categories are the registry's names.
func TestLuacheckCategories(t *testing.T) {
	for cat, want := range map[string]string{
		luacheck.CategorySyntax:         checks.LuaSyntax,
		luacheck.CategoryUndeclaredKey:  checks.UndeclaredKey,
		luacheck.CategoryArity:          checks.ScriptArity,
		luacheck.CategoryFlags:          checks.ScriptFlags,
		luacheck.CategoryCrossSlot:      checks.CrossSlot,
		luacheck.CategoryMaybeCrossSlot: checks.MaybeCrossSlot,
	} {
		if cat != want {
			t.Errorf("luacheck category %q, want %q", cat, want)
		}
	}
}

// The README's table of checks is checks.Markdown("docs/checks/"), and
// every check's anchor is a heading of docs/checking.md or the README. go test ./checks -run TestREADME
// -update rewrites the table.
func TestREADME(t *testing.T) {
	const file = "../README.md"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(data, []byte("\n| check | family |"))
	if start < 0 {
		t.Fatalf("%s has no table of checks (a line starting \"| check | family |\")", file)
	}
	start++
	end := start
	for end < len(data) && data[end] == '|' {
		nl := bytes.IndexByte(data[end:], '\n')
		if nl < 0 {
			end = len(data)
			break
		}
		end += nl + 1
	}
	want := checks.Markdown("docs/checks/")
	if got := string(data[start:end]); got != want {
		if *update {
			out := slices.Concat(data[:start], []byte(want), data[end:])
			if err := os.WriteFile(file, out, 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Errorf("%s's table of checks is\n%s\nthe registry's is\n%s\nrun go test ./checks -run TestREADME -update", file, got, want)
		}
	}
	// A check's anchor is a heading of docs/checking.md, or of the README
	// (ignore-directive's, "Suppressing a finding").
	guide, err := os.ReadFile("../docs/checking.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, text := range []string{string(data), string(guide)} {
		for line := range strings.Lines(text) {
			if strings.HasPrefix(line, "#") {
				anchors[slug(strings.TrimLeft(strings.TrimSpace(line), "# "))] = true
			}
		}
	}
	for _, c := range checks.All() {
		if !anchors[c.Anchor] {
			t.Errorf("check %s: neither %s nor docs/checking.md has a heading with anchor #%s", c.Name, file, c.Anchor)
		}
	}
}

// slug is the anchor GitHub gives a heading: lower case, punctuation other
// than hyphens and underscores dropped, spaces made hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Lua scripts: lua-syntax, undeclared-key, script-arity, script-flags": "lua-scripts-lua-syntax-undeclared-key-script-arity-script-flags",
		"Atomicity: the WATCH/MULTI/EXEC mistakes that lose updates":          "atomicity-the-watchmultiexec-mistakes-that-lose-updates",
		"Rules: rules.yaml": "rules-rulesyaml",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	text := checks.Text()
	for _, c := range checks.All() {
		if line := "  " + c.Name + " (" + string(c.Severity) + "): " + c.Doc + "\n"; !strings.Contains(text, line) {
			t.Errorf("Text() has no line %q", line)
		}
	}
	if !strings.HasPrefix(text, "cross-slot family:\n") || !strings.Contains(text, "\n\natomicity family:\n") {
		t.Errorf("Text() does not head each family:\n%s", text)
	}
}

func TestListFlag(t *testing.T) {
	fs := flag.NewFlagSet("slotlint", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	var l checks.List
	fs.Var(&l, "disable", "")
	if err := fs.Parse([]string{"-disable=lost-update, copy-db"}); err != nil {
		t.Fatal(err)
	}
	if !l.Has(checks.LostUpdate) || !l.Has(checks.ClusterDB) || !l.Has("copy-db") || l.Has(checks.CrossSlot) || l.String() != "lost-update,cluster-db" {
		t.Errorf("-disable=lost-update, copy-db gave %q", l.String())
	}
	err := fs.Parse([]string{"-disable=los-update"})
	if err == nil || !strings.Contains(err.Error(), `invalid value "los-update" for flag -disable: unknown check "los-update" (did you mean lost-update?); the checks are `) {
		t.Errorf("-disable=los-update: %v", err)
	}
	if !l.Has(checks.LostUpdate) {
		t.Error("a refused value changed the list")
	}
	if err := l.Set(""); err != nil || l.String() != "" || l.Has(checks.LostUpdate) {
		t.Errorf(`Set(""): %v, list %q`, err, l.String())
	}
	var nilList *checks.List
	if nilList.Has(checks.CrossSlot) || nilList.String() != "" {
		t.Error("a nil List is not empty")
	}
}
