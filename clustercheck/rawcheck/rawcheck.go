// Package rawcheck checks commands given as argument lists, as clients that
// build commands as values send them (rueidis, valkey-go): the keys of each
// command, found through the commands table of slotlint's rules, and the
// keys of each WATCH ... MULTI ... EXEC transaction must share a slot, as a
// Redis Cluster requires. A script run with EVAL, EVALSHA, EVAL_RO or
// EVALSHA_RO is checked by its source, with the Lua checks of the go-redis
// hook (package luacheck): keys it touches but was not given in KEYS, its
// flags, a write run with EVAL_RO. The checker learns sources from EVAL,
// EVAL_RO and SCRIPT LOAD, and from RegisterScript; Unseen tells the hook
// which EVALSHA it cannot check, so that the hook answers NOSCRIPT and the
// client sends the source with EVAL. With ClusterReadiness it reports too
// what else a cluster does unlike one server: keyspace-wide commands, also
// inside a script, and databases other than 0.
//
// It is the client-independent part of the runtime hooks for those clients
// (clustercheck/rueidishook, clustercheck/valkeyhook), which live in
// modules of their own so that go-redis users do not build them. It
// talks to no server.
package rawcheck

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck/internal/crossslot"
	"github.com/slotlint/slotlint/clustercheck/internal/scriptcheck"
	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

// Kinds of Error.
const (
	KindCommand     = "command"     // one command's keys span slots
	KindTransaction = "transaction" // a transaction's keys span slots
	// KindWatchInMulti is a WATCH sent inside MULTI, which Redis refuses:
	// "WATCH inside MULTI is not allowed".
	KindWatchInMulti = crossslot.KindWatchInMulti
	// KindNestedMulti is a MULTI sent inside MULTI, which Redis refuses:
	// "MULTI calls can not be nested".
	KindNestedMulti = crossslot.KindNestedMulti
	// KindKeyspaceWide and KindDatabase are what Readiness reports.
	KindKeyspaceWide = crossslot.KindKeyspaceWide
	KindDatabase     = crossslot.KindDatabase
	// KindScript is a script that touches keys it was not given in KEYS,
	// or whose flags a cluster refuses (package luacheck).
	KindScript = "script"
)

// An Error is a command or transaction that a Redis Cluster would refuse:
// with CROSSSLOT, or, for KindWatchInMulti and KindNestedMulti, as any
// Redis server refuses them; or, for KindKeyspaceWide and KindDatabase
// (Readiness), one that a cluster runs on one node or refuses.
type Error struct {
	Kind string
	// Command names what was sent: "RENAME", "MULTI/EXEC".
	Command string
	// Keys are the keys involved, in order, and Slots their slots.
	Keys  []string
	Slots []int
	// Reason and Fix explain the fault, as keyspace.Colocation's do, or
	// as the script check's findings do.
	Reason, Fix string
	// Script holds the script check's findings, for KindScript.
	Script []luacheck.Finding
}

func (e *Error) Error() string {
	return crossslot.Message(crossslot.Head(e.Kind, e.Command), e.Command, e.Reason, e.Fix)
}

// A Checker finds the keys of commands through a rule set's commands table.
// It is safe for concurrent use.
type Checker struct {
	rules   *ruleset.Rules
	scripts *scriptcheck.Cache            // shared with the checkers of OneNode
	cmds    func(string) *ruleset.Command // rules.Command, for the Lua checks
	// readiness adds Readiness's faults to Command and Conn.Feed, and the
	// keyspace-wide calls to the script checks (ClusterReadiness).
	readiness bool
	// oneNode leaves keyspace-wide commands alone (OneNode).
	oneNode bool
}

// New returns a checker for the commands table of rules; nil means
// slotlint's built-in rules.
func New(rules *ruleset.Rules) *Checker {
	if rules == nil {
		rules = slotlint.Builtin()
	}
	return &Checker{rules: rules, scripts: new(scriptcheck.Cache), cmds: luacheck.CommandsFrom(rules)}
}

// Keys returns the keys of a command, argv[0] its name. A command the
// table does not know has none.
func (c *Checker) Keys(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	var cmd *ruleset.Command
	if len(argv) > 1 {
		cmd = c.rules.Command(argv[0], argv[1])
	} else {
		cmd = c.rules.Command(argv[0])
	}
	if cmd == nil {
		return nil
	}
	pos, _ := cmd.KeyPositions(argv)
	keys := make([]string, 0, len(pos))
	for _, p := range pos {
		keys = append(keys, argv[p])
	}
	return keys
}

// ClusterReadiness makes Command, Batch and Conn.Feed report what Readiness
// reports, and a script that calls a keyspace-wide command (KindScript),
// besides keys in different slots. Call it before the checker is used.
func (c *Checker) ClusterReadiness() { c.readiness = true }

