// Package analyzer defines an Analyzer that checks that the keys of each
// Redis command issued through go-redis can share one Redis Cluster slot,
// and that transactions keep the updates they mean to keep.
//
// # Analyzer slotlint
//
// slotlint: check that Redis multi-key commands keep their keys in one slot
//
// Redis Cluster answers CROSSSLOT when the keys of one command, transaction
// or script hash to different slots. slotlint finds the call sites of
// go-redis methods that take several keys (MGET, RENAME, LMOVE, the *STORE
// commands, EVAL, WATCH, MULTI/EXEC pipelines, ...), recovers what the keys
// are built from (constants, concatenation, fmt.Sprintf, variables, helper
// functions in any package, keyspace templates), and reports keys that hash
// to different slots (cross-slot) or that no common hashtag proves to share
// one (maybe-cross-slot). The latter is given only where both keys have
// some literal text, or one is constant text with no hashtag: a key that
// is only an unknown value shows nothing of its slot, but one beside
// "lastUpdated" is in another slot unless its hashtag is that very text;
// and an empty string beside other values of one key is a placeholder,
// not a key (crossslot.go says why). Lua scripts whose source
// is known are checked with package luacheck: keys not declared in KEYS,
// KEYS out of range, flags. A third family of checks finds the
// WATCH/MULTI/EXEC mistakes that lose updates. Which arguments are keys
// comes from the rule set, rules.yaml, not from code. A cluster family
// reports what a cluster does unlike one server besides slots: commands
// that read one node's keyspace, databases other than 0.
//
// The values come from package keyflow, whose engine models the package's
// Redis calls, their keys and their transactions before any check runs;
// the Analyzer of package flowpass runs it once per package and owns its
// facts, and this Analyzer requires it and reads its model. Each family
// reads that model: cross-slot and maybe-cross-slot in crossslot.go, the
// cluster family in cluster.go, the Lua checks in scripts.go, the
// atomicity checks in atomic.go, atomic_flow.go and atomic_retry.go, and
// watch-in-multi and pooled-transaction in watchmisuse.go. keyflow's
// package doc says why they are functions of one Analyzer rather than
// Analyzers of their own.
package analyzer

import (
	"errors"
	"go/types"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/keyflow/flowpass"
	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
)

// doc is the Analyzer's doc; its list of checks comes from package checks.
var doc = `check that Redis multi-key commands keep their keys in one slot

Redis Cluster answers CROSSSLOT when the keys of one command, transaction
or script hash to different slots. slotlint checks each go-redis call that
takes several keys (MGET, RENAME, LMOVE, the *STORE commands, EVAL, WATCH,
MULTI/EXEC pipelines, Do with a constant command name, and the user's
wrappers declared in rules.yaml), recovering what the keys are built from:
constants, concatenation, fmt.Sprintf, variables, slices, helper functions
in any package, and keyspace templates. It also checks Lua scripts whose
source is known, and the WATCH/MULTI/EXEC mistakes that lose updates.

Each check's name is the category of its findings. Its severity (error,
warning or off) is set under checks: in a rules file; -disable=NAME,...
turns checks off. The checks, with their default severity:

` + checks.Text() + `
-proven-only turns off maybe-cross-slot, and nothing else: of the slot
findings only keys that provably hash to different slots are reported,
while every other check runs as its severity says.

A finding is suppressed by a //slotlint:ignore comment with a reason, on
its line or the line above. Each check is shown with bad and good code at
https://github.com/slotlint/slotlint/blob/main/docs/checks/README.md.`

// Analyzer is the slotlint analysis.
var Analyzer = &analysis.Analyzer{
	Name:     "slotlint",
	Doc:      doc,
	URL:      "https://github.com/slotlint/slotlint",
	Run:      run,
	Requires: []*analysis.Analyzer{flowpass.Analyzer},
}

var (
	provenOnly bool
	disabled   checks.List
)

func init() {
	flowpass.RulesFlags(&Analyzer.Flags)
	Analyzer.Flags.BoolVar(&provenOnly, "proven-only", false, "turn off maybe-cross-slot and nothing else: of the slot findings report only keys that provably hash to different slots (cross-slot); every other check runs as its severity says")
	Analyzer.Flags.Var(&disabled, "disable", "comma-separated `names` of checks to turn off, such as maybe-cross-slot,lost-update; a name that is not a check is an error that lists the checks")
}

// A checker holds the state of one pass: the key-flow model of the
// package, which the checks read, and the findings' reporter.
type checker struct {
	pass   *analysis.Pass
	rules  *ruleset.Rules
	flow   *keyflow.Engine
	report *reporter
	lua    luaState
	// callbackParams are the parameters of the function literals passed
	// to calls, made on first use (cluster.go's perNode).
	callbackParams map[*types.Var]bool
}

// run reads the key-flow model of the package (package flowpass) and runs
// each family of checks over each function's model: call, rules, key-flow
// values, colocation verdict, finding.
func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[flowpass.Analyzer].(*flowpass.Model)
	var err error
	model.Use(func(flow *keyflow.Engine) { err = checkPackage(pass, model.Rules, flow) })
	return nil, err
}

func checkPackage(pass *analysis.Pass, rules *ruleset.Rules, flow *keyflow.Engine) error {
	options := clientOptions(pass, rules)
	if !flow.SendsCommands() {
		// Nothing here can send a command. A client made here is checked
		// for its options.
		if len(options) > 0 {
			r := newReporter(pass, rules)
			for _, d := range options {
				r.add(d)
			}
		}
		return nil
	}
	c := &checker{
		pass:   pass,
		rules:  rules,
		flow:   flow,
		report: newReporter(pass, rules),
		lua: luaState{
			parsed:    map[string]*luacheck.Script{},
			libParsed: map[string]*luacheck.Library{},
			reported:  map[string]bool{},
			texts:     map[string]bool{},
			ran:       map[string]bool{},
		},
	}
	for _, s := range flow.Funcs() {
		for _, d := range c.check(s) {
			c.report.add(d)
		}
	}
	for _, d := range c.flushUnrun() {
		c.report.add(d)
	}
	for _, d := range options {
		c.report.add(d)
	}
	if faults := flow.RuleFaults(); len(faults) > 0 {
		// A rule that does not fit the method it describes selects the
		// wrong arguments: a fault of the rules, as one found at load.
		return errors.Join(faults...)
	}
	c.report.flush()
	return nil
}

// check runs every family of checks over the model of one function: per
// call the cross-slot family, then the scripts; then the atomicity checks
// over the whole function, the WATCH misuses last (watchmisuse.go), which
// drop the lost updates that they cover.
func (c *checker) check(s *keyflow.Func) []diag {
	var out, slots []diag
	for _, site := range s.Sites {
		slots = append(slots, c.crossSlot(site)...)
		if !s.OffCluster(site) {
			slots = append(slots, c.cluster(site)...)
		}
		out = append(out, c.scripts(site)...)
	}
	out = append(oneAtEachCall(slots), out...)
	out = c.dropTestKeyspaceWide(out)
	return c.watchMisuse(s, append(out, c.atomicity(s)...))
}
