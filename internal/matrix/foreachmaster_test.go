package matrix

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"

	redis6 "github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
	redis9 "github.com/redis/go-redis/v9"
)

// TestForEachMasterReachesEveryMaster shows, on a live cluster, what
// rules.yaml's every-master says of go-redis from v6 to v9: a
// keyspace-wide command reaches every master with ForEachMaster on the
// *redis.ClusterClient, which calls its function once with a client of
// each master.
func TestForEachMasterReachesEveryMaster(t *testing.T) {
	l := sharedLab(t)
	ctx := context.Background()
	want := map[string]bool{}
	for _, s := range l.env.Slots {
		want[s.Addr] = true
	}
	if len(want) < 2 {
		t.Fatalf("the cluster has %d masters; the test needs several", len(want))
	}
	check := func(t *testing.T, walk func(add func(addr string)) error) {
		var mu sync.Mutex
		got := map[string]bool{}
		err := walk(func(addr string) {
			mu.Lock()
			defer mu.Unlock()
			got[addr] = true
		})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("ForEachMaster reached %q; the masters are %q", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
	t.Run("v6", func(t *testing.T) {
		cl := goRedis6Cluster(l.env)
		defer cl.Close()
		check(t, func(add func(string)) error {
			return cl.ForEachMaster(func(c *redis6.Client) error { add(c.Options().Addr); return nil })
		})
	})
	t.Run("v7", func(t *testing.T) {
		cl := goRedis7Cluster(l.env)
		defer cl.Close()
		check(t, func(add func(string)) error {
			return cl.ForEachMaster(func(c *redis7.Client) error { add(c.Options().Addr); return nil })
		})
	})
	t.Run("v8", func(t *testing.T) {
		cl := goRedis8Cluster(l.env)
		defer cl.Close()
		check(t, func(add func(string)) error {
			return cl.ForEachMaster(ctx, func(_ context.Context, c *redis8.Client) error { add(c.Options().Addr); return nil })
		})
	})
	t.Run("v9", func(t *testing.T) {
		cl := goRedis9Cluster(l.env)
		defer cl.Close()
		check(t, func(add func(string)) error {
			return cl.ForEachMaster(ctx, func(_ context.Context, c *redis9.Client) error { add(c.Options().Addr); return nil })
		})
	})
}
