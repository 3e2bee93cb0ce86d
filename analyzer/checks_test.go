package analyzer_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/checks"
)

var update = flag.Bool("update", false, "rewrite docs/checks from the registry and the check folders")

// TestCheckFolders: every check of the registry has a folder of test data
// named after it, testdata/checks/NAME, with bad.go, whose findings the
// `// want` comments give, and good.go, the same code fixed, which has none.
// These files are the bad and good examples of the check's page
// (docs/checks/NAME.md). A check with no folder, a folder of no check, a
// bad.go with no want, or a good.go with one fails the test.
//
// The folders are analysed in one run, since loading go-redis dominates
// the time, and every finding in a check's folder must be of that check:
// each folder shows its check alone, as with the other checks off.
//
// The pages of docs/checks are made from the registry, these folders and
// the findings of this run: the test fails when one is missing or out of
// date, and -update rewrites them.
func TestCheckFolders(t *testing.T) {
	dir := filepath.Join(testdata(t), "checks")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	folders := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() {
			folders[e.Name()] = true
		}
	}
	want := regexp.MustCompile(`//\s*want\s`)
	for _, c := range checks.All() {
		if !folders[c.Name] {
			t.Errorf("check %s has no folder testdata/checks/%s with bad.go and good.go", c.Name, c.Name)
			continue
		}
		delete(folders, c.Name)
		bad, err := os.ReadFile(filepath.Join(dir, c.Name, "bad.go"))
		if err != nil {
			t.Errorf("check %s: %v", c.Name, err)
		} else if !want.Match(bad) {
			t.Errorf("check %s: bad.go has no // want comment", c.Name)
		}
		good, err := os.ReadFile(filepath.Join(dir, c.Name, "good.go"))
		if err != nil {
			t.Errorf("check %s: %v", c.Name, err)
		} else if want.Match(good) {
			t.Errorf("check %s: good.go has a // want comment; the fixed code has no finding", c.Name)
		}
	}
	for name := range folders {
		t.Errorf("testdata/checks/%s is the folder of no check", name)
	}
	if t.Failed() {
		return
	}
	results := analysistest.Run(t, testdata(t), analyzer.Analyzer, "./checks/...")
	findings := map[string][]string{}
	for _, r := range results {
		name := r.Action.Package.PkgPath[strings.LastIndex(r.Action.Package.PkgPath, "/")+1:]
		fset := r.Action.Package.Fset
		for _, d := range r.Action.Diagnostics {
			if d.Category != name {
				t.Errorf("%s: a %s finding in the folder of %s: %s", fset.Position(d.Pos), d.Category, name, d.Message)
			}
			findings[name] = append(findings[name], findingText(fset, d))
		}
	}
	pages := map[string]string{"README.md": checkIndex()}
	for _, c := range checks.All() {
		pages[c.Name+".md"] = checkPage(t, c, dir, findings[c.Name])
	}
	docs := filepath.Join("..", "docs", "checks")
	if *update {
		if err := os.MkdirAll(docs, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for file, want := range pages {
		path := filepath.Join(docs, file)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("docs/checks/%s is missing or out of date; run go test ./analyzer -run TestCheckFolders -update", file)
		}
	}
	if entries, err := os.ReadDir(docs); err == nil {
		for _, e := range entries {
			if _, ok := pages[e.Name()]; !ok {
				t.Errorf("docs/checks/%s is the page of no check", e.Name())
			}
		}
	}
}

// findingText prints a finding as slotlint's text output does, with the
// file's base name for its path, and its related places below it.
func findingText(fset *token.FileSet, d analysis.Diagnostic) string {
	pos := fset.Position(d.Pos)
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: %s", filepath.Base(pos.Filename), pos.Line, pos.Column, d.Message)
	for _, r := range d.Related {
		rp := fset.Position(r.Pos)
		fmt.Fprintf(&b, "\n%s:%d:%d: \t%s", filepath.Base(rp.Filename), rp.Line, rp.Column, r.Message)
	}
	return b.String()
}

// wantComment is an analysistest expectation at the end of a line.
var wantComment = regexp.MustCompile(`\s*// want .*$`)

// exampleCode is a test file as a page shows it: without its // want
// comments.
func exampleCode(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i, l := range lines {
		lines[i] = wantComment.ReplaceAllString(l, "")
	}
	return strings.Join(lines, "\n")
}

// checkPage is the page of docs/checks for one check.
func checkPage(t *testing.T, c checks.Check, dir string, findings []string) string {
	slices.Sort(findings)
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!-- Generated by go test ./analyzer -run TestCheckFolders -update from package checks and analyzer/testdata/checks/%s. Do not edit. -->\n\n", c.Name)
	fmt.Fprintf(&b, "# %s\n\n", c.Name)
	fmt.Fprintf(&b, "%s.\n\n", strings.ToUpper(c.Doc[:1])+c.Doc[1:])
	fmt.Fprintf(&b, "Default severity: **%s**. Family: %s.\n\n", c.Severity, c.Family)
	fmt.Fprintf(&b, "%s\n\n", c.Description)
	fmt.Fprintf(&b, "## Bad\n\n```go\n%s\n```\n\n", exampleCode(t, filepath.Join(dir, c.Name, "bad.go")))
	fmt.Fprintf(&b, "slotlint reports:\n\n```\n%s\n```\n\n", strings.Join(findings, "\n"))
	fmt.Fprintf(&b, "## Good\n\n```go\n%s\n```\n\n", exampleCode(t, filepath.Join(dir, c.Name, "good.go")))
	b.WriteString("## Turn it off, or change its severity\n\n")
	if c.Name == checks.IgnoreDirective {
		b.WriteString("- for one directive: give it a reason, or remove it;\n")
	} else {
		b.WriteString("- for one finding: `//slotlint:ignore <reason>` at the end of its line or on the line above;\n")
	}
	fmt.Fprintf(&b, "- for a run: `slotlint -disable=%s ./...`;\n", c.Name)
	fmt.Fprintf(&b, "- in a rules file (`slotlint -rules=FILE`): `checks: {%s: off}`, or `warning`, or `error`.\n", c.Name)
	if c.Name == checks.MaybeCrossSlot {
		b.WriteString("\n`slotlint -proven-only` turns this check off and nothing else.\n")
	}
	if c.Anchor != "" {
		doc, link := "docs/checking.md", "../checking.md"
		if c.Name == checks.IgnoreDirective {
			doc, link = "the README", "../../README.md"
		}
		fmt.Fprintf(&b, "\nMore on what the check follows and what it does not see: [%s](%s#%s).\n", doc, link, c.Anchor)
	}
	return b.String()
}

// checkIndex is docs/checks/README.md: the table of checks.
func checkIndex() string {
	var b strings.Builder
	b.WriteString("<!-- Generated by go test ./analyzer -run TestCheckFolders -update from package checks. Do not edit. -->\n\n")
	b.WriteString("# slotlint's checks\n\n")
	b.WriteString("Each page says what a finding means, shows bad code with what slotlint reports for it and the same code fixed, and how to turn the check off. `slotlint -list-checks` lists them, and `slotlint -explain NAME` prints a page.\n\n")
	b.WriteString(checks.Markdown(""))
	return b.String()
}