// Command checks one command sent on its own.
func (c *Checker) Command(argv []string) *Error {
	if len(argv) == 0 {
		return nil
	}
	name := strings.ToUpper(argv[0])
	if e := c.ready(argv); e != nil {
		return e
	}
	if e := colocation(KindCommand, name, c.Keys(argv)); e != nil {
		return e
	}
	return c.script(name, argv)
}

// Readiness checks what a cluster does with one command unlike one server,
// besides the slots of its keys: a keyspace-wide command (KEYS, SCAN,
// RANDOMKEY, ...: the rules' commands table) reaches one node, with
// KindKeyspaceWide; a database other than 0 (SELECT n, SWAPDB, MOVE,
// COPY ... DB n) is refused, with KindDatabase, unless the rules' target
// is valkey-9. It returns nil for anything else.
func (c *Checker) Readiness(argv []string) *Error {
	if len(argv) == 0 {
		return nil
	}
	name := strings.ToUpper(argv[0])
	kind, reason, fix, ok := crossslot.Readiness(c.rules, name, argv[1:])
	if !ok {
		return nil
	}
	return &Error{Kind: kind, Command: name, Reason: reason, Fix: fix}
}

// OneNode returns a checker for the client of one node (rueidis's
// Nodes()), which knows the scripts c knows and learns along with it.
// With ClusterReadiness it leaves keyspace-wide commands alone, also
// inside scripts: sent on one node's client, KEYS or SCAN is meant for
// that node, as the fix of the keyspace-wide fault runs it on every
// master. It still reports databases other than 0, which a node of a
// cluster refuses. Call it after ClusterReadiness.
func (c *Checker) OneNode() *Checker {
	n := *c
	n.oneNode = true
	return &n
}

// ready returns Readiness's fault of argv with ClusterReadiness, or nil.
func (c *Checker) ready(argv []string) *Error {
	if !c.readiness {
		return nil
	}
	e := c.Readiness(argv)
	if e != nil && c.oneNode && e.Kind == KindKeyspaceWide {
		return nil
	}
	return e
}

// RegisterScript gives the checker the source of a script that the program
// runs with EVALSHA without ever sending its source through the hook (it
// was loaded elsewhere), so that its calls are checked.
func (c *Checker) RegisterScript(src string) { c.scripts.Remember(src) }

// Unseen reports whether argv is an EVALSHA or EVALSHA_RO of a script
// whose source the checker has not seen, which it cannot check. A hook
// answers it with NOSCRIPT, unsent, as a server with an empty script
// cache does, so that the client sends the source with EVAL.
func (c *Checker) Unseen(argv []string) bool {
	if len(argv) < 2 {
		return false
	}
	switch strings.ToUpper(argv[0]) {
	case "EVALSHA", "EVALSHA_RO":
		return c.scripts.Lookup(argv[1]) == nil
	}
	return false
}

// script checks a script by its source: name is argv[0] in upper case.
// It learns the source of EVAL, EVAL_RO and SCRIPT LOAD.
func (c *Checker) script(name string, argv []string) *Error {
	var entry *scriptcheck.Entry
	switch name {
	case "SCRIPT":
		if len(argv) >= 3 && strings.EqualFold(argv[1], "LOAD") {
			c.scripts.Remember(argv[2])
		}
		return nil
	case "EVAL", "EVAL_RO", "EVALSHA", "EVALSHA_RO":
	default:
		return nil
	}
	n, ok := scriptcheck.NumKeys(argv)
	if !ok {
		return nil // the server rejects it
	}
	if name == "EVAL" || name == "EVAL_RO" {
		entry = c.scripts.Remember(argv[1])
	} else if entry = c.scripts.Lookup(argv[1]); entry == nil {
		return nil
	}
	found := entry.Check(argv[2:], n, name == "EVAL_RO" || name == "EVALSHA_RO", scriptcheck.Specs{
		ID: c.rules, Command: c.cmds, Settled: true, KeyspaceWide: c.readiness && !c.oneNode,
	})
	if len(found) == 0 {
		return nil
	}
	keys := argv[3 : 3+n]
	slots := make([]int, len(keys))
	for i, k := range keys {
		slots[i] = slot.Of(k)
	}
	return &Error{
		Kind: KindScript, Command: name, Keys: keys, Slots: slots,
		Reason: scriptcheck.Reason(found), Script: found,
	}
}

// colocation returns an Error when keys span slots.
func colocation(kind, command string, keys []string) *Error {
	slots, reason, fix, split := crossslot.Split(keys)
	if !split {
		return nil
	}
	return &Error{Kind: kind, Command: command, Keys: keys, Slots: slots, Reason: reason, Fix: fix}
}

// A Conn follows the transaction state of one connection: the keys WATCHed,
// and, between MULTI and EXEC, the keys of the commands queued. Feed it
// every command sent on the connection, in order. A Conn is not safe for
// concurrent use; a dedicated connection is used by one goroutine at a
// time.
type Conn struct {
	c       *Checker
	watched []string
	multi   bool
	keys    []string
}

// Conn returns the state of a new connection.
func (c *Checker) Conn() *Conn { return &Conn{c: c} }

