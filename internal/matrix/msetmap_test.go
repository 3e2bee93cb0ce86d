package matrix

import (
	"context"
	"strings"
	"testing"
)

// TestMSetMap shows, on a live cluster, what slotlint reads in go-redis's
// MSet and MSetNX given one map of keys to values, the form go-redis's
// doc names beside the flat pairs (MSet(ctx, map[string]interface{}{...})):
// the client sends the map's keys as MSET's keys, in one command, so keys
// of two slots are refused with CROSSSLOT, and keys of one hashtag are
// set.
func TestMSetMap(t *testing.T) {
	l := sharedLab(t)
	ctx := context.Background()
	apart := map[string]interface{}{"msetmap:{a}": "1", "msetmap:{b}": "2"}
	together := map[string]interface{}{"msetmap:{a}:1": "1", "msetmap:{a}:2": "2"}
	check := func(t *testing.T, name string, run func(map[string]interface{}) error) {
		if err := run(apart); err == nil || !strings.HasPrefix(err.Error(), "CROSSSLOT") {
			t.Errorf("%s of a map of two slots' keys: %v; want CROSSSLOT", name, err)
		}
		if err := run(together); err != nil {
			t.Errorf("%s of a map of one hashtag's keys: %v; want no error", name, err)
		}
	}
	t.Run("v7", func(t *testing.T) {
		cl := goRedis7Cluster(l.env)
		defer cl.Close()
		check(t, "MSet", func(m map[string]interface{}) error { return cl.MSet(m).Err() })
		check(t, "MSetNX", func(m map[string]interface{}) error { return cl.MSetNX(m).Err() })
	})
	t.Run("v8", func(t *testing.T) {
		cl := goRedis8Cluster(l.env)
		defer cl.Close()
		check(t, "MSet", func(m map[string]interface{}) error { return cl.MSet(ctx, m).Err() })
		check(t, "MSetNX", func(m map[string]interface{}) error { return cl.MSetNX(ctx, m).Err() })
	})
	t.Run("v9", func(t *testing.T) {
		cl := goRedis9Cluster(l.env)
		defer cl.Close()
		check(t, "MSet", func(m map[string]interface{}) error { return cl.MSet(ctx, m).Err() })
		check(t, "MSetNX", func(m map[string]interface{}) error { return cl.MSetNX(ctx, m).Err() })
	})
}
