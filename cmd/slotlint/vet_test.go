package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/driver"
	"github.com/slotlint/slotlint/internal/jsonout"
	"github.com/slotlint/slotlint/internal/testmod"
)

func analyzerFlag(name string) *flag.Flag { return analyzer.Analyzer.Flags.Lookup(name) }

// allOff is a rules file that turns every check off.
func allOff() string {
	var b strings.Builder
	b.WriteString("version: 1\nchecks:\n")
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for name := range slotlint.Builtin().Checks {
			if !yield(name) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "  %s: off\n", name)
	}
	return b.String()
}

// TestGoVetCache shows why slotlint takes rules under go vet only as
// -rules-inline text: go vet caches a package's result by the vet tool and
// the text of its flags, so a result computed with one rules file is
// replayed after the file changes. With the rules in the flag, a change to
// them is a change to the cache key.
func TestGoVetCache(t *testing.T) {
	bin := slotlintBin(t)
	t.Parallel()
	dir := newModule(t, map[string]string{"bad/bad.go": badGo})
	vet := func(flags ...string) result {
		return run(t, dir, offline, "go", append(append([]string{"vet", "-vettool=" + bin}, flags...), "./...")...)
	}
	const finding = `RENAME keys "tmp:<a>" (hashtag unknown) and "live:<b>" (hashtag unknown) may hash to different slots`

	// Every check off: nothing to report, and go vet caches that.
	off := allOff()
	if r := vet("-rules-inline=" + off); r.code != 0 || r.stderr != "" {
		t.Fatalf("go vet with every check off: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	// The built-in severities: the change of rules reaches slotlint.
	r := vet("-rules-inline=version: 1")
	if r.code == 0 || !strings.Contains(r.stderr, finding) {
		t.Fatalf("go vet with the built-in severities: exit %d, want the finding; stderr:\n%s", r.code, r.stderr)
	}
	// And back again.
	if r := vet("-rules-inline=" + off); r.code != 0 || r.stderr != "" {
		t.Fatalf("go vet with every check off again: exit %d, stderr:\n%s", r.code, r.stderr)
	}

	// A rules file is refused, with what to do instead. (go vet shortens
	// the file's name in the message.)
	file := filepath.Join(t.TempDir(), "slotlint.yaml")
	if err := os.WriteFile(file, []byte(off), 0o644); err != nil {
		t.Fatal(err)
	}
	r = vet("-rules=" + file)
	if r.code == 0 || !strings.Contains(r.stderr, "slotlint: -rules does not work under go vet") ||
		!strings.Contains(r.stderr, `-rules-inline="$(cat `) || !strings.Contains(r.stderr, `slotlint.yaml)"`) {
		t.Fatalf("go vet -rules=FILE: exit %d, want it refused; stderr:\n%s", r.code, r.stderr)
	}
	// Once, for the one package of the module: go vet also runs slotlint on
	// each dependency, for facts, and those runs stay quiet.
	if n := strings.Count(r.stderr, "-rules does not work"); n != 1 {
		t.Errorf("go vet -rules=FILE: the message %d times, want once; stderr:\n%s", n, r.stderr)
	}
	// So is SARIF, which needs the whole program in one process.
	r = vet("-format=sarif")
	if r.code == 0 || !strings.Contains(r.stderr, "-format=sarif needs the whole program") {
		t.Fatalf("go vet -format=sarif: exit %d, want it refused; stderr:\n%s", r.code, r.stderr)
	}
	// A fault in inline rules names the flag and the line and column.
	r = vet("-rules-inline=version: 1\nchecks:\n  no-such-check: off\n")
	if r.code == 0 || !strings.Contains(r.stderr, `rules-inline:3:3: unknown check "no-such-check"`) {
		t.Fatalf("go vet with a bad -rules-inline: exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

// TestVetDriver: under go vet slotlint analyses each package with its own
// driver (driver.Vet), which takes the dependencies' types from the
// compiler's export data and writes facts files without types. Its output
// is that of x/tools' unitchecker, which it replaces: on the analysistest
// packages of every client, whose helpers, wrappers and struct fields reach
// their callers in other packages as facts, in go vet's text and -json
// forms, and on a package that does not type-check.
func TestVetDriver(t *testing.T) {
	bin := slotlintBin(t)
	ref := buildSlotlint(t, "slotlint-unitchecker", "-ldflags=-X main.vetDriver=unitchecker")
	t.Parallel()
	broken := newModule(t, map[string]string{
		"ok/ok.go":       badGo,
		"broken/b.go":    "package broken\n\nimport \"example.com/app/ok\"\n\nvar _ int = ok.Missing\n",
		"syntax/s.go":    "package syntax\n\nfunc f() {\n",
		"clean/clean.go": "package clean\n\nfunc F() string { return \"user:{1}\" }\n",
	})
	cases := []struct {
		name, dir string
		flags     []string
		findings  int // at least this many lines of output
	}{
		{"analyzer testdata", filepath.Join(repoRootDir(t), "analyzer", "testdata"), nil, 300},
		{"analyzer testdata -json", filepath.Join(repoRootDir(t), "analyzer", "testdata"), []string{"-json"}, 300},
		{"errors", broken, nil, 3},
		{"errors -json", broken, []string{"-json"}, 3},
	}
	testmod.Require(t, filepath.Join(repoRootDir(t), "analyzer", "testdata"))
	for _, c := range cases {
		vet := func(tool string) result {
			return run(t, c.dir, offline, "go", append(append([]string{"vet", "-vettool=" + tool}, c.flags...), "./...")...)
		}
		got, want := vet(bin), vet(ref)
		// unitchecker writes its JSON with HTML escaping (json.MarshalIndent);
		// slotlint does not, so that key templates such as "{<id>}" read as
		// they are. The output is otherwise the same.
		want.stdout, want.stderr = string(jsonout.Unescape([]byte(want.stdout))), string(jsonout.Unescape([]byte(want.stderr)))
		if strings.Contains(got.stdout+got.stderr, `\u003c`) {
			t.Errorf("%s: slotlint's output escapes < as \\u003c", c.name)
		}
		if got.code != want.code {
			t.Errorf("%s: exit %d, unitchecker's %d", c.name, got.code, want.code)
		}
		// go vet prints each package's output as it finishes.
		for _, out := range []struct{ name, got, want string }{{"stdout", got.stdout, want.stdout}, {"stderr", got.stderr, want.stderr}} {
			g, w := sortedLines(out.got), sortedLines(out.want)
			if !slices.Equal(g, w) {
				t.Errorf("%s: %s differs from unitchecker's:\n%s", c.name, out.name, lineDiff(g, w))
			}
		}
		if n := len(sortedLines(got.stdout + got.stderr)); n < c.findings {
			t.Errorf("%s: %d lines of output, want %d at least:\nstdout:\n%s\nstderr:\n%s", c.name, n, c.findings, got.stdout, got.stderr)
		}
	}
}

// sortedLines returns the lines of s that are not empty, sorted.
func sortedLines(s string) []string {
	lines := slices.DeleteFunc(strings.Split(s, "\n"), func(l string) bool { return strings.TrimSpace(l) == "" })
	slices.Sort(lines)
	return lines
}

// lineDiff lists the lines that only one of two sorted lists has.
func lineDiff(got, want []string) string {
	var b strings.Builder
	i, j := 0, 0
	for i < len(got) || j < len(want) {
		switch {
		case j == len(want) || i < len(got) && got[i] < want[j]:
			fmt.Fprintf(&b, "+ %s\n", got[i])
			i++
		case i == len(got) || want[j] < got[i]:
			fmt.Fprintf(&b, "- %s\n", want[j])
			j++
		default:
			i, j = i+1, j+1
		}
	}
	return b.String()
}

// TestVetFactsFiles: the facts files that slotlint writes under go vet hold
// facts and no types (driver.Vet), but for the packages that import
// nothing, which x/tools' unitchecker analyses (driver.VetConfig.
// HasExportData); those of the standard library are empty, without an
// analysis (standardPackage); the key helpers of the demo reach their
// importers.
func TestVetFactsFiles(t *testing.T) {
	bin := slotlintBin(t)
	t.Parallel()
	// A rules text of its own, so that go vet runs slotlint on every
	// package again, and the go command's work directory, which keeps
	// each package's vet.cfg and vet.out.
	nonce := fmt.Sprintf("version: 1 # %s %d", t.Name(), time.Now().UnixNano())
	r := run(t, repoRootDir(t), nil, "go", "vet", "-work", "-vettool="+bin, "-rules-inline="+nonce, "./testdata/demo/...")
	m := regexp.MustCompile(`(?m)^WORK=(.*)$`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("go vet -work printed no WORK=; exit %d, stderr:\n%s", r.code, r.stderr)
	}
	defer os.RemoveAll(m[1])
	cfgs, _ := filepath.Glob(filepath.Join(m[1], "*", "vet.cfg"))
	var ours, leaves, std, withFacts int
	for _, file := range cfgs {
		cfg, err := driver.ReadVetConfig(file)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "vet.out"))
		if err != nil {
			t.Fatalf("%s: %v", cfg.ID, err)
		}
		var typesLen, factsLen uint32
		if len(data) >= 12 {
			typesLen, factsLen = binary.LittleEndian.Uint32(data[4:8]), binary.LittleEndian.Uint32(data[8:12])
		}
		if !cfg.HasExportData() {
			leaves++
			if typesLen == 0 {
				t.Errorf("%s: unitchecker's facts file has no types", cfg.ID)
			}
			continue
		}
		ours++
		if standardPackage(cfg) {
			// Not analysed: the standard library has no facts to give.
			std++
			if len(data) != 0 {
				t.Errorf("%s: a facts file of %d bytes for a package of the standard library", cfg.ID, len(data))
			}
		}
		if len(data) > 0 && (len(data) < 12 || string(data[:4]) != "vetx") {
			t.Errorf("%s: facts file of %d bytes does not start with vetx", cfg.ID, len(data))
		}
		if typesLen != 0 {
			t.Errorf("%s: facts file with %d bytes of types", cfg.ID, typesLen)
		}
		if strings.HasPrefix(cfg.ImportPath, "github.com/slotlint/slotlint/testdata/demo/keys") && factsLen > 0 {
			withFacts++
		}
	}
	if ours < 100 || std < 50 || leaves == 0 || withFacts == 0 {
		t.Errorf("facts files of %d packages by slotlint's driver (want 100 or more; %d of them of the standard library, want 50 or more), %d by unitchecker (want some), %d of the demo's keys package with facts (want 1)", ours, std, leaves, withFacts)
	}
}
