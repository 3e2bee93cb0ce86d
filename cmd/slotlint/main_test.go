package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// binDir holds the slotlint binary that the tests run, built once per test
// binary by slotlintBin.
var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "slotlint-cmd-test-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	// The standalone runs cache their results here, not in the user's
	// cache.
	os.Setenv("SLOTLINT_CACHE", filepath.Join(dir, "cache"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var build struct {
	once sync.Once
	path string
	err  error
}

// slotlintBin returns the path of the slotlint binary, building it on first
// use.
func slotlintBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs slotlint on packages that import go-redis")
	}
	build.once.Do(func() {
		build.path = filepath.Join(binDir, "slotlint")
		out, err := exec.Command("go", "build", "-o", build.path, ".").CombinedOutput()
		if err != nil {
			build.err = errors.New(string(out))
		}
	})
	if build.err != nil {
		t.Fatalf("building slotlint: %v", build.err)
	}
	return build.path
}

// repoRootDir is the root of the slotlint module, where testdata/demo is.
func repoRootDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs a command in dir and returns its output and exit code.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
		}
		code = ee.ExitCode()
	}
	return result{stdout.String(), stderr.String(), code}
}

// demoFindings are findings that slotlint reports on the demo, as the
// text output prints them, file names relative to the module root.
var demoFindings = []string{
	`testdata/demo/queue/queue.go:63:9: LMOVE keys "emq:{<q.name>}:pending" (hashtag "{<q.name>}") and "emq:{<to.name>}:pending" (hashtag "{<to.name>}") may hash to different slots`,
	`testdata/demo/shop/shop.go:23:9: RENAME keys "tmp:user:<uid>:cache" (no hashtag) and "user:<uid>:cache" (no hashtag) may hash to different slots`,
	`testdata/demo/shop/shop.go:32:9: RENAME keys "tmp:user:123:cache" (slot 4489) and "user:123:cache" (slot 7641) hash to different slots`,
	`testdata/demo/shop/shop.go:38:9: WATCH transaction keys "inventory:sku123" (slot 5242) and "order:456:status" (slot 9813) hash to different slots`,
}

// wantFindings checks that out holds each finding, at the start of a line
// after the directory root.
func wantFindings(t *testing.T, out, root string, findings []string) {
	t.Helper()
	for _, f := range findings {
		if !strings.Contains(out, root+string(filepath.Separator)+f) {
			t.Errorf("output lacks finding\n\t%s\noutput:\n%s", f, out)
		}
	}
}

func TestStandaloneDemo(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	t.Parallel()
	r := run(t, root, nil, bin, "./testdata/demo/...")
	if r.code != 3 {
		t.Fatalf("slotlint ./testdata/demo/... exited %d, want 3; stderr:\n%s", r.code, r.stderr)
	}
	wantFindings(t, r.stderr, root, demoFindings)
	if r.stdout != "" {
		t.Errorf("text output on stdout:\n%s", r.stdout)
	}
}

// jsonTree is x/tools' -json output: package path, then analyzer name, then
// the diagnostics or an error.
type jsonTree map[string]map[string]json.RawMessage

type jsonDiag struct {
	Category string `json:"category"`
	Posn     string `json:"posn"`
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
}

func TestJSON(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	t.Parallel()
	for _, args := range [][]string{
		{bin, "-json", "./testdata/demo/..."},
		{bin, "-format=json", "./testdata/demo/shop"},
	} {
		r := run(t, root, nil, args[0], args[1:]...)
		if r.code != 0 {
			t.Fatalf("%s exited %d, want 0 (findings do not fail -json); stderr:\n%s", args, r.code, r.stderr)
		}
		var tree jsonTree
		if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
			t.Fatalf("%s: %v; stdout:\n%s", args, err, r.stdout)
		}
		// Key templates read as they are: {<uid>}, not {\u003cuid\u003e}.
		if !strings.Contains(r.stdout, `tmp:user:<uid>:cache`) || strings.Contains(r.stdout, `\u003c`) {
			t.Errorf("%s: the JSON escapes < and > in key templates:\n%s", args, r.stdout)
		}
		var diags []jsonDiag
		if err := json.Unmarshal(tree["github.com/slotlint/slotlint/testdata/demo/shop"]["slotlint"], &diags); err != nil {
			t.Fatalf("%s: the shop package's diagnostics: %v; stdout:\n%s", args, err, r.stdout)
		}
		var got []string
		for _, d := range diags {
			got = append(got, d.Category+" "+strings.TrimPrefix(d.Posn, root+string(filepath.Separator)))
		}
		for _, want := range []string{
			"maybe-cross-slot testdata/demo/shop/shop.go:23:9",
			"cross-slot testdata/demo/shop/shop.go:32:9",
			"cross-slot testdata/demo/shop/shop.go:38:9",
		} {
			if !slices.Contains(got, want) {
				t.Errorf("%s: shop lacks %s; it has %q", args, want, got)
			}
		}
	}
}

