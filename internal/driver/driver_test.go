package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/testmod"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// sharedCache is one cache for the tests of this package: packages of the
// standard library and go-redis analysed by one test are read from it by
// the next, as they are between runs of slotlint on different modules.
var sharedCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "slotlint-driver-test-")
	if err != nil {
		panic(err)
	}
	sharedCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// checkerRun is the driver that slotlint had before this one, x/tools'
// checker over go/packages, as singlechecker runs it: every package's
// syntax and types at once, nothing cached. The tests compare the two.
func checkerRun(t *testing.T, a *analysis.Analyzer, dir string, env []string, tests bool, patterns ...string) (text, js []byte) {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: tests, Dir: dir, Env: env}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d errors loading %s", n, patterns)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tb, jb bytes.Buffer
	if err := graph.PrintText(&tb, -1); err != nil {
		t.Fatal(err)
	}
	if err := graph.PrintJSON(&jb); err != nil {
		t.Fatal(err)
	}
	return tb.Bytes(), jb.Bytes()
}

// driverRun runs this package's driver and returns its text and JSON
// output.
func driverRun(t *testing.T, cfg *Config, patterns ...string) (res *Result, text, js []byte) {
	t.Helper()
	res, err := Run(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	var tb, jb bytes.Buffer
	if err := res.PrintText(&tb, cfg.Analyzer, -1); err != nil {
		t.Fatal(err)
	}
	if err := res.PrintJSON(&jb, cfg.Analyzer); err != nil {
		t.Fatal(err)
	}
	return res, tb.Bytes(), jb.Bytes()
}

// sameOutput checks that two runs printed the same findings: the same
// lines of text, in any order, and the same JSON tree.
func sameOutput(t *testing.T, what string, wantText, wantJSON, gotText, gotJSON []byte) {
	t.Helper()
	lines := func(b []byte) []string {
		l := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		slices.Sort(l)
		return l
	}
	if w, g := lines(wantText), lines(gotText); !slices.Equal(w, g) {
		t.Errorf("%s: text output differs\nwant (%d lines):\n%s\ngot (%d lines):\n%s", what, len(w), strings.Join(w, "\n"), len(g), strings.Join(g, "\n"))
	}
	var w, g any
	if err := json.Unmarshal(wantJSON, &w); err != nil {
		t.Fatalf("%s: checker JSON: %v", what, err)
	}
	if err := json.Unmarshal(gotJSON, &g); err != nil {
		t.Fatalf("%s: driver JSON: %v\n%s", what, err, gotJSON)
	}
	// The analyzer reports a package's findings in an order that may
	// change from run to run; the driver sorts them by position.
	if !reflect.DeepEqual(sortLists(w), sortLists(g)) {
		t.Errorf("%s: JSON output differs\nwant:\n%s\ngot:\n%s", what, wantJSON, gotJSON)
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// compare runs both drivers on the patterns, with and without tests, and
// checks that they agree; the second run of this driver reads the cache.
func compare(t *testing.T, dir string, env []string, modes []bool, patterns ...string) {
	found := false
	for _, tests := range modes {
		what := fmt.Sprintf("%s (tests %v)", patterns, tests)
		wantText, wantJSON := checkerRun(t, analyzer.Analyzer, dir, env, tests, patterns...)
		found = found || len(bytes.TrimSpace(wantText)) > 0
		cfg := &Config{Analyzer: analyzer.Analyzer, Dir: dir, Env: env, Tests: tests, CacheDir: sharedCache}
		cold, gotText, gotJSON := driverRun(t, cfg, patterns...)
		if cold.Analysed == 0 {
			t.Errorf("%s: the first run read every package from the cache", what)
		}
		sameOutput(t, what+", cold", wantText, wantJSON, gotText, gotJSON)
		if len(cold.Failures) > 0 {
			t.Errorf("%s: failures: %q", what, cold.Failures)
		}
		warm, warmText, warmJSON := driverRun(t, cfg, patterns...)
		if warm.Analysed != 0 || warm.Cached != cold.Analysed+cold.Cached {
			t.Errorf("%s: warm run analysed %d packages and read %d from the cache; want 0 and %d", what, warm.Analysed, warm.Cached, cold.Analysed+cold.Cached)
		}
		if !bytes.Equal(warmText, gotText) || !bytes.Equal(warmJSON, gotJSON) {
			t.Errorf("%s: the warm run printed\n%s\nthe cold one\n%s", what, warmText, gotText)
		}
		t.Logf("%s: %d packages analysed, then %d read from the cache; %d lines of findings", what, cold.Analysed, warm.Cached, bytes.Count(gotText, []byte("\n")))
	}
	if !found {
		t.Errorf("%s: the checker found nothing; the comparison proves little", patterns)
	}
}

func TestSameAsCheckerDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the demo and its dependencies twice")
	}
	compare(t, repoRoot(t), nil, []bool{false, true}, "./testdata/demo/...")
}

func TestSameAsCheckerAnalyzerTestdata(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the analyzer's testdata module and its dependencies twice")
	}
	dir := filepath.Join(repoRoot(t), "analyzer", "testdata")
	testmod.Require(t, dir)
	compare(t, dir, append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off"), []bool{true}, "./...")
}

// TestSameAsCheckerGoRedis compares the drivers on go-redis v9 and its
// tests, fetched through the module proxy into a new module.
func TestSameAsCheckerGoRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches go-redis and analyses it, its tests and its dependencies")
	}
	proxy := "https://proxy.golang.org"
	if out, err := exec.Command("go", "env", "GOPROXY").Output(); err == nil {
		first, _, _ := strings.Cut(strings.TrimSpace(string(out)), ",")
		if strings.HasPrefix(first, "http") {
			proxy = first
		}
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(strings.TrimSuffix(proxy, "/") + "/github.com/redis/go-redis/v9/@v/v9.23.0.info")
	if err != nil {
		t.Skipf("the module proxy is unreachable: %v", err)
	}
	resp.Body.Close()
	dir := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	for _, args := range [][]string{
		{"mod", "init", "slotlint.test/gored"},
		{"get", "-t", "github.com/redis/go-redis/v9/...@v9.23.0"},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	compare(t, dir, env, []bool{true}, "github.com/redis/go-redis/v9/...")
}

// sortLists sorts the diagnostics of each package and analyzer of a JSON
// tree.
func sortLists(tree any) any {
	for _, byAnalyzer := range tree.(map[string]any) {
		for name, v := range byAnalyzer.(map[string]any) {
			if list, ok := v.([]any); ok {
				slices.SortFunc(list, func(a, b any) int {
					ja, _ := json.Marshal(a)
					jb, _ := json.Marshal(b)
					return strings.Compare(string(ja), string(jb))
				})
				byAnalyzer.(map[string]any)[name] = list
			}
		}
	}
	return tree
}

// newModule writes a module that requires what the slotlint module does,
// with the files given, and returns its directory and the environment that
// keeps the go command off the network.
func newModule(t *testing.T, files map[string]string) (string, []string) {
	t.Helper()
	root := repoRoot(t)
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "go.mod" {
			data = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(data, []byte("module example.com/app"))
		}
		files[name] = string(data)
	}
	for name, text := range files {
		writeFile(t, filepath.Join(dir, name), text)
	}
	return dir, append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	keysGo = `package keys

// Tmp is the key of a user's temporary copy.
func Tmp(id string) string { return "tmp:" + id }
`
	keysFixedGo = `package keys

// Tmp is the key of a user's temporary copy, in the user's slot.
func Tmp(id string) string { return "{" + id + "}:tmp" }
`
	appGo = `package app

import (
	"context"

	"example.com/app/keys"
	"github.com/redis/go-redis/v9"
)

// Publish replaces a user's live copy with the temporary one.
func Publish(ctx context.Context, rdb redis.UniversalClient, id string) error {
	return rdb.Rename(ctx, keys.Tmp(id), "{"+id+"}:live").Err()
}
`
	otherGo = `package other

// Name has nothing to do with Redis.
func Name() string { return "other" }
`
)

