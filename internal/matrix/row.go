// Package matrix holds what each Redis client really does on a Redis
// Cluster, one function a row: a multi-key command sent alone, in a
// pipeline, in MULTI/EXEC, under WATCH, a script, KEYS and SCAN, and a
// database number in the client's options. The tests run every row on a
// real cluster, record what the client does (an error, a split, a partial
// answer), keep README.md's table equal to it, and run slotlint over these
// very functions: a row that fails must be reported at its line, a row that
// works must not.
//
// This file uses no client, so that the module of go-redis v9's oldest
// release (goredis9old) can share it with the go-redis v9 rows.
package matrix

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// A Shape is what a row does, the same for every client.
type Shape string

// The shapes. The keys of the one-slot shapes share the hashtag {price},
// {order} or {stock}; those of the cross-slot shapes hash to different
// slots, on different masters of the tests' cluster.
const (
	AloneOne       Shape = "alone-one-slot"    // MGET {price}:1 {price}:2
	AloneCross     Shape = "alone-cross-slot"  // MGET price:1 price:2
	DelCross       Shape = "del-cross-slot"    // DEL price:1 price:2 (go-redis v9 only)
	ExistsCross    Shape = "exists-cross-slot" // EXISTS price:1 price:2 (go-redis v9 only)
	MSetCross      Shape = "mset-cross-slot"   // MSET price:1 1 price:2 2 (go-redis v9 only)
	PipelineCross  Shape = "pipeline-cross"    // MGET price:1 price:2 queued in a plain pipeline
	PipelineSpread Shape = "pipeline-spread"   // GET price:1, GET price:2 in one plain pipeline
	MultiOne       Shape = "multi-one-slot"    // MULTI SET {order}:1 SET {order}:2 EXEC
	MultiCross     Shape = "multi-cross-slot"  // MULTI SET order:1 SET order:2 EXEC
	WatchOne       Shape = "watch-one-slot"    // WATCH {stock}:1 {stock}:2, then MULTI/EXEC of both
	WatchCross     Shape = "watch-cross-slot"  // WATCH stock:1 stock:2, then MULTI/EXEC of both
	ScriptOne      Shape = "script-one-slot"   // a script reading KEYS {price}:1 {price}:2
	ScriptCross    Shape = "script-cross-slot" // a script reading KEYS price:1 price:2
	ScriptCounted  Shape = "script-counted"    // the same with redigo's NewScript(-1, ...): the key count is Do's first argument (redigo only)
	Keys           Shape = "keys"              // KEYS scan:* after writing ScanKeys keys
	Scan           Shape = "scan"              // SCAN MATCH scan:* to the end, as the client iterates
	DB             Shape = "db-option"         // database 3 in the client's options, then SET db:probe
	ResolverAlone  Shape = "resolver-alone"    // MGET price:1 price:2 after SetCommandInfoResolver(NewDynamicResolver())
	ResolverDel    Shape = "resolver-del"      // DEL price:1 price:2 with the same resolver
	ResolverExists Shape = "resolver-exists"   // EXISTS price:1 price:2 with the same resolver
	ResolverMSet   Shape = "resolver-mset"     // MSET price:1 1 price:2 2 with the same resolver
	ResolverKeys   Shape = "resolver-keys"     // KEYS scan:* with the same resolver
	UniversalCross Shape = "universal-cross"   // MGET price:1 price:2 on NewUniversalClient with several addresses
	Connect        Shape = "connect"           // GET {price}:1 on a cluster client made with the addresses alone
)

// The keys the rows use. The tests write PriceOne and PriceCross with the
// values "1" and "2" before each row, and ScanKeys keys scan:0 ... before
// the KEYS and SCAN rows.
var (
	PriceOne   = [2]string{"{price}:1", "{price}:2"}
	PriceCross = [2]string{"price:1", "price:2"}
	OrderOne   = [2]string{"{order}:1", "{order}:2"}
	OrderCross = [2]string{"order:1", "order:2"}
	StockOne   = [2]string{"{stock}:1", "{stock}:2"}
	StockCross = [2]string{"stock:1", "stock:2"}
)

