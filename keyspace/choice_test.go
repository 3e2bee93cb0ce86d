package keyspace

import "testing"

// TestChoices checks that keys carry the choices they were built from
// through Concat, Append and Apply, and that Consistent refuses keys built
// from different values of one variable.
func TestChoices(t *testing.T) {
	us := Choice{Of: "tag", In: []string{"$0"}, Alt: 0}
	eu := Choice{Of: "tag", In: []string{"$0"}, Alt: 1}
	other := Choice{Of: "tag", In: []string{"$1"}, Alt: 1}
	a := Lit("{us}").Choosing(us)
	b := Lit("{eu}").Choosing(eu)
	c := Lit("{eu}").Choosing(other)

	if k := Concat(a, Lit(":staging")); len(k.Choices) != 1 || k.Choices[0].ID() != "tag($0)" {
		t.Errorf("Concat kept choices %v, want [tag($0)]", k.Choices)
	}
	if k := Lit("x:").Append(b); len(k.Choices) != 1 || k.Choices[0].Alt != 1 {
		t.Errorf("Append kept choices %v, want the second of tag($0)", k.Choices)
	}
	tmpl := MustTemplate("<region>:live")
	if k := tmpl.Apply([]Key{a}); len(k.Choices) != 1 || k.String() != "{us}:live" {
		t.Errorf("Apply gave %q with choices %v, want \"{us}:live\" with tag($0)", k, k.Choices)
	}
	if k := a.Choosing(us, us); len(k.Choices) != 1 {
		t.Errorf("a choice added twice is held twice: %v", k.Choices)
	}

	for _, tc := range []struct {
		keys []Key
		want bool
	}{
		{[]Key{a, Concat(a, Lit(":live"))}, true},
		{[]Key{a, b}, false},
		{[]Key{a, c}, true},             // another variable's choice
		{[]Key{Lit("plain"), a}, true},  // a key built from no choice
		{[]Key{Concat(a, c), b}, false}, // a's choice conflicts with b's
	} {
		if got := Consistent(tc.keys...); got != tc.want {
			t.Errorf("Consistent(%v) = %v, want %v", tc.keys, got, tc.want)
		}
	}
}
