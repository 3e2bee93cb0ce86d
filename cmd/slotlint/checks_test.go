package main

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/checks"
)

// The analyzer's doc, which "slotlint -help" prints, lists every check of
// the registry with its default severity and doc, and says what
// -proven-only does.
func TestAnalyzerDocListsChecks(t *testing.T) {
	doc := analyzer.Analyzer.Doc
	if !strings.Contains(doc, checks.Text()) {
		t.Errorf("the analyzer's doc lacks the registry's list of checks:\n%s\ndoc:\n%s", checks.Text(), doc)
	}
	if !strings.Contains(doc, "-proven-only turns off maybe-cross-slot, and nothing else") {
		t.Errorf("the analyzer's doc does not say what -proven-only does:\n%s", doc)
	}
	if u := analyzerFlag("proven-only").Usage; !strings.HasPrefix(u, "turn off "+checks.MaybeCrossSlot+" and nothing else") {
		t.Errorf("-proven-only's help %q", u)
	}
}

// manyChecks is a package with a finding of most checks, each on a line of
// its own.
const manyChecks = `package many

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Many(ctx context.Context, rdb *redis.Client, c *redis.ClusterClient, a, b string) {
	rdb.Rename(ctx, "tmp:user:1", "user:1")
	rdb.Rename(ctx, "tmp:"+a, "live:"+b)
	c.Copy(ctx, "{c}:a", "{c}:b", 2, false)
	c.Keys(ctx, "user:*")
	rdb.Eval(ctx, "return redis.call('GET', 'other')", []string{"{q}:a"})
	rdb.Eval(ctx, "return redis.call('GET', KEYS[1] .. ':n')", []string{"{q}:b"})
	bal, _ := rdb.Get(ctx, "balance:1").Int()
	rdb.Set(ctx, "balance:1", bal-30, 0)
	//slotlint:ignore
	rdb.Get(ctx, "x")
}
`

// categories runs slotlint -json with the flags on the package and returns
// the categories of its findings, each once.
func categories(t *testing.T, bin, dir string, flags ...string) []string {
	t.Helper()
	r := run(t, dir, offline, bin, append(append([]string{"-json"}, flags...), "./...")...)
	if r.code != 0 {
		t.Fatalf("slotlint -json %s exited %d; stderr:\n%s", strings.Join(flags, " "), r.code, r.stderr)
	}
	var tree jsonTree
	if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
		t.Fatalf("%v; stdout:\n%s", err, r.stdout)
	}
	var diags []jsonDiag
	if raw := tree["example.com/app/many"]["slotlint"]; raw != nil {
		if err := json.Unmarshal(raw, &diags); err != nil {
			t.Fatalf("%v; stdout:\n%s", err, r.stdout)
		}
	}
	set := map[string]bool{}
	for _, d := range diags {
		set[d.Category] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// -proven-only turns off maybe-cross-slot and nothing else; -disable turns
// off the checks it names.
func TestProvenOnlyAndDisable(t *testing.T) {
	bin := slotlintBin(t)
	t.Parallel()
	dir := newModule(t, map[string]string{"many/many.go": manyChecks})
	all := categories(t, bin, dir)
	for _, c := range []string{checks.CrossSlot, checks.MaybeCrossSlot, checks.ClusterDB, checks.KeyspaceWide, checks.UndeclaredKey, checks.UndeclaredKeySameSlot, checks.LostUpdate, checks.IgnoreDirective} {
		if !slices.Contains(all, c) {
			t.Fatalf("the test package has no %s finding; it has %q", c, all)
		}
	}
	without := func(names ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(c string) bool { return slices.Contains(names, c) })
	}
	for _, tc := range []struct {
		flags []string
		want  []string
	}{
		{[]string{"-proven-only"}, without(checks.MaybeCrossSlot)},
		{[]string{"-disable=maybe-cross-slot"}, without(checks.MaybeCrossSlot)},
		{[]string{"-disable= lost-update,copy-db ,"}, without(checks.LostUpdate, checks.ClusterDB)},
		{[]string{"-proven-only", "-disable=ignore-directive,undeclared-key"}, without(checks.MaybeCrossSlot, checks.IgnoreDirective, checks.UndeclaredKey)},
		{[]string{"-disable=undeclared-key-same-slot"}, without(checks.UndeclaredKeySameSlot)},
		{[]string{"-rules-inline=version: 1\nchecks: {undeclared-key-same-slot: off}"}, without(checks.UndeclaredKeySameSlot)},
		{[]string{"-proven-only", "-rules-inline=version: 1\nchecks: {maybe-cross-slot: error}"}, without(checks.MaybeCrossSlot)},
	} {
		if got := categories(t, bin, dir, tc.flags...); !slices.Equal(got, tc.want) {
			t.Errorf("slotlint %q reports %q, want %q", tc.flags, got, tc.want)
		}
	}
}

