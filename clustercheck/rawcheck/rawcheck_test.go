package rawcheck

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/slotlint/slotlint"
)

func TestCommand(t *testing.T) {
	c := New(nil)
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"RENAME", "tmp:user:123:cache", "user:123:cache"}, `RENAME: keys "tmp:user:123:cache" (slot 4489) and "user:123:cache" (slot 7641) hash to different slots`},
		{[]string{"RENAME", "tmp:{user:123}:cache", "{user:123}:cache"}, ""},
		{[]string{"MGET", "cart:1", "cart:2"}, `MGET: keys "cart:1" (slot 1420) and "cart:2" (slot 13807)`},
		{[]string{"EVALSHA", "0123", "2", "job:a", "job:b", "arg"}, `EVALSHA: keys "job:a"`},
		{[]string{"EVALSHA", "0123", "1", "job:a", "job:b"}, ""},
		{[]string{"OBJECT", "ENCODING", "a"}, ""},
		{[]string{"NOSUCHCOMMAND", "a", "b"}, ""},
		{nil, ""},
	} {
		e := c.Command(tc.argv)
		switch {
		case tc.want == "" && e != nil:
			t.Errorf("%q: %v", tc.argv, e)
		case tc.want != "" && (e == nil || !strings.Contains(e.Error(), tc.want)):
			t.Errorf("%q: got %v, want %s", tc.argv, e, tc.want)
		}
	}
}

func TestTransaction(t *testing.T) {
	c := New(nil)
	i, e := c.Batch([][]string{{"MULTI"}, {"INCR", "foo"}, {"INCR", "bar"}, {"EXEC"}})
	if i != 2 || e == nil || e.Kind != KindTransaction || !strings.Contains(e.Error(), `MULTI/EXEC: keys "foo" (slot 12182) and "bar" (slot 5061)`) {
		t.Errorf("cross-slot transaction: %d %v", i, e)
	}
	if i, e := c.Batch([][]string{{"MULTI"}, {"INCR", "{stats}:foo"}, {"INCR", "{stats}:bar"}, {"EXEC"}}); e != nil {
		t.Errorf("hashtagged transaction: %d %v", i, e)
	}
	// A pipeline is not a transaction: each command to its own slot.
	if i, e := c.Batch([][]string{{"SET", "a", "1"}, {"SET", "b", "1"}}); e != nil {
		t.Errorf("pipeline: %d %v", i, e)
	}
	// After EXEC, a new transaction starts clean.
	if i, e := c.Batch([][]string{{"MULTI"}, {"INCR", "a"}, {"EXEC"}, {"MULTI"}, {"INCR", "b"}, {"EXEC"}}); e != nil {
		t.Errorf("two transactions: %d %v", i, e)
	}
	// WATCH keys join the transaction that follows.
	conn := c.Conn()
	for _, argv := range [][]string{{"WATCH", "balance:{a}"}, {"GET", "balance:{a}"}, {"MULTI"}} {
		if e := conn.Feed(argv); e != nil {
			t.Fatalf("%q: %v", argv, e)
		}
	}
	if e := conn.Feed([]string{"DECRBY", "balance:b", "10"}); e == nil || !strings.Contains(e.Error(), `"balance:{a}"`) {
		t.Errorf("a write under WATCH to another slot: %v", e)
	}
	if e := conn.Feed([]string{"DECRBY", "balance:{a}", "10"}); e != nil {
		t.Errorf("same slot: %v", e)
	}
	// WATCH and MULTI inside MULTI: refused, and the state is kept.
	if e := conn.Feed([]string{"WATCH", "balance:c"}); e == nil || e.Kind != KindWatchInMulti || !strings.HasPrefix(e.Error(), `ERR WATCH inside MULTI is not allowed (slotlint: WATCH: WATCH "balance:c" sent inside MULTI`) {
		t.Errorf("WATCH inside MULTI: %v", e)
	}
	if e := conn.Feed([]string{"MULTI"}); e == nil || e.Kind != KindNestedMulti || !strings.HasPrefix(e.Error(), "ERR MULTI calls can not be nested (slotlint: MULTI: ") {
		t.Errorf("MULTI inside MULTI: %v", e)
	}
	if e := conn.Feed([]string{"DECRBY", "balance:b", "10"}); e == nil || !strings.Contains(e.Error(), `"balance:{a}"`) {
		t.Errorf("after a nested MULTI, the transaction's keys are kept: %v", e)
	}
	if e := conn.Feed([]string{"EXEC"}); e != nil {
		t.Error(e)
	}
	if e := conn.Feed([]string{"SET", "other", "1"}); e != nil {
		t.Errorf("after EXEC: %v", e)
	}
}