// ScanKeys is how many keys scan:0 ... scan:N-1 the KEYS and SCAN rows look for.
const ScanKeys = 30

// ReadBoth is the script of the script rows: it returns the values of its
// two keys.
const ReadBoth = "return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}"

// A Result is what a row saw: the error the client returned, and what it
// read (the values "1 2", or the number of keys KEYS or SCAN found).
type Result struct {
	Err error
	Got string
}

// A Row is one shape run through one client.
type Row struct {
	Shape Shape
	Run   func(ctx context.Context, e *Env) Result
}

// A Client is a client library and its rows.
type Client struct {
	Name string // "go-redis v9"
	// Module is the module path whose version the tests read from the
	// build, to name the client with its version.
	Module string
	// Cluster tells whether the library has a cluster client. redigo has
	// none: its rows send to one node, the owner of the first key's slot.
	Cluster bool
	// OneNode are the shapes that the library runs on the client of one
	// node even so: radix.v2's pipelines and transactions go on the
	// Client that its Cluster's GetForKey lends.
	OneNode []Shape
	Rows    []Row
}

// An Env is where the rows run: the cluster's seed addresses, and the
// address of the master that serves a key (for redigo).
type Env struct {
	Addrs []string
	Owner func(key string) string
	// Slots are the cluster's slot ranges and their masters, for go-redis
	// v6, v7 and v8, which cannot read a Redis 7 CLUSTER SLOTS reply (rows
	// Connect) and are given the slots in their options.
	Slots []Slots
}

// Slots is a range of slots and the address of their master.
type Slots struct {
	Start, End int
	Addr       string
}

// A Record is what a row saw, as goredis9old's test writes it for the
// matrix's tests to classify.
type Record struct {
	Shape   Shape
	Func    string // the row's function
	Version string // go-redis's version
	Err     string // the error's text, "" for none
	Got     string
	DBProbe bool // whether the DB row's key is in the cluster afterwards
}

// values is the Result of a read of several values.
func values(err error, vals ...any) Result {
	if err != nil {
		return Result{Err: err}
	}
	s := make([]string, len(vals))
	for i, v := range vals {
		switch v := v.(type) {
		case nil:
			s[i] = "nil"
		case string:
			s[i] = v
		case []byte:
			s[i] = string(v)
		default:
			s[i] = "?"
		}
	}
	return Result{Got: strings.Join(s, " ")}
}

// strs is the Result of a read of several strings: radix's
// Do(Cmd(&out, ...)) fills out and returns the error, others return both.
func strs(vals []string, err error) Result {
	if err != nil {
		return Result{Err: err}
	}
	return Result{Got: strings.Join(vals, " ")}
}

// anys is the Result of a read of values of any type.
func anys(vals []any, err error) Result { return values(err, vals...) }

// list is the Result of a reply that should be a list.
func list(v any, err error) Result {
	if err != nil {
		return Result{Err: err}
	}
	vals, ok := v.([]any)
	if !ok {
		return Result{Got: "?"}
	}
	return values(nil, vals...)
}

// count is the Result of a listing of keys: how many it found.
func count(n int, err error) Result {
	if err != nil {
		return Result{Err: err}
	}
	return Result{Got: strconv.Itoa(n)}
}

// done is the Result of a write.
func done(err error) Result { return Result{Err: err} }

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ModuleVersion returns the version of the module path that go.mod
// requires, without "+incompatible": the version the build uses, as the
// module's go.mod is tidy.
func ModuleVersion(gomod []byte, path string) (string, error) {
	for line := range strings.Lines(string(gomod)) {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == path {
			return strings.TrimSuffix(f[1], "+incompatible"), nil
		}
	}
	return "", fmt.Errorf("go.mod does not require %s", path)
}
