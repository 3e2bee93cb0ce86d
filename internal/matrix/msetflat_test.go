package matrix

import (
	"context"
	"slices"
	"strings"
	"testing"

	redigo "github.com/gomodule/redigo/redis"
)

// TestMSetFlattened shows, on a live cluster, which single arguments
// go-redis's MSet and MSetNX spread into MSET's pairs (the client's
// appendArgs), as rules.yaml's flattens lists them for each version: one
// []string in every version; one map[string]interface{} from v7; one
// []interface{} or map[string]string from v8. A form spread is sent as
// MSET's keys and values in one command, so keys of two slots are refused
// with CROSSSLOT and keys of one hashtag are set; a form not spread is one
// argument the client cannot write, refused on any server. redigo's
// Args.AddFlat spreads a map into its keys and values and a slice into its
// elements, so a raw MSET of either sends the map's keys or the slice's
// pairs (keyflow's walker.mapPairs).
func TestMSetFlattened(t *testing.T) {
	l := sharedLab(t)
	ctx := context.Background()
	type form struct {
		name            string
		apart, together interface{}
	}
	forms := []form{
		{"[]string", []string{"mset1:{a}", "1", "mset1:{b}", "2"}, []string{"mset1:{a}:1", "1", "mset1:{a}:2", "2"}},
		{"[]interface{}", []interface{}{"mset2:{a}", "1", "mset2:{b}", "2"}, []interface{}{"mset2:{a}:1", "1", "mset2:{a}:2", "2"}},
		{"map[string]interface{}", map[string]interface{}{"mset3:{a}": "1", "mset3:{b}": "2"}, map[string]interface{}{"mset3:{a}:1": "1", "mset3:{a}:2": "2"}},
		{"map[string]string", map[string]string{"mset4:{a}": "1", "mset4:{b}": "2"}, map[string]string{"mset4:{a}:1": "1", "mset4:{a}:2": "2"}},
	}
	check := func(t *testing.T, flattens []string, name string, run func(arg interface{}) error) {
		for _, f := range forms {
			apart, together := run(f.apart), run(f.together)
			if !slices.Contains(flattens, f.name) {
				for _, err := range []error{apart, together} {
					if err == nil || !strings.Contains(err.Error(), "can't marshal") {
						t.Errorf("%s of one %s: %v; want the client's \"can't marshal\" error", name, f.name, err)
					}
				}
				continue
			}
			if apart == nil || !strings.HasPrefix(apart.Error(), "CROSSSLOT") {
				t.Errorf("%s of one %s of two slots' keys: %v; want CROSSSLOT", name, f.name, apart)
			}
			if together != nil {
				t.Errorf("%s of one %s of one hashtag's keys: %v; want no error", name, f.name, together)
			}
		}
	}
	t.Run("v6", func(t *testing.T) {
		cl := goRedis6Cluster(l.env)
		defer cl.Close()
		flat := []string{"[]string"}
		check(t, flat, "MSet", func(a interface{}) error { return cl.MSet(a).Err() })
		check(t, flat, "MSetNX", func(a interface{}) error { return cl.MSetNX(a).Err() })
	})
	t.Run("v7", func(t *testing.T) {
		cl := goRedis7Cluster(l.env)
		defer cl.Close()
		flat := []string{"[]string", "map[string]interface{}"}
		check(t, flat, "MSet", func(a interface{}) error { return cl.MSet(a).Err() })
		check(t, flat, "MSetNX", func(a interface{}) error { return cl.MSetNX(a).Err() })
	})
	all := []string{"[]string", "[]interface{}", "map[string]interface{}", "map[string]string"}
	t.Run("v8", func(t *testing.T) {
		cl := goRedis8Cluster(l.env)
		defer cl.Close()
		check(t, all, "MSet", func(a interface{}) error { return cl.MSet(ctx, a).Err() })
		check(t, all, "MSetNX", func(a interface{}) error { return cl.MSetNX(ctx, a).Err() })
	})
	t.Run("v9", func(t *testing.T) {
		cl := goRedis9Cluster(l.env)
		defer cl.Close()
		check(t, all, "MSet", func(a interface{}) error { return cl.MSet(ctx, a).Err() })
		check(t, all, "MSetNX", func(a interface{}) error { return cl.MSetNX(ctx, a).Err() })
	})
	t.Run("redigo AddFlat", func(t *testing.T) {
		mset := func(owner string, arg interface{}) error {
			c, err := redigo.Dial("tcp", l.env.Owner(owner))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, err = c.Do("MSET", redigo.Args{}.AddFlat(arg)...)
			return err
		}
		for _, f := range []struct {
			form
			prefix string
		}{
			{form{"map[string]string", map[string]string{"mset5:{a}": "1", "mset5:{b}": "2"}, map[string]string{"mset5:{a}:1": "1", "mset5:{a}:2": "2"}}, "mset5:"},
			{form{"map[string]interface{}", map[string]interface{}{"mset6:{a}": "1", "mset6:{b}": "2"}, map[string]interface{}{"mset6:{a}:1": "1", "mset6:{a}:2": "2"}}, "mset6:"},
			{form{"[]string", []string{"mset7:{a}", "1", "mset7:{b}", "2"}, []string{"mset7:{a}:1", "1", "mset7:{a}:2", "2"}}, "mset7:"},
		} {
			if err := mset(f.prefix+"{a}", f.apart); err == nil || !strings.HasPrefix(err.Error(), "CROSSSLOT") {
				t.Errorf("MSET of AddFlat of one %s of two slots' keys: %v; want CROSSSLOT", f.name, err)
			}
			if err := mset(f.prefix+"{a}:1", f.together); err != nil {
				t.Errorf("MSET of AddFlat of one %s of one hashtag's keys: %v; want no error", f.name, err)
			}
		}
	})
}
