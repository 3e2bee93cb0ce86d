// Package crossslot is the colocation check that the go-redis hook
// (clustercheck) and the argument-list checker of the other clients' hooks
// (clustercheck/rawcheck) share: whether a command's literal keys span
// slots, each key's slot, and keyspace's reason and hashtag fix.
package crossslot

import (
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/slot"
)

// Split reports whether keys span more than one slot. When they do, it
// returns each key's slot, in order, and the reason and fix of
// keyspace.Colocate for the keys as literals. Keys in one slot cost no
// allocation.
func Split(keys []string) (slots []int, reason, fix string, split bool) {
	if len(keys) < 2 {
		return nil, "", "", false
	}
	first := slot.Of(keys[0])
	same := true
	for _, k := range keys[1:] {
		if slot.Of(k) != first {
			same = false
			break
		}
	}
	if same {
		return nil, "", "", false
	}
	lits := make([]keyspace.Key, len(keys))
	slots = make([]int, len(keys))
	for i, k := range keys {
		lits[i] = keyspace.Lit(k)
		slots[i] = slot.Of(k)
	}
	c := keyspace.Colocate(lits...)
	return slots, c.Reason, c.Fix, true
}

// Reply is Redis Cluster's reply to keys in different slots.
const Reply = "CROSSSLOT Keys in request don't hash to the same slot"

// Kinds of fault that both hooks report, beside keys in different slots.
const (
	KindWatchInMulti      = "watch-in-multi"
	KindNestedMulti       = "nested-multi"
	KindExecInMulti       = "exec-in-multi"
	KindPooledTransaction = "pooled-transaction"
	KindNoScript          = "noscript"
)

// Head is the reply Redis gives, or would give, to a fault of a kind, on
// command: Reply for keys in different slots.
func Head(kind, command string) string {
	switch kind {
	case KindWatchInMulti:
		return "ERR WATCH inside MULTI is not allowed"
	case KindNestedMulti:
		return "ERR MULTI calls can not be nested"
	case KindExecInMulti:
		return "ERR EXEC without MULTI"
	case KindPooledTransaction:
		return "ERR " + command + " through Do on a pooled client protects nothing"
	case KindNoScript:
		return "NOSCRIPT No matching script. Please use EVAL."
	}
	return Reply
}

// Message is the text of a hook's error: the reply Redis gives (or would
// give) head, then what slotlint found, "(slotlint: CMD: reason; fix)".
func Message(head, command, reason, fix string) string {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(" (slotlint: ")
	b.WriteString(command)
	b.WriteString(": ")
	b.WriteString(reason)
	if fix != "" {
		b.WriteString("; ")
		b.WriteString(fix)
	}
	b.WriteString(")")
	return b.String()
}
