package editdist

import "testing"

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"crossslot", "crossslot", 0},
		{"crosslot", "crossslot", 1},
		{"no-writes", "no-write", 1},
		{"allow-oom", "alow-om", 2},
		{"kitten", "sitting", 3},
	} {
		if got := Levenshtein(c.a, c.b); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
