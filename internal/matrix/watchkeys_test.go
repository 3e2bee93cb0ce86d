package matrix

import (
	"context"
	"testing"

	redis6 "github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

// TestWatchWithoutKeys shows, on a live cluster, what the
// watch-without-keys check says of a Watch given no keys (tasqueue's
// scheduled-job mover): the cluster clients of go-redis v6 to v9 refuse
// it before running the function, so nothing the function would send is
// sent. rueidiscompat's Watch, on a rueidis cluster client, runs the
// function with no error: the rules say needs-keys of go-redis's Watch
// alone.
func TestWatchWithoutKeys(t *testing.T) {
	l := sharedLab(t)
	ctx := context.Background()
	const want = "redis: Watch requires at least one key"
	// check runs watch, a Watch with no keys whose function sets ran.
	check := func(t *testing.T, watch func(ran *bool) error) {
		ran := false
		err := watch(&ran)
		if err == nil || err.Error() != want || ran {
			t.Fatalf("Watch with no keys: error %v, function run %v; want %q and not run", err, ran, want)
		}
	}
	t.Run("v6", func(t *testing.T) {
		cl := goRedis6Cluster(l.env)
		defer cl.Close()
		check(t, func(ran *bool) error { return cl.Watch(func(*redis6.Tx) error { *ran = true; return nil }) })
	})
	t.Run("v7", func(t *testing.T) {
		cl := goRedis7Cluster(l.env)
		defer cl.Close()
		check(t, func(ran *bool) error { return cl.Watch(func(*redis7.Tx) error { *ran = true; return nil }) })
	})
	t.Run("v8", func(t *testing.T) {
		cl := goRedis8Cluster(l.env)
		defer cl.Close()
		check(t, func(ran *bool) error { return cl.Watch(ctx, func(*redis8.Tx) error { *ran = true; return nil }) })
	})
	t.Run("v9", func(t *testing.T) {
		cl := goRedis9Cluster(l.env)
		defer cl.Close()
		check(t, func(ran *bool) error { return cl.Watch(ctx, func(*redis.Tx) error { *ran = true; return nil }) })
	})
	t.Run("rueidiscompat", func(t *testing.T) {
		c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: l.env.Addrs})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		ran := false
		err = rueidiscompat.NewAdapter(c).Watch(ctx, func(rueidiscompat.Tx) error { ran = true; return nil })
		if err != nil || !ran {
			t.Fatalf("Watch with no keys: error %v, function run %v; want no error and the function run", err, ran)
		}
	})
}