func TestGoVet(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	t.Parallel()
	r := run(t, root, nil, "go", "vet", "-vettool="+bin, "./testdata/demo/...")
	if r.code == 0 {
		t.Fatalf("go vet -vettool=slotlint ./testdata/demo/... succeeded; want findings; stderr:\n%s", r.stderr)
	}
	// go vet prints file names relative to the current directory.
	for _, f := range demoFindings {
		if !strings.Contains(r.stderr, f) {
			t.Errorf("go vet output lacks\n\t%s\nstderr:\n%s", f, r.stderr)
		}
	}
}

func TestBadRules(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		want       string // the message's first line, after the file name
	}{
		{"unknown-check.yaml", "version: 1\nchecks:\n  no-such-check: off\n", `:3:3: unknown check "no-such-check"`},
		{"syntax.yaml", "version: 1\nchecks: {cross-slot: error\n", `:2:10: invalid YAML`},
		{"severity.yaml", "version: 1\nchecks:\n  cross-slot: loud\n", `:3:15: severity "loud" for check "cross-slot" is not one of error, warning, off`},
	} {
		file := filepath.Join(dir, tc.name)
		if err := os.WriteFile(file, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"-rules=" + file},
			{"-format=sarif", "-rules=" + file},
			{"-rules-inline=" + tc.text},
		} {
			name := file
			if strings.HasPrefix(args[0], "-rules-inline") {
				name = "rules-inline"
			}
			r := run(t, root, nil, bin, append(args, "./testdata/demo/...")...)
			if r.code != 1 {
				t.Errorf("slotlint %s: exit %d, want 1; stderr:\n%s", args, r.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if !strings.HasPrefix(lines[0], name+tc.want) {
				t.Errorf("slotlint %s: stderr starts\n\t%s\nwant\n\t%s...", args, lines[0], name+tc.want)
			}
			if len(lines) != 1 {
				t.Errorf("slotlint %s: %d lines on stderr, want the fault alone:\n%s", args, len(lines), r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("slotlint %s: stdout:\n%s", args, r.stdout)
			}
		}
	}
	r := run(t, root, nil, bin, "-rules="+filepath.Join(dir, "none.yaml"), "./testdata/demo/...")
	if r.code != 1 || !strings.Contains(r.stderr, "none.yaml: no such file") {
		t.Errorf("a missing rules file: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	r = run(t, root, nil, bin, "-rules="+filepath.Join(dir, "syntax.yaml"), "-rules-inline=version: 1", "./testdata/demo/...")
	if r.code != 1 || !strings.Contains(r.stderr, "not both") {
		t.Errorf("-rules and -rules-inline: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

func TestCleanPackage(t *testing.T) {
	bin := slotlintBin(t)
	t.Parallel()
	dir := newModule(t, map[string]string{
		"good/good.go": goodGo,
	})
	r := run(t, dir, offline, bin, "./...")
	if r.code != 0 || r.stderr != "" || r.stdout != "" {
		t.Fatalf("slotlint on a clean package: exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, dir, offline, bin, "-format=sarif", "./...")
	if r.code != 0 {
		t.Fatalf("slotlint -format=sarif on a clean package: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatal(err)
	}
	if n := len(log.Runs[0].Results); n != 0 || !log.Runs[0].Invocations[0].ExecutionSuccessful {
		t.Errorf("SARIF of a clean package: %d results, invocation %+v", n, log.Runs[0].Invocations)
	}
}

// The packages of the test modules.
const (
	goodGo = `package good

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Move moves a job between the queues of one tenant, whose hashtag the keys share.
func Move(ctx context.Context, rdb redis.UniversalClient, tenant string) error {
	return rdb.LMove(ctx, "{"+tenant+"}:pending", "{"+tenant+"}:active", "LEFT", "RIGHT").Err()
}
`
	badGo = `package bad

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Swap renames a key to another that need not share its slot.
func Swap(ctx context.Context, rdb redis.UniversalClient, a, b string) error {
	return rdb.Rename(ctx, "tmp:"+a, "live:"+b).Err()
}
`
)

// offline keeps the go command from the network: the test modules need
// only what the slotlint module needs, which is in the module cache.
var offline = []string{"GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off"}

// newModule writes a module that requires what the slotlint module does,
// with the files given, and returns its directory.
func newModule(t *testing.T, files map[string]string) string {
	t.Helper()
	root := repoRootDir(t)
	dir := t.TempDir()
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gomod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(gomod, []byte("module example.com/app"))
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.mod"], files["go.sum"] = string(gomod), string(gosum)
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDriverFlags(t *testing.T) {
	bin := slotlintBin(t)
	r := run(t, ".", nil, bin, "-flags")
	var flags []struct {
		Name string
		Bool bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &flags); err != nil {
		t.Fatalf("slotlint -flags: %v; stdout:\n%s", err, r.stdout)
	}
	for _, f := range flags {
		if f.Name == "format" {
			if f.Bool {
				t.Errorf("-format is boolean")
			}
			continue
		}
		if isBool, ok := driverFlags[f.Name]; ok {
			if isBool != f.Bool {
				t.Errorf("driverFlags[%q] = %v; slotlint -flags says %v", f.Name, isBool, f.Bool)
			}
			continue
		}
		if af := analyzerFlag(f.Name); af == nil {
			t.Errorf("slotlint -flags lists -%s, which driverFlags lacks: parseArgs would take what follows it for a package", f.Name)
		}
	}
}
