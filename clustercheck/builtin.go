package clustercheck

import (
	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/ruleset"
)

// defaultRules is the rule set whose commands table the hook falls back
// on.
func defaultRules() *ruleset.Rules { return slotlint.Builtin() }
