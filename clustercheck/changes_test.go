package clustercheck

import (
	"slices"
	"testing"
)

// TestTopologyChanges covers the sentences of AuditReport.Changes, among
// them the moment of a failover when the old master still shows as a master
// without slots.
func TestTopologyChanges(t *testing.T) {
	node := func(id string) NodeInfo { return NodeInfo{ID: id, Addr: id + ":6379"} }
	shard := func(m string, slots int, replicas ...string) Shard {
		s := Shard{Master: node(m)}
		if slots > 0 {
			s.Slots = []SlotRange{{0, slots - 1}}
		}
		for _, r := range replicas {
			s.Replicas = append(s.Replicas, node(r))
		}
		return s
	}
	start := &Topology{Shards: []Shard{shard("a", 100, "a2"), shard("b", 100, "b2"), shard("c", 100)}}
	for _, tc := range []struct {
		name string
		end  *Topology
		want []string
	}{
		{"none", start, nil},
		{"failover done", &Topology{Shards: []Shard{shard("a2", 100, "a"), shard("b", 100, "b2"), shard("c", 100)}}, []string{
			"master a:6379 became a replica of a2:6379 (failover); its 100 slots were counted on their new master",
			"replica a2:6379 became a master with 100 slots (failover)",
		}},
		{"failover under way", &Topology{Shards: []Shard{shard("a2", 100), shard("b", 100, "b2"), shard("c", 100), shard("a", 0)}}, []string{
			"master a:6379 lost its 100 slots to its replica a2:6379 (failover); they were counted on their new master",
			"replica a2:6379 became a master with 100 slots (failover)",
		}},
		{"resharding and a new master", &Topology{Shards: []Shard{shard("a", 100, "a2"), shard("b", 60, "b2"), shard("c", 100), shard("d", 40)}}, []string{
			"master b:6379 served 100 slots at the start and 60 at the end",
			"master d:6379 joined the cluster with 40 slots",
		}},
		{"a master left", &Topology{Shards: []Shard{shard("a", 100, "a2"), shard("b", 200, "b2")}}, []string{
			"master b:6379 served 100 slots at the start and 200 at the end",
			"master c:6379 left the cluster",
		}},
	} {
		got := topologyChanges(start, tc.end)
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, want)
		}
	}
}