// -disable with a name that is not a check stops slotlint, standalone and
// under go vet, with an error that names the closest check and lists them
// all.
func TestDisableUnknownCheck(t *testing.T) {
	bin := slotlintBin(t)
	t.Parallel()
	dir := newModule(t, map[string]string{"many/many.go": manyChecks})
	want := `-disable: unknown check "los-update" (did you mean lost-update?); the checks are ` + strings.Join(checks.Names(), ", ")
	r := run(t, dir, offline, bin, "-disable=maybe-cross-slot,los-update", "./...")
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("slotlint -disable=maybe-cross-slot,los-update: exit %d, want 2 and %q; stderr:\n%s", r.code, want, r.stderr)
	}
	r = run(t, dir, offline, "go", "vet", "-vettool="+bin, "-disable=los-update", "./...")
	if r.code == 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("go vet -vettool=slotlint -disable=los-update: exit %d, want %q; stderr:\n%s", r.code, want, r.stderr)
	}
}

// Every category that slotlint reports on the analyzer's test modules is a
// check of the registry, and every check of the registry is reported
// there: no finding comes out under a name that -disable, the rules file,
// the SARIF rules and the README do not know.
func TestCategoriesAreRegistered(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	t.Parallel()
	var mods []string
	err := filepath.WalkDir(filepath.Join(root, "analyzer"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "go.mod" && strings.Contains(filepath.ToSlash(path), "/testdata/") {
			mods = append(mods, filepath.Dir(path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) == 0 {
		t.Fatal("no test module (testdata/go.mod) under analyzer/")
	}
	seen := map[string]string{} // category to a place
	for _, dir := range mods {
		r := run(t, dir, offline, bin, "-json", "./...")
		if r.code != 0 {
			t.Fatalf("slotlint -json ./... in %s exited %d; stderr:\n%s", dir, r.code, r.stderr)
		}
		var tree jsonTree
		if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for pkg, byAnalyzer := range tree {
			var diags []jsonDiag
			if json.Unmarshal(byAnalyzer["slotlint"], &diags) != nil {
				continue // an error, not diagnostics
			}
			for _, d := range diags {
				if _, ok := checks.Lookup(d.Category); !ok {
					t.Errorf("%s: %s: category %q is not a check of package checks", pkg, d.Posn, d.Category)
				}
				seen[d.Category] = d.Posn
			}
		}
	}
	for _, name := range checks.Names() {
		if _, ok := seen[name]; !ok {
			t.Errorf("no test module under analyzer/ has a %s finding", name)
		}
	}
}

// Every check of the registry has a row in slotlint -list-checks, with its
// default severity, and a page that slotlint -explain prints: the page of
// docs/checks, which the analyzer's TestCheckFolders keeps up to date. A
// name that is not a check is refused with the list of checks.
func TestListChecksAndExplain(t *testing.T) {
	bin := slotlintBin(t)
	t.Parallel()
	r := run(t, ".", nil, bin, "-list-checks")
	if r.code != 0 {
		t.Fatalf("slotlint -list-checks: exit %d\n%s", r.code, r.stderr)
	}
	rows := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(rows) != len(checks.All()) {
		t.Errorf("slotlint -list-checks prints %d rows for %d checks:\n%s", len(rows), len(checks.All()), r.stdout)
	}
	for i, c := range checks.All() {
		if i >= len(rows) || !slices.Equal(strings.Fields(rows[i])[:2], []string{c.Name, string(c.Severity)}) || !strings.HasSuffix(rows[i], c.Doc) {
			t.Errorf("slotlint -list-checks has no row %d for %s (%s): %s", i+1, c.Name, c.Severity, c.Doc)
		}
		page, err := os.ReadFile(filepath.Join("..", "..", "docs", "checks", c.Name+".md"))
		if err != nil {
			t.Errorf("check %s: %v", c.Name, err)
			continue
		}
		for _, args := range [][]string{{"-explain", c.Name}, {"-explain=" + c.Name}} {
			r := run(t, ".", nil, bin, args...)
			if r.code != 0 || !strings.HasPrefix(r.stdout, "# "+c.Name+"\n") || !strings.HasSuffix(string(page), r.stdout) {
				t.Errorf("slotlint %s: exit %d, does not print docs/checks/%s.md:\n%s%s", strings.Join(args, " "), r.code, c.Name, r.stdout, r.stderr)
			}
		}
	}
	r = run(t, ".", nil, bin, "-explain", "los-update")
	if want := `-explain: unknown check "los-update" (did you mean lost-update?)`; r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("slotlint -explain los-update: exit %d, want 2 and %q; stderr:\n%s", r.code, want, r.stderr)
	}
}
