package matrix

import (
	"context"
	"strings"
	"testing"

	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

// TestGeoRadiusStoreNeedsStore shows, on a live cluster, what rules.yaml's
// needs-keys says of go-redis v7 to v9's GeoRadiusStore and
// GeoRadiusByMemberStore: the client refuses a call whose query sets
// neither Store nor StoreDist, so every call it sends names a STORE key
// besides the searched key, and a STORE key of another slot is refused
// with CROSSSLOT. A wrapper whose callers give both the key and the query
// sends two keys of theirs (kid's GeoRadiusStore, caller-keys).
func TestGeoRadiusStoreNeedsStore(t *testing.T) {
	l := sharedLab(t)
	ctx := context.Background()
	const key, other = "geo:{a}", "geo:{b}"
	// check runs the two methods with an empty query, then with a STORE
	// key of another slot.
	check := func(t *testing.T, store, byMember func(q string) error) {
		for name, run := range map[string]func(string) error{"GeoRadiusStore": store, "GeoRadiusByMemberStore": byMember} {
			if err := run(""); err == nil || err.Error() != name+" requires Store or StoreDist" {
				t.Errorf("%s with neither Store nor StoreDist: %v; want the client's refusal", name, err)
			}
			if err := run(other); err == nil || !strings.HasPrefix(err.Error(), "CROSSSLOT") {
				t.Errorf("%s of %q storing into %q: %v; want CROSSSLOT", name, key, other, err)
			}
		}
	}
	t.Run("v7", func(t *testing.T) {
		cl := goRedis7Cluster(l.env)
		defer cl.Close()
		if err := cl.GeoAdd(key, &redis7.GeoLocation{Name: "m", Longitude: 13.4, Latitude: 52.5}).Err(); err != nil {
			t.Fatal(err)
		}
		check(t, func(q string) error {
			return cl.GeoRadiusStore(key, 13.4, 52.5, &redis7.GeoRadiusQuery{Radius: 10, Store: q}).Err()
		}, func(q string) error {
			return cl.GeoRadiusByMemberStore(key, "m", &redis7.GeoRadiusQuery{Radius: 10, Store: q}).Err()
		})
	})
	t.Run("v8", func(t *testing.T) {
		cl := goRedis8Cluster(l.env)
		defer cl.Close()
		if err := cl.GeoAdd(ctx, key, &redis8.GeoLocation{Name: "m", Longitude: 13.4, Latitude: 52.5}).Err(); err != nil {
			t.Fatal(err)
		}
		check(t, func(q string) error {
			return cl.GeoRadiusStore(ctx, key, 13.4, 52.5, &redis8.GeoRadiusQuery{Radius: 10, Store: q}).Err()
		}, func(q string) error {
			return cl.GeoRadiusByMemberStore(ctx, key, "m", &redis8.GeoRadiusQuery{Radius: 10, Store: q}).Err()
		})
	})
	t.Run("v9", func(t *testing.T) {
		cl := goRedis9Cluster(l.env)
		defer cl.Close()
		if err := cl.GeoAdd(ctx, key, &redis.GeoLocation{Name: "m", Longitude: 13.4, Latitude: 52.5}).Err(); err != nil {
			t.Fatal(err)
		}
		check(t, func(q string) error {
			return cl.GeoRadiusStore(ctx, key, 13.4, 52.5, &redis.GeoRadiusQuery{Radius: 10, Store: q}).Err()
		}, func(q string) error {
			return cl.GeoRadiusByMemberStore(ctx, key, "m", &redis.GeoRadiusQuery{Radius: 10, Store: q}).Err()
		})
	})
}