// TestScript checks scripts by their source, learnt from EVAL and SCRIPT
// LOAD; an EVALSHA of another script is Unseen.
func TestScript(t *testing.T) {
	c := New(nil)
	bad := `return redis.call('GET', 'config:' .. ARGV[1])`
	sha := "d8a8d5ee2bd3ed4fb4d8e5e1bb9ba0df38ce4a5b" // not bad's
	if !c.Unseen([]string{"EVALSHA", sha, "0"}) || c.Unseen([]string{"GET", "a"}) {
		t.Error("Unseen")
	}
	e := c.Command([]string{"EVAL", bad, "1", "{s}1", "x"})
	if e == nil || e.Kind != KindScript || len(e.Script) != 1 || !strings.Contains(e.Error(), "EVAL: script ") || !strings.Contains(e.Error(), "not declared in KEYS") {
		t.Fatalf("EVAL of a script with an undeclared key: %v", e)
	}
	// An undeclared key in the slot of KEYS, which a cluster runs, is the
	// linter's warning (undeclared-key-same-slot), not the hook's.
	if e := c.Command([]string{"EVAL", `return redis.call('GET', 'config:' .. KEYS[1])`, "1", "{s}1"}); e != nil {
		t.Errorf("an undeclared key in the slot of KEYS: %v", e)
	}
	// Learnt from EVAL: its EVALSHA is seen and checked.
	sum := sha1.Sum([]byte(bad))
	if e := c.Command([]string{"EVALSHA", hex.EncodeToString(sum[:]), "1", "{s}1", "x"}); e == nil || !strings.Contains(e.Error(), "EVALSHA: script ") {
		t.Errorf("EVALSHA of a script learnt from EVAL: %v", e)
	}
	// Learnt from SCRIPT LOAD.
	if e := c.Command([]string{"SCRIPT", "LOAD", "return 1"}); e != nil {
		t.Fatal(e)
	}
	const one = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db" // SHA1 of "return 1"
	if c.Unseen([]string{"EVALSHA", one, "0"}) {
		t.Errorf("SCRIPT LOAD's script is unseen")
	}
	if e := c.Command([]string{"EVALSHA", one, "0"}); e != nil {
		t.Errorf("EVALSHA of a clean script: %v", e)
	}
	// A write run with EVAL_RO; the same script with EVAL is fine, and a
	// read-only script with EVAL_RO too.
	write := `return redis.call('SET', KEYS[1], ARGV[1])`
	if e := c.Command([]string{"EVAL_RO", write, "1", "k", "v"}); e == nil || !strings.Contains(e.Error(), "runs with EVAL_RO") {
		t.Errorf("EVAL_RO of a write: %v", e)
	}
	if e := c.Command([]string{"EVAL", write, "1", "k", "v"}); e != nil {
		t.Errorf("EVAL of a write: %v", e)
	}
	if e := c.Command([]string{"EVAL_RO", "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])", "1", "k"}); e != nil {
		t.Errorf("EVAL_RO of a read: %v", e)
	}
	// Inside a transaction, on a connection.
	conn := c.Conn()
	conn.Feed([]string{"MULTI"})
	if e := conn.Feed([]string{"EVAL", bad, "1", "{s}1", "y"}); e == nil || e.Kind != KindScript {
		t.Errorf("script in MULTI: %v", e)
	}
}

