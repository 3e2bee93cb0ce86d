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
