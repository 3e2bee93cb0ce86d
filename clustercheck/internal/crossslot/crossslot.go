// Package crossslot is the colocation check that the go-redis hook
// (clustercheck) and the argument-list checker of the other clients' hooks
// (clustercheck/rawcheck) share: whether a command's literal keys span
// slots, each key's slot, and keyspace's reason and hashtag fix; the reply
// Redis gives to each kind of fault; and what else a cluster does unlike
// one server (Readiness).
package crossslot

import (
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
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
	// KindKeyspaceWide: KEYS, SCAN and the other keyspace-wide commands,
	// which a cluster client sends to one node (the hooks' readiness
	// checks).
	KindKeyspaceWide = "keyspace-wide"
	// KindDatabase: a database other than 0, which a cluster refuses
	// (SELECT, SWAPDB, MOVE, COPY ... DB).
	KindDatabase = "database"
)

// databaseReplies are Redis Cluster's replies to commands that name
// another database, where they are not "ERR <COMMAND> is not allowed in
// cluster mode".
var databaseReplies = map[string]string{
	"COPY": "ERR Copying to another database is not allowed in cluster mode",
}

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
	case KindDatabase:
		if r, ok := databaseReplies[command]; ok {
			return r
		}
		return "ERR " + command + " is not allowed in cluster mode"
	case KindKeyspaceWide:
		// A cluster answers with one node's keys, and no error.
		return "ERR " + command + " reaches one node of a cluster"
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

// Readiness returns what a cluster does with a command unlike one server,
// besides the slots of its keys (the hooks' ClusterReadiness): a
// keyspace-wide command (the rules' commands table) reaches one node; a
// database other than 0 is refused, unless the rules' target has cluster
// databases. upper is the command's name in upper case, args the arguments
// after it. ok is false when there is nothing to report.
func Readiness(rules *ruleset.Rules, upper string, args []string) (kind, reason, fix string, ok bool) {
	if c := rules.Command(strings.ToLower(upper)); c != nil && c.KeyspaceWide {
		return KindKeyspaceWide,
			"a cluster client sends " + upper + " to one node, which answers for its own keys only, with no error",
			"run it on every master (ClusterClient.ForEachMaster, rueidis's Nodes()), or keep the keys you list in a set under one hashtag", true
	}
	if rules.ClusterHasDatabases() {
		return "", "", "", false
	}
	if db, found := Database(upper, args); found {
		return KindDatabase,
			"database " + db + ": a Redis Cluster has database 0 only, and a cluster client drops a DB option",
			"keep the data in database 0 and tell it apart by a key prefix", true
	}
	return "", "", "", false
}

// Database returns the database other than 0 that a command names, as a
// cluster would refuse it: SELECT n, SWAPDB a b, MOVE key db, COPY ... DB
// n (args without the command's name, upper case name). ok is false when
// the command names no other database.
func Database(name string, args []string) (db string, ok bool) {
	switch name {
	case "SELECT":
		if len(args) == 1 && args[0] != "0" {
			return args[0], true
		}
	case "SWAPDB":
		if len(args) == 2 {
			return args[0] + " and " + args[1], true
		}
	case "MOVE":
		if len(args) == 2 {
			return args[1], true
		}
	case "COPY":
		for i := 2; i+1 < len(args); i++ {
			if strings.EqualFold(args[i], "DB") && args[i+1] != "0" {
				return args[i+1], true
			}
		}
	}
	return "", false
}