// TestCacheFollowsChanges edits a key helper in one package: the next run
// analyses that package and the one that imports it, reads the others
// from the cache, and prints what a run without the cache prints.
func TestCacheFollowsChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses go-redis and its dependencies")
	}
	dir, env := newModule(t, map[string]string{
		"keys/keys.go":   keysGo,
		"app/app.go":     appGo,
		"other/other.go": otherGo,
	})
	cfg := &Config{Analyzer: analyzer.Analyzer, Dir: dir, Env: env, Tests: true, CacheDir: sharedCache}
	cold, coldText, _ := driverRun(t, cfg, "./...")
	if !strings.Contains(string(coldText), `RENAME keys "tmp:<id>"`) {
		t.Fatalf("the first run lacks the RENAME finding:\n%s", coldText)
	}
	writeFile(t, filepath.Join(dir, "keys", "keys.go"), keysFixedGo)
	warm, warmText, warmJSON := driverRun(t, cfg, "./...")
	if all := cold.Analysed + cold.Cached; warm.Analysed != 2 || warm.Cached != all-2 {
		t.Errorf("after editing keys.go: %d packages analysed, %d read from the cache; want 2 (keys, app) and %d", warm.Analysed, warm.Cached, all-2)
	}
	fresh := *cfg
	fresh.CacheDir = ""
	_, freshText, freshJSON := driverRun(t, &fresh, "./...")
	if !bytes.Equal(warmText, freshText) || !bytes.Equal(warmJSON, freshJSON) {
		t.Errorf("after editing keys.go, the run with the cache printed\n%s\nthe run without it\n%s", warmText, freshText)
	}
	if bytes.Equal(warmText, coldText) {
		t.Errorf("the findings did not change with keys.go:\n%s", warmText)
	}
	// Entries that do not read are misses, analysed again.
	own := *cfg
	own.CacheDir = t.TempDir()
	cfg = &own
	driverRun(t, cfg, "./...")
	entries, err := filepath.Glob(filepath.Join(cfg.CacheDir, "*", "*-slotlint"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no cache entries in %s: %v", cfg.CacheDir, err)
	}
	for _, e := range entries {
		writeFile(t, e, "not an entry")
	}
	res, text, _ := driverRun(t, cfg, "./...")
	if res.Cached != 0 || len(res.Failures) > 0 || !bytes.Equal(text, freshText) {
		t.Errorf("with broken entries: %d packages read from the cache, failures %q, output\n%s", res.Cached, res.Failures, text)
	}
	// Other rules are another key: nothing comes from the cache.
	salted := *cfg
	salted.Salt = []byte("-proven-only=true")
	if res, _, _ := driverRun(t, &salted, "./..."); res.Cached != 0 {
		t.Errorf("with another salt, %d packages came from the cache", res.Cached)
	}
}

