package analyzer_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/flowtest"
	"github.com/slotlint/slotlint/internal/testmod"
	"golang.org/x/tools/go/analysis/analysistest"
)

// The test packages live in a module of their own under testdata, which
// requires the real go-redis v9 and v8, so they follow the real API. Each
// family of checks has its own directory and its own test:
//
//	crossslot/  cross-slot, maybe-cross-slot, cluster-db of COPY, SORT patterns
//	  basic       literal keys of every kind of multi-key command
//	  provenance  keys built with Sprintf, Join, branches, loops, templates, fields
//	  choices     keys built from one of several values of one field or variable
//	  keys, app   key helpers in one package, used in another (facts)
//	  tx          WATCH transactions, TxPipelined, TxPipeline, plain pipelines
//	  v8          go-redis v8
//	  raw         Do with a constant command name
//	  wrappers    wrappers declared in rules.yaml, and found by slotlint
//	newcommands   commands newer than Redis 7.0 and module commands (JSON, t-digest)
//	cluster/    keyspace-wide, cluster-db, sharded pub/sub (cross-slot)
//	  keyspace    KEYS, SCAN, RANDOMKEY, FLUSHDB on cluster clients, and in Lua
//	              (pernode.go: walks of every master, by callback or by a
//	              list of the masters a helper collects)
//	  databases   COPY/MOVE to another db, UniversalOptions DB, ParseClusterURL
//	  pubsub      SSUBSCRIBE and SUNSUBSCRIBE over several slots
//	  valkey      target: valkey-9 (TestClusterValkey)
//	scripts/    lua-syntax, undeclared-key, script-arity, script-flags
//	  scripts     Lua scripts: undeclared keys, arity, flags, syntax
//	  functions   Redis 7 function libraries and FCALL
//	atomicity/  the six atomicity checks: a balance withdrawal, an inventory
//	            reservation, a counter with a floor and a ceiling, an order
//	            confirmation, retry loops, go-redis's Watch example, v8,
//	            and v6 (whose tx.Pipelined is MULTI/EXEC) beside v7;
//	            watchmisuse: watch-in-multi and pooled-transaction
//	ignore        //slotlint:ignore directives (ignore-directive), run
//	              with the cross-slot family whose findings they suppress
//	checks/NAME   each check's bad and good example, one folder a check
//	              (checks_test.go), which its page in docs/checks shows
//
// Each test loads go-redis once, which dominates its time.
//
// The facts that the test packages expect are the key-flow engine's, which
// belong to flowpass.Analyzer: checked is the Analyzer run in one pass with
// it, so that analysistest checks both (internal/flowtest).
var checked = flowtest.Hosted(analyzer.Analyzer)

func TestCrossSlot(t *testing.T) {
	dir := testdata(t)
	setFlag(t, "rules", filepath.Join(dir, "crossslot", "wrappers", "rules.yaml"))
	analysistest.Run(t, dir, checked, "./crossslot/...", "./newcommands", "./ignore")
}

func TestScripts(t *testing.T) {
	analysistest.Run(t, testdata(t), checked, "./scripts/...")
}

func TestAtomicity(t *testing.T) {
	analysistest.Run(t, testdata(t), checked, "./atomicity/...")
}

func testdata(t *testing.T) string {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	testmod.Require(t, dir)
	return dir
}

func setFlag(t *testing.T, name, value string) {
	f := analyzer.Analyzer.Flags.Lookup(name)
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}

func TestCluster(t *testing.T) {
	analysistest.Run(t, testdata(t), checked, "./cluster/keyspace", "./cluster/databases", "./cluster/pubsub")
}

// TestClusterValkey runs the cluster family with target: valkey-9, whose
// cluster has databases other than 0.
func TestClusterValkey(t *testing.T) {
	f := analyzer.Analyzer.Flags.Lookup("rules-inline")
	if err := f.Value.Set("version: 1\ntarget: valkey-9\n"); err != nil {
		t.Fatal(err)
	}
	defer f.Value.Set("")
	analysistest.Run(t, testdata(t), checked, "./cluster/valkey")
}
