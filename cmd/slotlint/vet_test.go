package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/analyzer"
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
