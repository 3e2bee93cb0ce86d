package ruleset

import "testing"

// The safe-writes section lists writes that cannot lose an update, with
// the option that makes them safe; a user's file adds to the built-in one.
func TestSafeWrites(t *testing.T) {
	base, err := ParseRules("rules.yaml", []byte("version: 1\nsafe-writes:\n  XACK: {}\n  XCLAIM: {when: MinIdle}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := base.SafeWrites["XCLAIM"]; w == nil || w.When != "MinIdle" {
		t.Errorf("XCLAIM = %+v, want when MinIdle", w)
	}
	if w := base.SafeWrites["XACK"]; w == nil || w.When != "" {
		t.Errorf("XACK = %+v, want always", w)
	}
	over, err := ParseRules("mine.yaml", []byte("version: 1\nsafe-writes:\n  SetNX: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := base.Merge(over)
	for _, name := range []string{"XACK", "XCLAIM", "SetNX"} {
		if m.SafeWrites[name] == nil {
			t.Errorf("merged rules lack %s", name)
		}
	}
	_, err = ParseRules("bad.yaml", []byte("version: 1\nsafe-writes:\n  XCLAIM: {if: MinIdle}\n"))
	if err == nil {
		t.Error("an unknown field of a safe write is accepted")
	}
}
