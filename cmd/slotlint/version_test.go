package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// toolID is what the go command keeps of a vet tool's answer to -V=full
// (cmd/go/internal/work.(*Builder).toolID), or "" with the reason it
// would refuse the answer.
func toolID(out string) (string, error) {
	f := strings.Fields(out)
	if len(f) < 3 || f[1] != "version" || !strings.Contains(f[2], "devel") || !strings.HasPrefix(f[len(f)-1], "buildID=") {
		return "", fmt.Errorf("go vet would not parse %q", out)
	}
	last := f[len(f)-1]
	return last[strings.LastIndex(last, "/")+1:], nil
}

func versionOf(t *testing.T, bin string) (out, id string) {
	t.Helper()
	r := run(t, ".", nil, bin, "-V=full")
	if r.code != 0 {
		t.Fatalf("%s -V=full: exit %d; stderr:\n%s", bin, r.code, r.stderr)
	}
	id, err := toolID(r.stdout)
	if err != nil {
		t.Fatal(err)
	}
	return r.stdout, id
}

// buildSlotlint builds slotlint with extra go build flags, into dir.
func buildSlotlint(t *testing.T, name string, flags ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	args := append(append([]string{"build", "-o", path}, flags...), ".")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return path
}

// TestVersion: slotlint answers go vet's -V=full with the build ID that the
// go command wrote into it, which "go tool buildid" prints, instead of
// hashing its 12 MB; an executable built differently answers differently,
// and one without a build ID answers with the hash of its content.
func TestVersion(t *testing.T) {
	bin := slotlintBin(t)
	t.Parallel()
	out, id := versionOf(t, bin)
	r := run(t, ".", nil, "go", "tool", "buildid", bin)
	buildID := strings.TrimSpace(r.stdout)
	if r.code != 0 || strings.Count(buildID, "/") != 3 {
		t.Fatalf("go tool buildid %s: exit %d, %q; stderr:\n%s", bin, r.code, buildID, r.stderr)
	}
	if want := "buildID=" + buildID; !strings.HasSuffix(strings.TrimSpace(out), " "+want) {
		t.Errorf("slotlint -V=full = %q, want it to end in %q", out, want)
	}
	if want := buildID[strings.LastIndex(buildID, "/")+1:]; id != want {
		t.Errorf("go vet keeps %q of slotlint -V=full, want the content ID %q", id, want)
	}

	// The same source linked without the symbol table: another executable,
	// another ID.
	stripped := buildSlotlint(t, "slotlint-s", "-ldflags=-s")
	if _, id2 := versionOf(t, stripped); id2 == id {
		t.Errorf("slotlint and slotlint -ldflags=-s both answer -V=full with %q", id)
	}

	// Without a build ID: the SHA-256 of the executable.
	noID := buildSlotlint(t, "slotlint-noid", "-ldflags=-buildid=")
	data, err := os.ReadFile(noID)
	if err != nil {
		t.Fatal(err)
	}
	if _, id3 := versionOf(t, noID); id3 != fmt.Sprintf("buildID=%x", sha256.Sum256(data)) {
		t.Errorf("slotlint -ldflags=-buildid= answers -V=full with %q, want the SHA-256 of its content", id3)
	}
}

// TestGoVetToolChange: go vet reuses its results while the vet tool is the
// same executable, wherever it is, and vets again when it changes, because
// -V=full's answer is part of every result's cache key.
func TestGoVetToolChange(t *testing.T) {
	bin := slotlintBin(t)
	t.Parallel()
	// A package of its own, so that no earlier run's result is in the cache.
	dir := newModule(t, map[string]string{
		"bad/bad.go": badGo + fmt.Sprintf("\n// %s %d\n", t.Name(), time.Now().UnixNano()),
	})
	const finding = `bad/bad.go:11:9: RENAME keys "tmp:<a>"`
	// vet runs go vet -x with a vet tool and returns how many times go vet
	// started the tool on a package.
	vet := func(tool string) int {
		t.Helper()
		r := run(t, dir, offline, "go", "vet", "-x", "-vettool="+tool, "./...")
		if r.code == 0 || !strings.Contains(r.stderr, finding) {
			t.Fatalf("go vet -vettool=%s: exit %d, want the finding %s; stderr:\n%s", tool, r.code, finding, r.stderr)
		}
		n := 0
		for line := range strings.Lines(r.stderr) {
			if strings.Contains(line, tool+" ") && strings.Contains(line, "vet.cfg") {
				n++
			}
		}
		return n
	}
	if n := vet(bin); n == 0 {
		t.Fatalf("go vet did not run slotlint on a new package")
	}
	if n := vet(bin); n != 0 {
		t.Errorf("go vet ran slotlint %d times again with nothing changed, want its cached results", n)
	}
	// The same executable elsewhere, with another modification time.
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "slotlint-copy")
	if err := os.WriteFile(again, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if n := vet(again); n != 0 {
		t.Errorf("go vet ran a copy of slotlint %d times, want its cached results", n)
	}
	changed := buildSlotlint(t, "slotlint-s", "-ldflags=-s")
	if n := vet(changed); n == 0 {
		t.Errorf("go vet did not run slotlint after the executable changed")
	}
	if n := vet(changed); n != 0 {
		t.Errorf("go vet ran the changed slotlint %d times again with nothing changed", n)
	}
}

// TestVersionID: only a build ID that the go command completed is taken;
// in formats other than ELF, it is found at the start of the text.
func TestVersionID(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"aa/bb/cc/dd", "aa/bb/cc/dd"},
		{"aa/bb/cc/aa", ""}, // the content ID is still the placeholder
		{"aa/bb", ""},       // a package's, not an executable's
		{"custom", ""},      // -ldflags=-buildid=custom
		{"aa//cc/dd", ""},
		{"", ""},
	} {
		if got := versionID(tc.in); got != tc.want {
			t.Errorf("versionID(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	text := "MZ\x90\x00header\x00\xff Go build ID: \"aa/bb/cc/dd\"\n \xff\xcc\xcc"
	if got := readBuildID(strings.NewReader(text)); got != "aa/bb/cc/dd" {
		t.Errorf("readBuildID of a text with a build ID = %q, want aa/bb/cc/dd", got)
	}
	for _, text := range []string{"", "MZ", "MZ\xff Go build ID: \"aa/bb/cc/dd", "\x7fELF\x02\x01\x01"} {
		if got := readBuildID(strings.NewReader(text)); got != "" {
			t.Errorf("readBuildID(%q) = %q, want none", text, got)
		}
	}
}