// TestBrokenPackage: a package that does not type-check is one line, and
// the others are analysed.
func TestBrokenPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses go-redis and its dependencies")
	}
	dir, env := newModule(t, map[string]string{
		"keys/keys.go":        keysGo,
		"app/app.go":          appGo,
		"broken/broken.go":    "package broken\n\nfunc F() int { return \"x\" }\n",
		"user/user.go":        "package user\n\nimport \"example.com/app/broken\"\n\nvar N = broken.F()\n",
		"syntax/syntax.go":    "package syntax\n\nfunc F( {\n",
		"other/other.go":      otherGo,
		"other/other_test.go": "package other\n\nimport \"testing\"\n\nfunc TestName(t *testing.T) { _ = Name() }\n",
	})
	// Without the cache, then twice with it: failures are not cached.
	for i, cache := range []string{"", sharedCache, sharedCache} {
		cfg := &Config{Analyzer: analyzer.Analyzer, Dir: dir, Env: env, Tests: true, CacheDir: cache}
		{
			res, text, _ := driverRun(t, cfg, "./...")
			if !strings.Contains(string(text), `RENAME keys "tmp:<id>"`) {
				t.Errorf("the app package's finding is missing:\n%s", text)
			}
			var got []string
			for _, f := range res.Failures {
				pkg, _, _ := strings.Cut(f, ": ")
				got = append(got, pkg)
			}
			want := []string{"example.com/app/broken", "example.com/app/syntax", "example.com/app/user"}
			if slices.Sort(got); !slices.Equal(got, want) {
				t.Errorf("failures %q; want one line for each of %q", res.Failures, want)
			}
			for _, f := range res.Failures {
				if strings.Contains(f, "\n") {
					t.Errorf("a failure of more than one line: %q", f)
				}
			}
			if i == 2 && res.Analysed != 0 {
				t.Errorf("the second run with the cache analysed %d packages", res.Analysed)
			}
		}
	}
}

// constFact is the fact that a function returns one constant string.
type constFact struct{ Value string }

func (*constFact) AFact()           {}
func (f *constFact) String() string { return "const " + f.Value }

// countFact is the package fact of how many such functions a package has.
type countFact struct{ N int }

func (*countFact) AFact()           {}
func (f *countFact) String() string { return fmt.Sprint(f.N) }

