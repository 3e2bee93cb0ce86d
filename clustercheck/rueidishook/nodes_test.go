package rueidishook_test

import (
	"context"
	"fmt"
	"testing"
)

// TestNodesReachEachMaster shows what rules.yaml's node-clients says of
// rueidis: Client.Nodes returns a client of each node of a cluster, by
// address, and KEYS sent on each lists that node's keys only, so a range
// over Nodes() lists every key once. Sent on the cluster client, KEYS
// reaches one node and lists some of them.
func TestNodesReachEachMaster(t *testing.T) {
	ctx := context.Background()
	c := clusterClient(t)
	const n = 48
	for i := range n {
		k := fmt.Sprintf("nodes-test:%d", i)
		if err := c.Do(ctx, c.B().Set().Key(k).Value("1").Build()).Error(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Do(context.Background(), c.B().Del().Key(k).Build()) })
	}
	seen := map[string]string{}
	reached := 0
	for addr, node := range c.Nodes() {
		keys, err := node.Do(ctx, node.B().Keys().Pattern("nodes-test:*").Build()).AsStrSlice()
		if err != nil {
			t.Fatalf("KEYS on node %s: %v", addr, err)
		}
		if len(keys) > 0 {
			reached++
		}
		for _, k := range keys {
			if other, dup := seen[k]; dup {
				t.Errorf("%s is listed by %s and by %s", k, other, addr)
			}
			seen[k] = addr
		}
	}
	if len(seen) != n || reached < 2 {
		t.Errorf("the clients of Nodes() listed %d of %d keys, on %d nodes", len(seen), n, reached)
	}
	some, err := c.Do(ctx, c.B().Keys().Pattern("nodes-test:*").Build()).AsStrSlice()
	if err != nil || len(some) == 0 || len(some) >= n {
		t.Errorf("KEYS on the cluster client listed %d of %d keys (%v); want one node's", len(some), n, err)
	}
}
