package keyspace

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: TykTechnologies/storage (temporal/internal/driver/redisv9,
// keyvalue.go and flusher.go): a storage driver over a UniversalClient
// that switches on the client's type, walks every master of a
// *redis.ClusterClient with ForEachMaster and runs the per-node work in an
// unexported helper typed redis.Cmdable, which the *redis.Client case calls
// too. Every SCAN and FLUSHALL there is one node's, as it should be.
type driver struct{ client redis.UniversalClient }

func (d *driver) deleteMatching(ctx context.Context, pattern string) (int64, error) {
	var total int64
	switch client := d.client.(type) {
	case *redis.ClusterClient:
		err := client.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			n, err := d.deleteOnNode(ctx, node, pattern)
			total += n
			return err
		})
		return total, err
	case *redis.Client:
		return d.deleteOnNode(ctx, client, pattern)
	}
	return 0, nil
}

func (d *driver) deleteOnNode(ctx context.Context, client redis.Cmdable, pattern string) (int64, error) {
	keys, _, err := client.Scan(ctx, 0, pattern, 0).Result()
	if err != nil || len(keys) == 0 {
		return 0, err
	}
	return client.Del(ctx, keys...).Result()
}

// flushAll calls FLUSHALL on the switched client in its *redis.Client case
// (as d.client, not the case's variable): still one server.
func (d *driver) flushAll(ctx context.Context) error {
	switch client := d.client.(type) {
	case *redis.ClusterClient:
		return client.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			return node.FlushAll(ctx).Err()
		})
	case *redis.Client:
		return d.client.FlushAll(ctx).Err()
	}
	return nil
}

// The bad forms: the same helper also handed the UniversalClient itself,
// and FLUSHALL outside the switch.
func (d *driver) countAll(ctx context.Context) int {
	n := 0
	d.countOn(ctx, d.client, &n)
	return n
}

func (d *driver) countOn(ctx context.Context, client redis.Cmdable, n *int) {
	keys, _, _ := client.Scan(ctx, 0, "*", 0).Result() // want `SCAN on client, a client that may be a cluster, reads one node's keys only`
	*n += len(keys)
}

func (d *driver) flushAllBad(ctx context.Context) error {
	return d.client.FlushAll(ctx).Err() // want `FLUSHALL on d.client, a client that may be a cluster, changes one node's keys only`
}

// Origin: zhenghaoz/gorse v0.4.15 (storage/cache/redis.go, Scan and scan):
// the helper, typed redis.UniversalClient, is given each master of a
// ClusterClient by ForEachMaster, and otherwise the client itself, in the
// else branch of the type assertion that found it is not a ClusterClient:
// one node's keys either way.
type cache struct{ client redis.UniversalClient }

func (r *cache) Scan(ctx context.Context, work func(string)) error {
	if cluster, isCluster := r.client.(*redis.ClusterClient); isCluster {
		return cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			return r.scan(ctx, node, work)
		})
	} else {
		return r.scan(ctx, r.client, work)
	}
}

func (r *cache) scan(ctx context.Context, client redis.UniversalClient, work func(string)) error {
	keys, _, err := client.Scan(ctx, 0, "table:*", 0).Result()
	for _, k := range keys {
		work(k)
	}
	return err
}

// Bad: the same helper handed the client whatever it is.
func (r *cache) ScanAll(ctx context.Context, work func(string)) error {
	return r.scanAny(ctx, r.client, work)
}

func (r *cache) scanAny(ctx context.Context, client redis.UniversalClient, work func(string)) error {
	keys, _, err := client.Scan(ctx, 0, "table:*", 0).Result() // want `SCAN on client, a client that may be a cluster, reads one node's keys only`
	for _, k := range keys {
		work(k)
	}
	return err
}

// Origin: newstack-cloud/celerity-go-sdk (resources/redis/keys.go, Scan,
// shards and walk): a helper collects every master of a ClusterClient
// into a slice of clients, or returns the client itself when it is none,
// and the scan walks each client of the slice in an unexported helper
// typed redis.UniversalClient: one node's keys each time.
type sdkCache struct{ client redis.UniversalClient }

func (c *sdkCache) Scan(ctx context.Context, match string, yield func(string) bool) {
	for _, shard := range c.shards(ctx, c.client) {
		if !c.walk(ctx, shard, match, yield) {
			return
		}
	}
}

func (c *sdkCache) shards(ctx context.Context, client redis.UniversalClient) []redis.UniversalClient {
	cluster, ok := client.(*redis.ClusterClient)
	if !ok {
		return []redis.UniversalClient{client}
	}
	var masters []redis.UniversalClient
	_ = cluster.ForEachMaster(ctx, func(_ context.Context, node *redis.Client) error {
		masters = append(masters, node)
		return nil
	})
	if len(masters) == 0 {
		return []redis.UniversalClient{client}
	}
	return masters
}

func (c *sdkCache) walk(ctx context.Context, client redis.UniversalClient, match string, yield func(string) bool) bool {
	var cursor uint64
	for {
		keys, next, err := client.Scan(ctx, cursor, match, 100).Result()
		if err != nil {
			return false
		}
		for _, key := range keys {
			if !yield(key) {
				return false
			}
		}
		if cursor = next; cursor == 0 {
			return true
		}
	}
}

// Bad: a list of clients that holds the client whatever it is.
func (c *sdkCache) ScanAny(ctx context.Context, match string, yield func(string) bool) {
	for _, shard := range c.clients() {
		keys, _, _ := shard.Scan(ctx, 0, match, 100).Result() // want `SCAN on shard, a client that may be a cluster, reads one node's keys only`
		for _, key := range keys {
			yield(key)
		}
	}
}

func (c *sdkCache) clients() []redis.UniversalClient {
	return []redis.UniversalClient{c.client}
}
