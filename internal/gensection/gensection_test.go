package gensection

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var sec = Section{Name: "clients", Begin: "# BEGIN x", End: "# END x", Generator: "go run ./gen"}

func TestReplace(t *testing.T) {
	in := "a\n# BEGIN x\nold\n# END x\nb\n"
	out, err := sec.Replace([]byte(in), "# BEGIN x\nnew\n# END x\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\n# BEGIN x\nnew\n# END x\nb\n"; string(out) != want {
		t.Errorf("got %q", out)
	}
	for _, c := range []struct {
		s    Section
		in   string
		want string
	}{
		{sec, "a\n", `no line "# BEGIN x"`},
		{Section{Begin: "# BEGIN x", End: "# END x", Where: "inside clients:"}, "a\n", `no line "# BEGIN x"; put the markers inside clients:`},
		{sec, "# BEGIN x\n", `no line "# END x" after "# BEGIN x"`},
		{sec, "# END x\n# BEGIN x\n", `no line "# END x" after "# BEGIN x"`},
	} {
		if _, err := c.s.Replace([]byte(c.in), ""); err == nil || err.Error() != c.want {
			t.Errorf("Replace(%q): error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.yaml")
	if err := os.WriteFile(path, []byte("a\n# BEGIN x\nold\n# END x\nb\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	build := func([]byte) (string, error) { return "# BEGIN x\nnew\n# END x\n", nil }
	err := sec.Update(path, true, build)
	if err == nil || !strings.Contains(err.Error(), "the clients section is out of date; run go run ./gen") {
		t.Errorf("check of a stale section: %v", err)
	}
	if err := sec.Update(path, false, build); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "a\n# BEGIN x\nnew\n# END x\nb\n" {
		t.Errorf("updated file %q", data)
	}
	if err := sec.Update(path, true, build); err != nil {
		t.Errorf("check of an up-to-date section: %v", err)
	}
}

func TestWrapComment(t *testing.T) {
	var b strings.Builder
	WrapComment(&b, "  ", strings.Repeat("word ", 20))
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if !strings.HasPrefix(l, "  # ") || len(l) > 78 {
			t.Errorf("line %q", l)
		}
	}
}