// Readiness reports keyspace-wide commands and databases other than 0, as
// the go-redis hook's ClusterReadiness does, for the rueidis and valkey-go
// hooks; under target: valkey-9 it leaves databases alone.
func TestReadiness(t *testing.T) {
	c := New(nil)
	for _, tc := range []struct {
		argv []string
		want string // the message's start, "" for no fault
	}{
		{[]string{"KEYS", "user:*"}, "ERR KEYS reaches one node of a cluster (slotlint: KEYS: a cluster client sends KEYS to one node"},
		{[]string{"scan", "0", "MATCH", "user:*"}, "ERR SCAN reaches one node of a cluster"},
		{[]string{"FLUSHDB"}, "ERR FLUSHDB reaches one node of a cluster"},
		{[]string{"SELECT", "2"}, "ERR SELECT is not allowed in cluster mode (slotlint: SELECT: database 2"},
		{[]string{"SWAPDB", "0", "1"}, "ERR SWAPDB is not allowed in cluster mode"},
		{[]string{"MOVE", "k", "3"}, "ERR MOVE is not allowed in cluster mode"},
		{[]string{"COPY", "a", "b", "DB", "1", "REPLACE"}, "ERR Copying to another database is not allowed in cluster mode"},
		{[]string{"SELECT", "0"}, ""},
		{[]string{"COPY", "{a}1", "{a}2", "REPLACE"}, ""},
		{[]string{"HSCAN", "h", "0"}, ""},
		{[]string{"GET", "k"}, ""},
	} {
		e := c.Readiness(tc.argv)
		switch {
		case tc.want == "" && e != nil:
			t.Errorf("%q: %v, want nothing", tc.argv, e)
		case tc.want != "" && (e == nil || !strings.HasPrefix(e.Error(), tc.want)):
			t.Errorf("%q: %v, want a message starting %q", tc.argv, e, tc.want)
		}
	}
	rules, err := slotlint.ParseRules("valkey.yaml", []byte("version: 1\ntarget: valkey-9\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := New(rules)
	if e := v.Readiness([]string{"SELECT", "2"}); e != nil {
		t.Errorf("SELECT 2 under valkey-9: %v", e)
	}
	if e := v.Readiness([]string{"KEYS", "*"}); e == nil || e.Kind != KindKeyspaceWide {
		t.Errorf("KEYS under valkey-9: %v, want a keyspace-wide fault", e)
	}
}

// With ClusterReadiness, Command, Batch and Conn.Feed report Readiness's
// faults and a script that calls KEYS; without it, none of them.
func TestClusterReadiness(t *testing.T) {
	script := []string{"EVAL", "return redis.call('KEYS', ARGV[1])", "0", "session:*"}
	plain := New(nil)
	for _, argv := range [][]string{{"KEYS", "*"}, {"SELECT", "3"}, script} {
		if e := plain.Command(argv); e != nil {
			t.Errorf("%q without ClusterReadiness: %v", argv, e)
		}
	}
	c := New(nil)
	c.ClusterReadiness()
	if e := c.Command([]string{"KEYS", "session:*"}); e == nil || e.Kind != KindKeyspaceWide {
		t.Errorf("KEYS: %v", e)
	}
	e := c.Command(script)
	if e == nil || e.Kind != KindScript || !strings.Contains(e.Error(), `redis.call("KEYS", ARGV[1]) reads the keys of one node`) {
		t.Errorf("a script that calls KEYS: %v", e)
	}
	if i, e := c.Batch([][]string{{"GET", "k"}, {"SCAN", "0"}}); i != 1 || e == nil || e.Kind != KindKeyspaceWide {
		t.Errorf("SCAN in a batch: %d, %v", i, e)
	}
	conn := c.Conn()
	conn.Feed([]string{"MULTI"})
	if e := conn.Feed([]string{"SELECT", "3"}); e == nil || e.Kind != KindDatabase {
		t.Errorf("SELECT 3 on a connection: %v", e)
	}
	for _, argv := range [][]string{{"SELECT", "0"}, {"HSCAN", "{o}h", "0"}, {"GET", "{o}k"}} {
		if e := conn.Feed(argv); e != nil {
			t.Errorf("%q: %v", argv, e)
		}
	}
}

// OneNode's checker, for one node's client, leaves keyspace-wide commands
// alone, also in scripts it learns from the other checker, and still
// reports databases other than 0.
func TestOneNode(t *testing.T) {
	c := New(nil)
	c.ClusterReadiness()
	node := c.OneNode()
	src := "return #redis.call('KEYS', ARGV[1])"
	if e := c.Command([]string{"SCRIPT", "LOAD", src}); e != nil {
		t.Fatal(e)
	}
	for _, argv := range [][]string{{"KEYS", "*"}, {"SCAN", "0"}, {"EVALSHA", sha1Hex(src), "0", "session:*"}} {
		if e := node.Command(argv); e != nil {
			t.Errorf("%q on one node: %v", argv, e)
		}
	}
	if e := c.Command([]string{"EVALSHA", sha1Hex(src), "0", "session:*"}); e == nil || e.Kind != KindScript {
		t.Errorf("the script on the cluster client: %v", e)
	}
	if e := node.Conn().Feed([]string{"SELECT", "3"}); e == nil || e.Kind != KindDatabase {
		t.Errorf("SELECT 3 on one node: %v", e)
	}
}

func sha1Hex(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}