// Feed checks a command about to be sent on the connection: its own keys,
// and, inside MULTI, its keys with those WATCHed and queued before. A
// command that fails the check is not counted in the transaction, as a
// cluster refuses it when it is queued.
func (t *Conn) Feed(argv []string) *Error {
	if len(argv) == 0 {
		return nil
	}
	name := strings.ToUpper(argv[0])
	switch {
	case name == "MULTI" && t.multi:
		return &Error{
			Kind: KindNestedMulti, Command: "MULTI",
			Reason: "MULTI sent inside MULTI: Redis refuses it (\"MULTI calls can not be nested\") and still runs the commands queued at EXEC",
			Fix:    "send MULTI once, at the start of the transaction",
		}
	case name == "WATCH" && t.multi:
		keys := argv[1:]
		e := &Error{
			Kind: KindWatchInMulti, Command: "WATCH", Keys: keys,
			Reason: "WATCH " + quoteList(keys) + " sent inside MULTI: Redis refuses it (\"WATCH inside MULTI is not allowed\"), and the keys are not watched",
			Fix:    "send WATCH before MULTI",
		}
		for _, k := range keys {
			e.Slots = append(e.Slots, slot.Of(k))
		}
		return e
	}
	switch name {
	case "MULTI":
		t.multi, t.keys = true, nil
		return nil
	case "EXEC", "DISCARD":
		t.multi, t.keys, t.watched = false, nil, nil
		return nil
	case "UNWATCH":
		t.watched = nil
		return nil
	}
	if e := t.c.ready(argv); e != nil {
		return e
	}
	keys := t.c.Keys(argv)
	if e := colocation(KindCommand, name, keys); e != nil {
		return e
	}
	if e := t.c.script(name, argv); e != nil {
		return e
	}
	switch {
	case name == "WATCH":
		all := append(append([]string(nil), t.watched...), keys...)
		if e := colocation(KindTransaction, "WATCH", all); e != nil {
			return e
		}
		t.watched = all
	case t.multi:
		all := append(append(append([]string(nil), t.watched...), t.keys...), keys...)
		if e := colocation(KindTransaction, "MULTI/EXEC", all); e != nil {
			return e
		}
		t.keys = append(t.keys, keys...)
	}
	return nil
}

// Batch checks commands sent together in one round trip (rueidis's
// DoMulti) on a connection of a pool: each command alone, and each run
// from MULTI to EXEC as a transaction. It returns the index of the first
// command at fault and its Error, or -1 and nil.
func (c *Checker) Batch(cmds [][]string) (int, *Error) {
	t := c.Conn()
	for i, argv := range cmds {
		if e := t.Feed(argv); e != nil {
			return i, e
		}
	}
	return -1, nil
}

func quoteList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, " ")
}

// Arg returns a command argument as the text go-redis (v6 to v9) writes
// to the wire: a string or []byte as it is, a number in decimal, a bool as
// 1 or 0.
func Arg(v any) string {
	switch a := v.(type) {
	case string:
		return a
	case []byte:
		return string(a)
	case int:
		return strconv.Itoa(a)
	case int64:
		return strconv.FormatInt(a, 10)
	case int32:
		return strconv.FormatInt(int64(a), 10)
	case int16:
		return strconv.FormatInt(int64(a), 10)
	case int8:
		return strconv.FormatInt(int64(a), 10)
	case uint:
		return strconv.FormatUint(uint64(a), 10)
	case uint64:
		return strconv.FormatUint(a, 10)
	case uint32:
		return strconv.FormatUint(uint64(a), 10)
	case uint16:
		return strconv.FormatUint(uint64(a), 10)
	case uint8:
		return strconv.FormatUint(uint64(a), 10)
	case float64:
		return strconv.FormatFloat(a, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(a), 'f', -1, 32)
	case bool:
		if a {
			return "1"
		}
		return "0"
	case nil:
		return ""
	case fmt.Stringer:
		return a.String()
	}
	return fmt.Sprint(v)
}

// Args returns the text of each argument of a command, as Arg does.
func Args(args []any) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = Arg(a)
	}
	return out
}

// TB is the part of testing.TB that Log.FailTest uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Cleanup(func())
}

// A Log keeps what a hook found. It is safe for concurrent use.
type Log struct {
	mu       sync.Mutex
	findings []*Error
	failTest bool
}

// FailTest makes the log fail t with every finding when t ends; Record then
// lets the commands at fault through.
func (l *Log) FailTest(t TB) {
	l.failTest = true
	t.Cleanup(func() {
		t.Helper()
		for _, e := range l.Findings() {
			t.Errorf("%v", e)
		}
	})
}

// Record keeps e, if it is not nil, and reports whether the command at
// fault must fail: always, unless FailTest was called.
func (l *Log) Record(e *Error) bool {
	if e == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.findings = append(l.findings, e)
	return !l.failTest
}

// Findings returns what was recorded, in order.
func (l *Log) Findings() []*Error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*Error(nil), l.findings...)
}
