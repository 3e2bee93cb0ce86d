package clustercheck

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// TestParseCommandReply reads the server's COMMAND in RESP2 and RESP3 and
// compares the key specs with the rules' commands table, generated from the
// same Redis version.
func TestParseCommandReply(t *testing.T) {
	s := redistest.StartStandalone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	local := defaultRules().Commands
	for _, protocol := range []int{2, 3} {
		o := s.Options()
		o.Protocol = protocol
		c := redis.NewClient(o)
		defer c.Close()
		cmd := redis.NewSliceCmd(ctx, "command")
		if err := c.Process(ctx, cmd); err != nil {
			t.Fatal(err)
		}
		server, err := parseCommandReply(cmd.Val())
		if err != nil {
			t.Fatal(err)
		}
		if len(server) < 200 {
			t.Fatalf("RESP%d: %d commands", protocol, len(server))
		}
		compared := 0
		for name, sc := range server {
			lc := local[name]
			if lc == nil {
				continue
			}
			compared++
			if !reflect.DeepEqual(sc.Keys, lc.Keys) && !(len(sc.Keys) == 0 && len(lc.Keys) == 0) {
				t.Errorf("RESP%d %s: server key specs %+v, rules %+v", protocol, name, sc.Keys, lc.Keys)
			}
			if sc.Split != lc.Split || sc.Arity != lc.Arity || sc.IsWrite() != lc.IsWrite() {
				t.Errorf("RESP%d %s: server %+v, rules %+v", protocol, name, sc, lc)
			}
		}
		if compared < 200 {
			t.Errorf("RESP%d: compared %d commands", protocol, compared)
		}
	}
}

// TestHookFetchesServerSpecs checks that the hook asks the server for its
// key specs once a command with keys goes by, and not with LocalSpecs.
func TestHookFetchesServerSpecs(t *testing.T) {
	s := redistest.StartStandalone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, local := range []bool{false, true} {
		c := redis.NewClient(s.Options())
		defer c.Close()
		var opts []HookOption
		if local {
			opts = append(opts, LocalSpecs())
		}
		h := NewHook(opts...)
		c.AddHook(h)
		if err := c.Ping(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		if h.table.server.Load() != nil {
			t.Fatal("COMMAND fetched for PING")
		}
		c.Del(ctx, "{a}1", "{a}2")
		if got := h.table.server.Load() != nil; got == local {
			t.Errorf("LocalSpecs %v: server table fetched %v (%v)", local, got, h.table.fetchErr)
		}
	}
}
