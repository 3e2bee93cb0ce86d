package ruleset

import (
	"strings"
	"testing"
)

// TestParseSelectorElems checks the forms that take a part of each element
// of a slice or the keys of a map: N[].F (go-redis's JSONMSetArgs, whose
// keys are the Key field of each JSONSetArgs), N[][K] (TSMAdd, whose keys
// are the first element of each [][]interface{} row) and N{}
// (CMSMergeWithWeight, whose source keys are a map's keys).
func TestParseSelectorElems(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Selector
	}{
		{"1[].Key", Selector{Param: 1, Slice: true, ElemField: "Key", Step: 1}},
		{"1[][0]", Selector{Param: 1, Slice: true, Inner: true, Step: 1}},
		{"3[][2]", Selector{Param: 3, Slice: true, Inner: true, ElemIndex: 2, Step: 1}},
		{"2{}", Selector{Param: 2, MapKeys: true, Step: 1}},
	} {
		s, err := ParseSelector(tc.text)
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		tc.want.Text = tc.text
		if s != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.text, s, tc.want)
		}
		if got := s.PerElement(); got != (tc.want.ElemField != "" || tc.want.Inner) {
			t.Errorf("%s: PerElement() = %v", tc.text, got)
		}
	}
	for _, bad := range []string{"1[].", "1[].9x", "1[].Key[]", "1[][]", "1[][x]", "1[][0", "1[][-1]", "1{", "1{}[]", "1.Keys{}"} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%s: no error", bad)
		} else if !strings.Contains(err.Error(), "N[].Field, N[][K], N{}") {
			t.Errorf("%s: the error does not list the new forms: %v", bad, err)
		}
	}
}

// TestLoadSelectorElems loads a rules file with the new forms, and reports
// a misspelt one at its place.
func TestLoadSelectorElems(t *testing.T) {
	r, err := ParseRules("rules.yaml", []byte(`version: 1
clients:
  go-redis v9:
    packages: [github.com/redis/go-redis/v9]
    methods:
      JSONMSetArgs: {command: JSON.MSET, keys: ["1[].Key"]}
      TSMAdd: {command: TS.MADD, keys: ["1[][0]"]}
      CMSMergeWithWeight: {command: CMS.MERGE, keys: ["1", "2{}"]}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := r.ClientOf("github.com/redis/go-redis/v9")
	if c == nil {
		t.Fatal("no client")
	}
	if k := c.Methods["JSONMSetArgs"].Keys; len(k) != 1 || k[0].ElemField != "Key" || !k[0].Slice {
		t.Errorf("JSONMSetArgs keys %+v", k)
	}
	if k := c.Methods["TSMAdd"].Keys; len(k) != 1 || !k[0].Inner || k[0].ElemIndex != 0 {
		t.Errorf("TSMAdd keys %+v", k)
	}
	if k := c.Methods["CMSMergeWithWeight"].Keys; len(k) != 2 || !k[1].MapKeys || k[1].Param != 2 {
		t.Errorf("CMSMergeWithWeight keys %+v", k)
	}

	_, err = ParseRules("rules.yaml", []byte(`version: 1
clients:
  c:
    packages: [p]
    methods:
      A: {command: TS.MADD, keys: ["1[][first]"]}
`))
	want := `rules.yaml:6:36: selector "1[][first]" is not one of`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error containing %q", err, want)
	}
}
