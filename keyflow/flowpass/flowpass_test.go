package flowpass_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/keymap"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/packages"
)

// TestMain makes the test binary the multichecker of slotlint's checks and
// the keyspace map when TestTogether runs it so.
func TestMain(m *testing.M) {
	if os.Getenv("SLOTLINT_TEST_MULTICHECKER") == "1" {
		multichecker.Main(analyzer.Analyzer, keymap.Analyzer)
		return
	}
	os.Exit(m.Run())
}

// demo is testdata/demo, loaded with its dependencies' syntax, and the
// module's root, where it is.
type demo struct {
	root string
	pkgs []*packages.Package
}

func loadDemo(t *testing.T) demo {
	if testing.Short() {
		t.Skip("loads go-redis")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: root}, "./testdata/demo/...")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("testdata/demo does not load: %v", err)
	}
	return demo{root, pkgs}
}

// analyze runs analyzers over the demo in one checker and returns, for
// each, the text of its findings and its results by package.
func (d demo) analyze(t *testing.T, analyzers ...*analysis.Analyzer) (map[string][]string, map[string]map[string]any) {
	t.Helper()
	g, err := checker.Analyze(analyzers, d.pkgs, &checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	diags := map[string][]string{}
	results := map[string]map[string]any{}
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		name := act.Analyzer.Name
		for _, d := range act.Diagnostics {
			diags[name] = append(diags[name], fmt.Sprintf("%s: %s", act.Package.Fset.Position(d.Pos), d.Message))
		}
		if results[name] == nil {
			results[name] = map[string]any{}
		}
		results[name][act.Package.PkgPath] = act.Result
	}
	for _, ds := range diags {
		slices.Sort(ds)
	}
	return diags, results
}

// TestTogether runs slotlint's checks and the keyspace map in one checker
// over the demo: they share one key-flow model and its facts, and each
// gives what it gives when it runs alone. Then x/tools' multichecker runs
// them, as a program of the user's would.
func TestTogether(t *testing.T) {
	d := loadDemo(t)
	both, bothResults := d.analyze(t, analyzer.Analyzer, keymap.Analyzer)
	alone, _ := d.analyze(t, analyzer.Analyzer)
	_, mapAlone := d.analyze(t, keymap.Analyzer)

	if len(alone["slotlint"]) == 0 {
		t.Fatal("slotlint reports nothing on the demo")
	}
	if !slices.Equal(both["slotlint"], alone["slotlint"]) {
		t.Errorf("with the map, slotlint reports\n%s\nalone\n%s", strings.Join(both["slotlint"], "\n"), strings.Join(alone["slotlint"], "\n"))
	}
	if len(both["keymap"]) > 0 {
		t.Errorf("the map reports %q", both["keymap"])
	}
	families := 0
	for path, alone := range mapAlone["keymap"] {
		got, want := jsonOf(t, bothResults["keymap"][path]), jsonOf(t, alone)
		if got != want {
			t.Errorf("%s: with the checks, the map's part is\n%s\nalone\n%s", path, got, want)
		}
		if p, ok := alone.(*keymap.Part); ok {
			families += len(p.Families)
		}
	}
	if families == 0 {
		t.Error("the map of the demo has no family")
	}
	runMultichecker(t, d.root, alone["slotlint"])
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// runMultichecker runs x/tools' multichecker with slotlint's checks and the
// keyspace map over the demo, with a flag of each: it finds what the
// checks find alone, the proven ones.
func runMultichecker(t *testing.T, root string, alone []string) {
	cmd := exec.Command(os.Args[0], "-json", "-slotlint.proven-only", "-keymap.rules-inline=version: 1", "./testdata/demo/...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "SLOTLINT_TEST_MULTICHECKER=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("multichecker: %v\n%s", err, out)
	}
	// -json: package, then analyzer, then the findings.
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatalf("multichecker -json: %v\n%s", err, out)
	}
	var got []string
	for _, byAnalyzer := range tree {
		if raw, ok := byAnalyzer["keymap"]; ok {
			t.Errorf("the map reports %s", raw)
		}
		var diags []struct{ Posn, Message string }
		if raw, ok := byAnalyzer["slotlint"]; ok {
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Fatalf("slotlint's findings: %v\n%s", err, raw)
			}
		}
		for _, d := range diags {
			got = append(got, d.Posn+": "+d.Message)
		}
	}
	slices.Sort(got)
	var want []string
	for _, d := range alone {
		if !strings.Contains(d, "may hash to different slots") {
			want = append(want, d) // -proven-only
		}
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("multichecker reports\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
