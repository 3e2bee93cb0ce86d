// Package rawcheck checks commands given as argument lists, as clients that
// build commands as values send them (rueidis, valkey-go): the keys of each
// command, found through the commands table of slotlint's rules, and the
// keys of each WATCH ... MULTI ... EXEC transaction must share a slot, as a
// Redis Cluster requires.
//
// It is the client-independent part of the runtime hooks for those clients
// (clustercheck/rueidishook, clustercheck/valkeyhook), which live in
// modules of their own so that go-redis users do not build them. It
// talks to no server.
package rawcheck

import (
	"strings"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck/internal/crossslot"
	"github.com/slotlint/slotlint/ruleset"
)

// Kinds of Error.
const (
	KindCommand     = "command"     // one command's keys span slots
	KindTransaction = "transaction" // a transaction's keys span slots
)

// An Error is a command or transaction that a Redis Cluster would refuse
// with CROSSSLOT.
type Error struct {
	Kind string
	// Command names what was sent: "RENAME", "MULTI/EXEC".
	Command string
	// Keys are the keys involved, in order, and Slots their slots.
	Keys  []string
	Slots []int
	// Reason and Fix explain the fault, as keyspace.Colocation's do.
	Reason, Fix string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("CROSSSLOT Keys in request don't hash to the same slot (slotlint: ")
	b.WriteString(e.Command)
	b.WriteString(": ")
	b.WriteString(e.Reason)
	if e.Fix != "" {
		b.WriteString("; ")
		b.WriteString(e.Fix)
	}
	b.WriteString(")")
	return b.String()
}

// A Checker finds the keys of commands through a rule set's commands table.
// It is safe for concurrent use.
type Checker struct {
	rules *ruleset.Rules
}

// New returns a checker for the commands table of rules; nil means
// slotlint's built-in rules.
func New(rules *ruleset.Rules) *Checker {
	if rules == nil {
		rules = slotlint.Builtin()
	}
	return &Checker{rules: rules}
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

// Command checks one command sent on its own.
func (c *Checker) Command(argv []string) *Error {
	if len(argv) == 0 {
		return nil
	}
	return colocation(KindCommand, strings.ToUpper(argv[0]), c.Keys(argv))
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
	keys := t.c.Keys(argv)
	if e := colocation(KindCommand, name, keys); e != nil {
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
