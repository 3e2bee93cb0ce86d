package slotlint

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

// TestKeyCountAtLeastOne sends each command of the built-in rules whose
// keys a count gives (ZUNIONSTORE dest numkeys key..., LMPOP numkeys
// key..., ...), scripts and functions aside, to a real cluster with a count
// of 0 and then of 1: the server refuses 0 and takes 1. This is what
// ruleset's LeastKeyPositions relies on where the code's count is not
// known: the argument after the count is a key. The commands the server
// has are all checked; those it lacks are newer than it and logged.
func TestKeyCountAtLeastOne(t *testing.T) {
	c := redistest.StartCluster(t)
	rdb := c.Client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const key, dest = "{kc}:a", "{kc}:d"
	if err := rdb.ZAdd(ctx, key, redis.Z{Score: 1, Member: "m"}).Err(); err != nil {
		t.Fatal(err)
	}
	// Each command with its count as "%d"; the other arguments valid.
	argv := map[string][]string{
		"zunionstore": {"ZUNIONSTORE", dest, "%d", key},
		"zinterstore": {"ZINTERSTORE", dest, "%d", key},
		"zdiffstore":  {"ZDIFFSTORE", dest, "%d", key},
		"zunion":      {"ZUNION", "%d", key},
		"zinter":      {"ZINTER", "%d", key},
		"zdiff":       {"ZDIFF", "%d", key},
		"zintercard":  {"ZINTERCARD", "%d", key},
		"sintercard":  {"SINTERCARD", "%d", "{kc}:set"},
		"lmpop":       {"LMPOP", "%d", "{kc}:list", "LEFT"},
		"blmpop":      {"BLMPOP", "0.01", "%d", "{kc}:list", "LEFT"},
		"zmpop":       {"ZMPOP", "%d", key, "MIN"},
		"bzmpop":      {"BZMPOP", "0.01", "%d", key, "MIN"},
	}
	infos, err := rdb.Command(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(maps.Keys(Builtin().Commands))
	for _, name := range names {
		cmd := Builtin().Commands[name]
		counted := false
		for _, ks := range cmd.Keys {
			counted = counted || ks.IsKeyNum
		}
		if !counted || strings.HasPrefix(name, "eval") || strings.HasPrefix(name, "fcall") {
			continue
		}
		if _, ok := infos[name]; !ok {
			t.Logf("%s: not a command of this server (newer), not checked", name)
			continue
		}
		args, ok := argv[name]
		if !ok {
			t.Errorf("%s counts its keys: give it a case here", name)
			continue
		}
		for _, n := range []string{"0", "1"} {
			var do []interface{}
			for _, a := range args {
				do = append(do, strings.Replace(a, "%d", n, 1))
			}
			err := rdb.Do(ctx, do...).Err()
			if err != nil && err.Error() == "redis: nil" {
				err = nil // a pop from an empty key
			}
			switch {
			case n == "0" && err == nil:
				t.Errorf("%v: the server took a count of 0", do)
			case n == "1" && err != nil:
				t.Errorf("%v: %v", do, err)
			}
		}
	}
}

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