// constFunc is an analyzer with object and package facts that requires
// another analyzer, inspect, and uses its result: the shape the driver
// must run like x/tools' checker does.
var constFunc = &analysis.Analyzer{
	Name:      "constfunc",
	Doc:       "report calls of functions of other packages that return a constant string",
	Requires:  []*analysis.Analyzer{inspect.Analyzer},
	FactTypes: []analysis.Fact{new(constFact), new(countFact)},
	Run: func(pass *analysis.Pass) (any, error) {
		in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		n := 0
		in.Preorder([]ast.Node{(*ast.FuncDecl)(nil)}, func(node ast.Node) {
			fd := node.(*ast.FuncDecl)
			if fd.Body == nil || len(fd.Body.List) != 1 {
				return
			}
			ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				return
			}
			if tv := pass.TypesInfo.Types[ret.Results[0]]; tv.Value != nil && tv.Value.Kind() == constant.String {
				pass.ExportObjectFact(pass.TypesInfo.Defs[fd.Name], &constFact{constant.StringVal(tv.Value)})
				n++
			}
		})
		pass.ExportPackageFact(&countFact{n})
		in.Preorder([]ast.Node{(*ast.CallExpr)(nil), (*ast.ImportSpec)(nil)}, func(node ast.Node) {
			switch node := node.(type) {
			case *ast.CallExpr:
				fn := typeutil.StaticCallee(pass.TypesInfo, node)
				var f constFact
				if fn != nil && fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn, &f) {
					pass.Reportf(node.Pos(), "%s.%s returns %q", fn.Pkg().Name(), fn.Name(), f.Value)
				}
			case *ast.ImportSpec:
				if pkg, ok := pass.TypesInfo.Implicits[node].(*types.PkgName); ok {
					var c countFact
					if pass.ImportPackageFact(pkg.Imported(), &c) && c.N > 0 {
						pass.Reportf(node.Pos(), "%s has %d constant functions", pkg.Imported().Path(), c.N)
					}
				}
			}
		})
		return nil, nil
	},
}

// TestRequiresAndFacts runs an analyzer with object and package facts and
// a required analyzer through both drivers: the facts cross packages,
// directly and through another package, from export data and from the
// cache.
func TestRequiresAndFacts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":      "module example.com/facts\n\ngo 1.26\n",
		"a/a.go":      "package a\n\nfunc Name() string { return \"alpha\" }\n\nfunc Other() string { return Name() }\n",
		"b/b.go":      "package b\n\nimport \"example.com/facts/a\"\n\nfunc Both() string { return \"beta\" }\n\nvar X = a.Name()\n",
		"c/c.go":      "package c\n\nimport (\n\t\"strings\"\n\n\t\"example.com/facts/a\"\n\t\"example.com/facts/b\"\n)\n\nvar Y = strings.ToUpper(a.Name() + b.Both())\n",
		"c/c_test.go": "package c\n\nimport (\n\t\"testing\"\n\n\t\"example.com/facts/b\"\n)\n\nfunc TestY(t *testing.T) { _ = b.Both() }\n",
	} {
		writeFile(t, filepath.Join(dir, name), text)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	wantText, wantJSON := checkerRun(t, constFunc, dir, env, true, "./...")
	for _, want := range []string{`a.Name returns "alpha"`, `b.Both returns "beta"`, `example.com/facts/a has 1 constant functions`} {
		if !strings.Contains(string(wantText), want) {
			t.Fatalf("the checker's output lacks %s:\n%s", want, wantText)
		}
	}
	cfg := &Config{Analyzer: constFunc, Dir: dir, Env: env, Tests: true, CacheDir: t.TempDir()}
	for _, run := range []string{"cold", "warm"} {
		res, gotText, gotJSON := driverRun(t, cfg, "./...")
		sameOutput(t, run, wantText, wantJSON, gotText, gotJSON)
		if run == "warm" && res.Analysed != 0 {
			t.Errorf("the warm run analysed %d packages", res.Analysed)
		}
	}

	// Trimming: entries unused for a week go, the ones a run reads stay.
	entries, _ := filepath.Glob(filepath.Join(cfg.CacheDir, "*", "*-slotlint"))
	if len(entries) == 0 {
		t.Fatal("no cache entries")
	}
	old := time.Now().Add(-8 * 24 * time.Hour)
	unused := filepath.Join(cfg.CacheDir, "00", strings.Repeat("0", 64)+"-slotlint")
	writeFile(t, unused, "an entry of a package no longer analysed")
	for _, e := range append(entries, unused) {
		if err := os.Chtimes(e, old, old); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(cfg.CacheDir, "trim.txt"))
	if res, _, _ := driverRun(t, cfg, "./..."); res.Analysed != 0 {
		t.Errorf("with week-old entries, %d packages analysed", res.Analysed)
	}
	if _, err := os.Stat(unused); !os.IsNotExist(err) {
		t.Errorf("the unused week-old entry is still there: %v", err)
	}
	for _, e := range entries {
		if _, err := os.Stat(e); err != nil {
			t.Errorf("an entry that the run read is gone: %v", err)
		}
	}
}
