// Package flowpass defines the Analyzer that runs slotlint's key-flow
// engine once per package and gives its model to the analyzers that
// require it.
//
// # Analyzer keyflow
//
// keyflow: model the Redis calls of a package and the keys that reach them
//
// The Analyzer builds package keyflow's Engine over the package, computes
// the model of every function (its Redis calls, their keys, its
// transactions) and exports the summaries that importing packages follow
// keys through: KeyFunc, KeyVar, KeyWrapper and KeyField facts. It reports
// nothing. Its result, a *Model, is read by slotlint's checks (package
// analyzer) and by the keyspace map (package keymap), so that both run in
// one checker, a multichecker, gopls or golangci-lint, over one engine and
// one set of facts: x/tools lets exactly one Analyzer own a fact type.
//
// The package also owns the rules flags, -rules and -rules-inline, and the
// rule set they select (Rules), loaded once per process and flag values.
// An Analyzer that requires this one lists the same flags among its own
// (RulesFlags), so that users keep typing -rules where the driver shows
// only the root analyzers' flags (singlechecker, go vet -vettool).
package flowpass

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sync"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
)

const doc = `model the Redis calls of a package and the keys that reach them

keyflow runs slotlint's key-flow engine over the package: every Redis call
resolved through the rules, the keys that reach it, its transactions and
scripts. It reports nothing; slotlint's checks and the keyspace map read
its result, and importing packages its facts.`

// Analyzer models each package with the key-flow engine; its result is a
// *Model.
var Analyzer = &analysis.Analyzer{
	Name:       "keyflow",
	Doc:        doc,
	URL:        "https://github.com/slotlint/slotlint/blob/main/docs/contributing.md",
	Run:        run,
	FactTypes:  keyflow.FactTypes(),
	ResultType: reflect.TypeOf((*Model)(nil)),
}

func init() {
	Analyzer.Flags.StringVar(&rulesFile, "rules", "", "a rules file (YAML) merged over the built-in rules")
	Analyzer.Flags.StringVar(&rulesInline, "rules-inline", "", "the text of a rules file (YAML or JSON), instead of -rules; use it under go vet, whose cache sees flag values but not the files they name")
}

// A Model is the key-flow model of one package.
type Model struct {
	// Rules is the rule set the package was modelled with.
	Rules *ruleset.Rules

	mu   sync.Mutex
	flow *keyflow.Engine
}

// Use calls f with the package's engine, under the model's lock. The
// engine answers some questions on demand, and is not safe for concurrent
// use; the analyzers that require Analyzer may run at once on one package.
// The engine's facts are exported already: f must not export any.
func (m *Model) Use(f func(flow *keyflow.Engine)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f(m.flow)
}

// run models the package, while the pass can still export facts: the
// model of every function first, then the facts, in that order, as their
// summaries of recursive functions depend on which is asked first.
func run(pass *analysis.Pass) (any, error) {
	rules, err := Rules()
	if err != nil {
		return nil, err
	}
	flow := keyflow.ForPass(pass, rules)
	flow.Funcs()
	if flow.SendsCommands() {
		flow.Libraries()
	}
	flow.ExportFacts()
	return &Model{Rules: rules, flow: flow}, nil
}

// The rules flags' values.
var rulesFile, rulesInline string

// RulesFlags lists -rules and -rules-inline among the flags of fs, the
// flags of an Analyzer that requires this one: setting them there sets
// them here.
func RulesFlags(fs *flag.FlagSet) {
	Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		fs.Var(f.Value, f.Name, f.Usage)
	})
}

// InlineRulesName stands for the file name in the positions of rules given
// with -rules-inline: "rules-inline:3:5: ...".
const InlineRulesName = "rules-inline"

// loaded holds the rule set, read once per process and rules flags.
var loaded struct {
	sync.Mutex
	file, inline string
	data         []byte // the -rules file's content
	rules        *ruleset.Rules
	err          error
	done         bool
}

// Rules returns the rule set that the flags select: the built-in rules with
// the -rules file or the -rules-inline text merged over them. It is loaded
// once per process and flag values, and shared: treat it as read-only.
// Faults in the user's rules come as a *ruleset.RulesError.
func Rules() (*ruleset.Rules, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if !loaded.done || loaded.file != rulesFile || loaded.inline != rulesInline {
		loaded.data, loaded.rules, loaded.err = load(rulesFile, rulesInline)
		loaded.file, loaded.inline, loaded.done = rulesFile, rulesInline, true
	}
	return loaded.rules, loaded.err
}

func load(file, inline string) ([]byte, *ruleset.Rules, error) {
	switch {
	case file != "" && inline != "":
		return nil, nil, errors.New("give the rules with -rules FILE or with -rules-inline TEXT, not both")
	case inline != "":
		rules, err := slotlint.ParseRules(InlineRulesName, []byte(inline))
		return nil, rules, err
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, fmt.Errorf("reading rules: %w", err)
		}
		rules, err := slotlint.ParseRules(file, data)
		return data, rules, err
	}
	return nil, slotlint.Builtin(), nil
}

// RulesFile returns the content of the -rules file that Rules read, for
// the cache keys of drivers: the flag names the file, and the file may
// change between runs. It is nil without -rules.
func RulesFile() ([]byte, error) {
	if _, err := Rules(); err != nil {
		return nil, err
	}
	loaded.Lock()
	defer loaded.Unlock()
	return loaded.data, nil
}
