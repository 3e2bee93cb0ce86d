package analyzer_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"golang.org/x/tools/go/analysis/analysistest"
)

// The test packages live in a module of their own under testdata, which
// requires the real go-redis v9 and v8, so they follow the real API. They
// are loaded in one run, since loading go-redis dominates the time:
//
//	basic       literal keys of every kind of multi-key command
//	provenance  keys built with Sprintf, Join, branches, loops, templates, fields
//	keys, app   key helpers in one package, used in another (facts)
//	tx          WATCH transactions, TxPipelined, TxPipeline, plain pipelines
//	ignore      //slotlint:ignore directives
//	v8          go-redis v8
//	raw         Do with a constant command name
//	wrappers    wrappers declared in rules.yaml, and found by slotlint
//	scripts     Lua scripts: undeclared keys, arity, flags, syntax
//	functions   Redis 7 function libraries and FCALL
//	atomic*     the atomicity checks: a balance withdrawal, an inventory
//	            reservation, a counter with a floor and a ceiling, an order
//	            confirmation, retry loops, go-redis's Watch example, and v8
//	newcommands commands newer than Redis 7.0 and module commands (JSON, t-digest)
func TestAnalyzer(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	setFlag(t, "rules", filepath.Join(dir, "wrappers", "rules.yaml"))
	analysistest.Run(t, dir, analyzer.Analyzer,
		"./basic", "./provenance", "./keys", "./app", "./tx", "./ignore", "./v8", "./raw", "./wrappers", "./scripts", "./functions",
		"./atomicbalance", "./atomicinventory", "./atomiccounter", "./atomicorder", "./atomicretry", "./atomicexample", "./atomicv8",
		"./newcommands")
}

func setFlag(t *testing.T, name, value string) {
	f := analyzer.Analyzer.Flags.Lookup(name)
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}
