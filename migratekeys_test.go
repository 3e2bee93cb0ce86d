package slotlint

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

// TestMigrateKeyPositions checks MIGRATE's keys, the one command whose key
// specs Redis marks INCOMPLETE, against a real server: COMMAND GETKEYS
// gives the server's own keys of each form, and the rules' KeyPositions
// must give the same. In the form with KEYS the key argument is "", which
// is no key: a MIGRATE of one key that way is not refused as across
// slots, and one of two keys of two slots is.
func TestMigrateKeyPositions(t *testing.T) {
	c := redistest.Shared(t)
	rdb := c.Client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := Builtin().Command("MIGRATE")
	if cmd == nil {
		t.Fatal("no MIGRATE in the built-in rules")
	}
	for _, argv := range [][]string{
		{"MIGRATE", "127.0.0.1", "1", "mig:one", "0", "100"},
		{"MIGRATE", "127.0.0.1", "1", "mig:one", "0", "100", "COPY", "REPLACE"},
		{"MIGRATE", "127.0.0.1", "1", "", "0", "100", "KEYS", "mig:a", "mig:b"},
		{"MIGRATE", "127.0.0.1", "1", "", "0", "100", "REPLACE", "AUTH", "pw", "KEYS", "mig:a"},
		{"MIGRATE", "127.0.0.1", "1", "", "0", "100", "AUTH2", "user", "pw", "KEYS", "mig:a", "mig:b", "mig:c"},
	} {
		args := make([]interface{}, len(argv))
		for i, a := range argv {
			args[i] = a
		}
		want, err := rdb.CommandGetKeys(ctx, args...).Result()
		if err != nil {
			t.Fatalf("COMMAND GETKEYS %q: %v", argv, err)
		}
		pos, ok := cmd.KeyPositions(argv)
		var got []string
		for _, p := range pos {
			got = append(got, argv[p])
		}
		if !ok || !slices.Equal(got, want) {
			t.Errorf("%s: KeyPositions gives %q (ok %v), the server %q", strings.Join(argv, " "), got, ok, want)
		}
	}

	// On the node that serves a key's slot, MIGRATE "" ... KEYS of that
	// key is not refused as across slots (the key does not exist: NOKEY);
	// KEYS of two keys of two slots is.
	key := "mig:one"
	if slot.Of(key) == slot.Of("") {
		t.Fatalf("%q hashes to the slot of \"\"", key)
	}
	owner, err := c.Owner(slot.Of(key))
	if err != nil {
		t.Fatal(err)
	}
	node := redis.NewClient(&redis.Options{Addr: owner.Addr})
	defer node.Close()
	if reply, err := node.Do(ctx, "MIGRATE", "127.0.0.1", "1", "", "0", "100", "KEYS", key).Result(); err != nil || reply != "NOKEY" {
		t.Errorf(`MIGRATE "" ... KEYS %s on its node: %v, %v; want NOKEY`, key, reply, err)
	}
	other := "mig:two"
	if slot.Of(other) == slot.Of(key) {
		t.Fatalf("%q and %q share a slot", key, other)
	}
	if err := node.Do(ctx, "MIGRATE", "127.0.0.1", "1", "", "0", "100", "KEYS", key, other).Err(); err == nil || !strings.HasPrefix(err.Error(), "CROSSSLOT") {
		t.Errorf(`MIGRATE "" ... KEYS %s %s on a cluster node: %v; want CROSSSLOT`, key, other, err)
	}
}
