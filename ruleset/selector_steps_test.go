package ruleset

import "testing"

// TestParseSelectorSteps checks the variadic forms that take every Nth
// element: pairs (MSET key value ...) and triples (JSON.MSET key path value
// ...).
func TestParseSelectorSteps(t *testing.T) {
	for _, tc := range []struct {
		text string
		step int
	}{
		{"1...", 1},
		{"2...pairs", 2},
		{"1...triples", 3},
	} {
		s, err := ParseSelector(tc.text)
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if !s.Variadic || s.Slice || s.Half || s.Field != "" || s.Step != tc.step {
			t.Errorf("%s: got %+v, want a variadic selector with step %d", tc.text, s, tc.step)
		}
	}
	for _, bad := range []string{"1...triple", "1...quads", "1[]triples", "1.Keys...triples"} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestParseSelectorHalf checks N...half, the first half of a variadic
// parameter (XReadStreams: the streams, then their IDs).
func TestParseSelectorHalf(t *testing.T) {
	s, err := ParseSelector("1...half")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Variadic || !s.Half || s.Slice || s.Step != 1 || s.Param != 1 {
		t.Errorf("got %+v", s)
	}
	if _, err := ParseSelector("1...halves"); err == nil {
		t.Error("1...halves: no error")
	}
}
