package slotlint

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/ruleset"
	"go.yaml.in/yaml/v3"
)

// rules.yaml is the source of the built-in rules; builtin_rules.go holds the
// same rules as Go data, written from it by go generate (see rules.go), so
// that a process builds them without parsing YAML: under go vet every package
// is checked by a process of its own.

//go:embed rules.yaml
var builtinSource []byte

// BuiltinSource returns the text of the built-in rules file, rules.yaml. The
// slice is a copy.
func BuiltinSource() []byte {
	return slices.Clone(builtinSource)
}

var builtin = sync.OnceValue(builtinRules)

// Builtin returns the built-in rule set, the rules of rules.yaml, built
// once. It is shared: treat it as read-only, and use Merge to lay other rules
// over it.
func Builtin() *ruleset.Rules {
	return builtin()
}

// LoadRules returns the rule set slotlint works from: the built-in set with
// the user's rules file merged over it (see ruleset.Rules.Merge), validated
// as a whole. With userFile "" it is the built-in set. Faults are reported
// as a *ruleset.RulesError whose every line is file:line:col: message;
// besides what ruleset.ParseRules and Validate check, a check name in the
// user's file that slotlint does not have is a fault.
func LoadRules(userFile string) (*ruleset.Rules, error) {
	if userFile == "" {
		return Builtin(), nil
	}
	data, err := os.ReadFile(userFile)
	if err != nil {
		return nil, fmt.Errorf("reading rules: %w", err)
	}
	return ParseRules(userFile, data)
}

// ParseRules is LoadRules for rules held in memory, such as the text of
// -rules-inline; name stands for the file name in positions.
func ParseRules(name string, data []byte) (*ruleset.Rules, error) {
	base := Builtin()
	userFile := name
	user, err := ruleset.ParseRules(userFile, data)
	if err != nil {
		return nil, err
	}
	faults := unknownChecks(userFile, data, user)
	renameChecks(user)
	merged := base.Merge(user)
	if err := merged.Validate(); err != nil {
		var re *ruleset.RulesError
		if !errors.As(err, &re) {
			return nil, err
		}
		faults = append(faults, re.Faults...)
	}
	if len(faults) > 0 {
		return nil, &ruleset.RulesError{Faults: faults}
	}
	return merged, nil
}

// unknownChecks reports the checks of the user's rules that slotlint does
// not have (package checks, which the built-in set lists), at their line in
// the user's file.
func unknownChecks(file string, data []byte, user *ruleset.Rules) []*ruleset.Fault {
	var faults []*ruleset.Fault
	for name := range user.Checks {
		if _, ok := checks.Lookup(name); !ok {
			faults = append(faults, &ruleset.Fault{
				Pos: checkPos(file, data, name),
				Msg: checks.UnknownError(name).Error(),
			})
		}
	}
	slices.SortFunc(faults, func(a, b *ruleset.Fault) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return faults
}

// renameChecks gives the checks of the user's rules that were named by a
// former name (copy-db) their name now, so that their severity applies.
func renameChecks(user *ruleset.Rules) {
	for name, sev := range user.Checks {
		if now := checks.Canonical(name); now != name {
			delete(user.Checks, name)
			if _, set := user.Checks[now]; !set {
				user.Checks[now] = sev
			}
		}
	}
}

// checkPos finds the key of a check under checks: in a rules file, or
// returns the file's start.
func checkPos(file string, data []byte, name string) ruleset.Pos {
	pos := ruleset.Pos{File: file, Line: 1, Col: 1}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return pos
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "checks" {
			continue
		}
		checks := root.Content[i+1]
		for j := 0; j+1 < len(checks.Content); j += 2 {
			if k := checks.Content[j]; k.Value == name {
				return ruleset.Pos{File: file, Line: k.Line, Col: k.Column}
			}
		}
	}
	return pos
}
