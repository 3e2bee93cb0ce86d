package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hookRepo makes a git repository holding a module that uses go-redis, with
// a nested module, and returns its directory and a function that runs git
// in it.
func hookRepo(t *testing.T) (string, func(args ...string)) {
	t.Helper()
	for _, tool := range []string{"git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	dir := newModule(t, map[string]string{
		"README.md":             "an app\n",
		"good/good.go":          goodGo,
		"bad/bad.go":            badGo,
		"other/other.go":        strings.Replace(badGo, "package bad", "package other", 1),
		"testdata/bad/bad.go":   badGo,
		"_skip/skip.go":         badGo,
		"nested/go.mod":         "module example.com/nested\n\ngo 1.26\n",
		"nested/plain/plain.go": "package plain\n\n// N is a number.\nconst N = 1\n",
		"gone/gone.go":          "package gone\n",
	})
	git := func(args ...string) {
		t.Helper()
		if r := run(t, dir, nil, "git", args...); r.code != 0 {
			t.Fatalf("git %s: %s", strings.Join(args, " "), r.stderr)
		}
	}
	git("init", "-q")
	git("add", "go.mod", "go.sum")
	return dir, git
}

func hookPath(t *testing.T) string {
	t.Helper()
	hook, err := filepath.Abs("../../hooks/pre-commit")
	if err != nil {
		t.Fatal(err)
	}
	return hook
}

// TestPreCommitHookPackages checks which packages hooks/pre-commit lints,
// from where, with a stand-in for slotlint that logs its directory and
// arguments.
func TestPreCommitHookPackages(t *testing.T) {
	hook := hookPath(t)
	dir, git := hookRepo(t)
	fake := filepath.Join(t.TempDir(), "slotlint")
	calls := filepath.Join(t.TempDir(), "calls")
	script := "#!/bin/sh\necho \"$(pwd)|$*\" >>" + calls + "\nexit ${FAKE_EXIT:-0}\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"SLOTLINT=" + fake}
	// hook runs the hook from a subdirectory of the repository and returns
	// its result and the slotlint runs, "dir|args", dir relative to the
	// repository.
	hook1 := func(sub string, extra ...string) (result, []string) {
		t.Helper()
		os.Remove(calls)
		r := run(t, filepath.Join(dir, sub), append(env, extra...), hook)
		data, _ := os.ReadFile(calls)
		var runs []string
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if line != "" {
				rel, _ := filepath.Rel(dir, strings.SplitN(line, "|", 2)[0])
				runs = append(runs, filepath.ToSlash(rel)+"|"+strings.SplitN(line, "|", 2)[1])
			}
		}
		return r, runs
	}
	want := func(what string, r result, runs []string, code int, wantRuns ...string) {
		t.Helper()
		if r.code != code || strings.Join(runs, "\n") != strings.Join(wantRuns, "\n") {
			t.Errorf("%s: exit %d, slotlint runs\n\t%s\nwant exit %d, runs\n\t%s\nstderr:\n%s",
				what, r.code, strings.Join(runs, "\n\t"), code, strings.Join(wantRuns, "\n\t"), r.stderr)
		}
	}

	git("add", "README.md")
	r, runs := hook1(".")
	want("no staged Go file", r, runs, 0)
	if r.stderr != "" {
		t.Errorf("no staged Go file: stderr:\n%s", r.stderr)
	}

	// testdata and _skip are skipped, as ./... skips them.
	git("add", "good/good.go", "testdata/bad/bad.go", "_skip/skip.go")
	r, runs = hook1(".")
	want("good staged", r, runs, 0, ".|./good")

	// The nested module is linted from its root; the order is the
	// modules', then the packages'.
	git("add", "nested/plain/plain.go", "bad/bad.go")
	r, runs = hook1(".")
	want("three packages", r, runs, 0, ".|./bad ./good", "nested|./plain")
	for _, sub := range []string{"good", "nested/plain"} {
		r, runs = hook1(sub)
		want("from "+sub, r, runs, 0, ".|./bad ./good", "nested|./plain")
	}

	// Flags go first; slotlint's exit code is the hook's.
	r, runs = hook1(".", "SLOTLINT_FLAGS=-proven-only -disable=copy-db", "FAKE_EXIT=3")
	want("flags and findings", r, runs, 3, ".|-proven-only -disable=copy-db ./bad ./good", "nested|-proven-only -disable=copy-db ./plain")
	if !strings.Contains(r.stderr, "commit stopped") {
		t.Errorf("findings: stderr lacks the hint:\n%s", r.stderr)
	}

	// A package whose only file is deleted is not linted.
	git("add", "gone/gone.go")
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x")
	git("rm", "-q", "gone/gone.go")
	r, runs = hook1(".")
	want("a deleted package", r, runs, 0)
}

// TestPreCommitHook runs hooks/pre-commit with slotlint itself: a clean
// package passes, a package with a finding stops the commit, and a package
// with findings that is not staged is not linted.
func TestPreCommitHook(t *testing.T) {
	bin, hook := slotlintBin(t), hookPath(t)
	t.Parallel()
	dir, git := hookRepo(t)
	env := append([]string{"SLOTLINT=" + bin}, offline...)

	git("add", "good/good.go")
	r := run(t, dir, env, hook)
	if r.code != 0 || strings.Contains(r.stderr, "RENAME") {
		t.Fatalf("a clean package staged: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	git("add", "bad/bad.go")
	r = run(t, filepath.Join(dir, "good"), env, hook)
	if r.code != 3 || !strings.Contains(r.stderr, filepath.Join("bad", "bad.go")+":11:9: RENAME keys") ||
		strings.Contains(r.stderr, "other.go") || !strings.Contains(r.stderr, "commit stopped") {
		t.Fatalf("a package with a finding staged: exit %d, want 3; stderr:\n%s", r.code, r.stderr)
	}
}
