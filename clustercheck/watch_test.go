package clustercheck_test

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// TestWatchSemantics pins down, against a real redis-server, what WATCH
// protects, as the README's "What WATCH protects" explains: WATCH
// snapshots a version of each key, not its value. Each case runs WATCH,
// MULTI, a write and EXEC on one connection (a Conn), while another client
// touches the key in between; EXEC answers nil (redis.Nil here) when it
// aborts.
func TestWatchSemantics(t *testing.T) {
	s := redistest.StartStandalone(t)
	ctx := testCtx(t)
	other := s.Client(t)
	c := s.Client(t)

	// tx runs WATCH key, then between (another client's doing), then
	// MULTI, SET key "tx", EXEC, and says whether EXEC ran.
	tx := func(t *testing.T, key string, between func()) bool {
		t.Helper()
		conn := c.Conn()
		defer conn.Close()
		if err := conn.Do(ctx, "WATCH", key).Err(); err != nil {
			t.Fatal(err)
		}
		between()
		if err := conn.Do(ctx, "MULTI").Err(); err != nil {
			t.Fatal(err)
		}
		if err := conn.Do(ctx, "SET", key, "tx").Err(); err != nil {
			t.Fatal(err)
		}
		err := conn.Do(ctx, "EXEC").Err()
		if err != nil && err != redis.Nil {
			t.Fatal(err)
		}
		return err == nil
	}
	must := func(err error) {
		t.Helper()
		if err != nil && err != redis.Nil {
			t.Fatal(err)
		}
	}

	t.Run("untouched key commits", func(t *testing.T) {
		must(other.Set(ctx, "w:plain", "1", 0).Err())
		if !tx(t, "w:plain", func() {}) {
			t.Error("EXEC aborted with no change to the watched key")
		}
	})
	t.Run("changed and changed back aborts", func(t *testing.T) {
		must(other.Set(ctx, "w:aba", "1", 0).Err())
		if tx(t, "w:aba", func() {
			must(other.Set(ctx, "w:aba", "2", 0).Err())
			must(other.Set(ctx, "w:aba", "1", 0).Err())
		}) {
			t.Error("EXEC ran although the watched key was written (and restored)")
		}
	})
	t.Run("expiry before EXEC aborts", func(t *testing.T) {
		must(other.Set(ctx, "w:ttl", "1", 20*time.Millisecond).Err())
		if tx(t, "w:ttl", func() {
			// Wait for the key to expire; nothing reads or deletes it.
			time.Sleep(100 * time.Millisecond)
		}) {
			t.Error("EXEC ran although the watched key expired")
		}
	})
	t.Run("missing key created by another client aborts", func(t *testing.T) {
		must(other.Del(ctx, "w:new").Err())
		if tx(t, "w:new", func() { must(other.Set(ctx, "w:new", "1", 0).Err()) }) {
			t.Error("EXEC ran although the watched key was created")
		}
		// Watching a missing key is legal: left alone, EXEC runs.
		must(other.Del(ctx, "w:new2").Err())
		if !tx(t, "w:new2", func() {}) {
			t.Error("EXEC aborted on a missing watched key nobody created")
		}
	})
	t.Run("own write in the transaction does not abort", func(t *testing.T) {
		must(other.Set(ctx, "w:own", "1", 0).Err())
		conn := c.Conn()
		defer conn.Close()
		for _, args := range [][]any{{"WATCH", "w:own"}, {"MULTI"}, {"SET", "w:own", "a"}, {"INCR", "w:own:n"}, {"SET", "w:own", "b"}} {
			must(conn.Do(ctx, args...).Err())
		}
		res, err := conn.Do(ctx, "EXEC").Slice()
		if err != nil || len(res) != 3 {
			t.Fatalf("EXEC: %v %v", res, err)
		}
		if v := other.Get(ctx, "w:own").Val(); v != "b" {
			t.Errorf("w:own = %q", v)
		}
	})
	t.Run("EXEC and DISCARD clear the watch set", func(t *testing.T) {
		for _, end := range []string{"EXEC", "DISCARD"} {
			must(other.Set(ctx, "w:clear", "1", 0).Err())
			conn := c.Conn()
			for _, args := range [][]any{{"WATCH", "w:clear"}, {"MULTI"}, {"SET", "w:clear", "x"}, {end}} {
				must(conn.Do(ctx, args...).Err())
			}
			// The key changes after EXEC or DISCARD: a new transaction on
			// the same connection, without WATCH, is not aborted by it.
			must(other.Set(ctx, "w:clear", "2", 0).Err())
			must(conn.Do(ctx, "MULTI").Err())
			must(conn.Do(ctx, "SET", "w:clear", "3").Err())
			if err := conn.Do(ctx, "EXEC").Err(); err != nil {
				t.Errorf("after %s, EXEC: %v (the old WATCH still held)", end, err)
			}
			conn.Close()
		}
	})
	t.Run("WATCH inside MULTI is refused", func(t *testing.T) {
		conn := c.Conn()
		defer conn.Close()
		must(conn.Do(ctx, "MULTI").Err())
		err := conn.Do(ctx, "WATCH", "w:late").Err()
		if err == nil || err.Error() != "ERR WATCH inside MULTI is not allowed" {
			t.Errorf("WATCH inside MULTI: %v", err)
		}
		conn.Do(ctx, "DISCARD")
	})
}
