package rawcheck

import (
	"strings"
	"testing"
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
	if e := conn.Feed([]string{"EXEC"}); e != nil {
		t.Error(e)
	}
	if e := conn.Feed([]string{"SET", "other", "1"}); e != nil {
		t.Errorf("after EXEC: %v", e)
	}
}
