package clustercheck

import (
	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/keyspace"
)

// defaultRules is the rule set whose commands table the hook falls back
// on.
func defaultRules() *keyspace.Rules { return slotlint.Builtin() }
