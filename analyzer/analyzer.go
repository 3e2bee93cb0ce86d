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
// one (maybe-cross-slot). Lua scripts whose source is known are checked with
// package luacheck: keys not declared in KEYS, KEYS out of range, flags. A
// second family of checks finds the WATCH/MULTI/EXEC mistakes that lose
// updates (atomic.go). Which arguments are keys comes from the rule set,
// rules.yaml, not from code.
package analyzer

import (
	"errors"
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/checks"
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
https://github.com/slotlint/slotlint#what-it-checks.`

// Analyzer is the slotlint analysis.
var Analyzer = &analysis.Analyzer{
	Name:      "slotlint",
	Doc:       doc,
	URL:       "https://github.com/slotlint/slotlint",
	Run:       run,
	FactTypes: []analysis.Fact{new(keyFunc), new(keyVar), new(keyWrapper)},
}

var (
	rulesFile   string
	rulesInline string
	provenOnly  bool
	disabled    checks.List
)

func init() {
	Analyzer.Flags.StringVar(&rulesFile, "rules", "", "a rules file (YAML) merged over the built-in rules")
	Analyzer.Flags.StringVar(&rulesInline, "rules-inline", "", "the text of a rules file (YAML or JSON), instead of -rules; use it under go vet, whose cache sees flag values but not the files they name")
	Analyzer.Flags.BoolVar(&provenOnly, "proven-only", false, "turn off maybe-cross-slot and nothing else: of the slot findings report only keys that provably hash to different slots (cross-slot); every other check runs as its severity says")
	Analyzer.Flags.Var(&disabled, "disable", "comma-separated `names` of checks to turn off, such as maybe-cross-slot,lost-update; a name that is not a check is an error that lists the checks")
}

// InlineRulesName stands for the file name in the positions of rules given
// with -rules-inline: "rules-inline:3:5: ...".
const InlineRulesName = "rules-inline"

// loaded holds the rule set, read once per process and rules flags.
var loaded struct {
	sync.Mutex
	file   string
	inline string
	rules  *ruleset.Rules
	err    error
	done   bool
}

// Rules returns the rule set that the flags select: the built-in rules with
// the -rules file or the -rules-inline text merged over them. It is loaded
// once per process and flag values, and shared: treat it as read-only.
// Faults in the user's rules come as a *ruleset.RulesError.
func Rules() (*ruleset.Rules, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if !loaded.done || loaded.file != rulesFile || loaded.inline != rulesInline {
		loaded.rules, loaded.err = loadRules(rulesFile, rulesInline)
		loaded.file, loaded.inline, loaded.done = rulesFile, rulesInline, true
	}
	return loaded.rules, loaded.err
}

func loadRules(file, inline string) (*ruleset.Rules, error) {
	if inline == "" {
		return slotlint.LoadRules(file)
	}
	if file != "" {
		return nil, errors.New("give the rules with -rules FILE or with -rules-inline TEXT, not both")
	}
	return slotlint.ParseRules(InlineRulesName, []byte(inline))
}

// A checker holds the state of one pass.
type checker struct {
	pass  *analysis.Pass
	rules *ruleset.Rules

	decls   map[*types.Func]*ast.FuncDecl
	pkgVars map[*types.Var]ast.Expr // package-level variables set once, by their initializer
	pkgEval *evaluator

	summaries map[*types.Func]*summary
	scripts   scripts
	report    *reporter
	// initNames names the variables that package-level calls initialize.
	initNames map[*ast.CallExpr]string
	// checkCalls is false in packages that cannot reach a client library:
	// there slotlint only summarizes helpers for its importers.
	checkCalls bool
}

func run(pass *analysis.Pass) (any, error) {
	rules, err := Rules()
	if err != nil {
		return nil, err
	}
	c := newChecker(pass, rules)
	c.checkCalls = usesClient(pass.Pkg, rules)
	if !c.checkCalls {
		// Nothing here can send a command; only export what other packages
		// may use: key-building helpers and variables.
		c.exportFacts()
		return nil, nil
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if decl, ok := d.(*ast.FuncDecl); ok && decl.Body != nil {
				c.summarize(decl)
			}
		}
	}
	// Package-level initializers make scripts and, rarely, send commands.
	inits := &summary{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, v := range vs.Values {
						ast.Inspect(v, func(n ast.Node) bool {
							if call, ok := n.(*ast.CallExpr); ok {
								if i < len(vs.Names) && ast.Unparen(v) == call {
									c.initNames[call] = vs.Names[i].Name
								}
								c.checkCall(c.pkgEval, inits, call)
							}
							return true
						})
					}
				}
			}
		}
	}
	for _, s := range append(c.orderedSummaries(), inits) {
		for _, d := range s.diags {
			c.report.add(d)
		}
	}
	c.exportFacts()
	c.report.flush()
	return nil, nil
}

func newChecker(pass *analysis.Pass, rules *ruleset.Rules) *checker {
	c := &checker{
		pass:      pass,
		rules:     rules,
		decls:     map[*types.Func]*ast.FuncDecl{},
		pkgVars:   map[*types.Var]ast.Expr{},
		summaries: map[*types.Func]*summary{},
		initNames: map[*ast.CallExpr]string{},
		scripts:   scripts{parsed: map[string]*luacheck.Script{}, reported: map[string]bool{}},
	}
	c.report = newReporter(pass, rules)
	assigned := map[*types.Var]bool{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func); ok {
					c.decls[fn] = d
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					if len(vs.Values) != len(vs.Names) {
						continue
					}
					for i, id := range vs.Names {
						if v, ok := pass.TypesInfo.Defs[id].(*types.Var); ok {
							c.pkgVars[v] = vs.Values[i]
						}
					}
				}
			}
		}
		// A package-level variable that is assigned anywhere is not taken
		// to hold its initial value.
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
						if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok {
							assigned[v] = true
						}
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
					if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok {
						assigned[v] = true
					}
				}
			}
			return true
		})
	}
	for v := range assigned {
		delete(c.pkgVars, v)
	}
	c.pkgEval = newEvaluator(c, nil)
	return c
}

// usesClient reports whether the package imports a client library named in
// the rules, directly or through its dependencies, or declares wrappers.
func usesClient(pkg *types.Package, rules *ruleset.Rules) bool {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package) bool
	walk = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, cl := range rules.Clients {
			for _, path := range cl.Packages {
				if p.Path() == path {
					return true
				}
			}
		}
		for _, imp := range p.Imports() {
			if walk(imp) {
				return true
			}
		}
		return false
	}
	return walk(pkg) || len(rules.Wrappers) > 0
}
