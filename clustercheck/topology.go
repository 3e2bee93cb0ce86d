package clustercheck

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/slot"
)

// ErrNotCluster is the error, wrapped with the server's reply, of a server
// that runs without cluster support: errors.Is(err, ErrNotCluster).
var ErrNotCluster = errors.New("server is not in cluster mode")

// ErrClusterDown is the error, wrapped with the server's reply, of a cluster
// that does not serve requests (CLUSTERDOWN).
var ErrClusterDown = errors.New("cluster is down")

// classify wraps a server error as ErrNotCluster or ErrClusterDown when it
// is one.
func classify(err error) error {
	if err == nil || errors.Is(err, ErrNotCluster) || errors.Is(err, ErrClusterDown) {
		return err
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "cluster support disabled"):
		return fmt.Errorf("%w: %w", ErrNotCluster, err)
	case strings.HasPrefix(msg, "CLUSTERDOWN"):
		return fmt.Errorf("%w: %w", ErrClusterDown, err)
	}
	return err
}

// A Topology is a cluster's map of slots to masters, as one node sees it.
type Topology struct {
	// Shards are the cluster's shards, each a master with its replicas,
	// ordered by their first slot; shards without slots come last.
	Shards []Shard
	owner  [slot.Count]int16 // index into Shards, -1 when unassigned
}

// A Shard is a master, its replicas and the slots it serves.
type Shard struct {
	Master   NodeInfo
	Replicas []NodeInfo
	// Slots are the ranges of slots the master serves, first and last
	// included.
	Slots []SlotRange
}

// A SlotRange is the slots from First to Last, both included.
type SlotRange struct{ First, Last int }

// NodeInfo describes one node.
type NodeInfo struct {
	ID string
	// Addr is host:port, the host being the endpoint the cluster announces
	// to clients (an IP address or a host name), or the IP address when it
	// announces none.
	Addr string
	// Health is "online", "failed" or "loading" (CLUSTER SHARDS); "" when
	// the server does not say.
	Health string
}

// Master returns the master that serves slot s; ok is false when no master
// serves it.
func (t *Topology) Master(s int) (n NodeInfo, ok bool) {
	if s < 0 || s >= slot.Count || t.owner[s] < 0 {
		return NodeInfo{}, false
	}
	return t.Shards[t.owner[s]].Master, true
}

// Masters returns the masters, in the order of Shards.
func (t *Topology) Masters() []NodeInfo {
	out := make([]NodeInfo, len(t.Shards))
	for i, s := range t.Shards {
		out[i] = s.Master
	}
	return out
}

// Unassigned returns the number of slots that no master serves.
func (t *Topology) Unassigned() int {
	n := 0
	for _, o := range t.owner {
		if o < 0 {
			n++
		}
	}
	return n
}

// SlotsOf returns the number of slots the master with that address serves.
func (t *Topology) SlotsOf(addr string) int {
	n := 0
	for _, sh := range t.Shards {
		if sh.Master.Addr == addr {
			for _, r := range sh.Slots {
				n += r.Last - r.First + 1
			}
		}
	}
	return n
}

// FetchTopology asks the server for the cluster's slot map with CLUSTER
// SHARDS, or CLUSTER SLOTS on servers older than Redis 7. The client may be a
// *redis.ClusterClient or a *redis.Client connected to any node. A server
// without cluster support gives an error that wraps ErrNotCluster.
func FetchTopology(ctx context.Context, c redis.UniversalClient) (*Topology, error) {
	shards, err := c.ClusterShards(ctx).Result()
	if err == nil {
		return fromShards(shards)
	}
	if err = classify(err); errors.Is(err, ErrNotCluster) || !isUnknownCommand(err) {
		return nil, fmt.Errorf("CLUSTER SHARDS: %w", err)
	}
	slots, err := c.ClusterSlots(ctx).Result()
	if err != nil {
		return nil, fmt.Errorf("CLUSTER SLOTS: %w", classify(err))
	}
	return fromSlots(slots)
}

func isUnknownCommand(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "unknown subcommand") || strings.Contains(msg, "unknown command")
}

func newTopology() *Topology {
	t := &Topology{}
	for i := range t.owner {
		t.owner[i] = -1
	}
	return t
}

func fromShards(shards []redis.ClusterShard) (*Topology, error) {
	t := newTopology()
	for _, sh := range shards {
		var s Shard
		found := false
		for _, n := range sh.Nodes {
			// The endpoint is what the cluster tells clients to use: an IP
			// address or a host name (cluster-preferred-endpoint-type);
			// without one, the IP address.
			host := n.Endpoint
			if host == "" || host == "?" {
				host = n.IP
			}
			port := n.Port
			if port == 0 {
				port = n.TLSPort
			}
			info := NodeInfo{ID: n.ID, Addr: net.JoinHostPort(host, strconv.FormatInt(port, 10)), Health: n.Health}
			if n.Role == "master" && !found {
				s.Master, found = info, true
			} else {
				s.Replicas = append(s.Replicas, info)
			}
		}
		if !found {
			if len(sh.Slots) > 0 {
				return nil, fmt.Errorf("CLUSTER SHARDS: a shard serving slots %d-%d has no master", sh.Slots[0].Start, sh.Slots[0].End)
			}
			continue
		}
		for _, r := range sh.Slots {
			s.Slots = append(s.Slots, SlotRange{int(r.Start), int(r.End)})
		}
		t.Shards = append(t.Shards, s)
	}
	return t.index()
}

func fromSlots(slots []redis.ClusterSlot) (*Topology, error) {
	t := newTopology()
	byID := map[string]int{}
	for _, cs := range slots {
		if len(cs.Nodes) == 0 {
			continue
		}
		m := cs.Nodes[0]
		key := m.ID
		if key == "" {
			key = m.Addr
		}
		i, ok := byID[key]
		if !ok {
			i = len(t.Shards)
			byID[key] = i
			s := Shard{Master: NodeInfo{ID: m.ID, Addr: m.Addr}}
			for _, r := range cs.Nodes[1:] {
				s.Replicas = append(s.Replicas, NodeInfo{ID: r.ID, Addr: r.Addr})
			}
			t.Shards = append(t.Shards, s)
		}
		t.Shards[i].Slots = append(t.Shards[i].Slots, SlotRange{cs.Start, cs.End})
	}
	return t.index()
}

// index sorts the shards and fills the owner table.
func (t *Topology) index() (*Topology, error) {
	first := func(s Shard) int {
		if len(s.Slots) == 0 {
			return slot.Count
		}
		m := s.Slots[0].First
		for _, r := range s.Slots {
			m = min(m, r.First)
		}
		return m
	}
	for i := range t.Shards {
		sort.Slice(t.Shards[i].Slots, func(a, b int) bool { return t.Shards[i].Slots[a].First < t.Shards[i].Slots[b].First })
	}
	sort.SliceStable(t.Shards, func(a, b int) bool { return first(t.Shards[a]) < first(t.Shards[b]) })
	for i, s := range t.Shards {
		for _, r := range s.Slots {
			if r.First < 0 || r.Last >= slot.Count || r.First > r.Last {
				return nil, fmt.Errorf("bad slot range %d-%d for %s", r.First, r.Last, s.Master.Addr)
			}
			for x := r.First; x <= r.Last; x++ {
				t.owner[x] = int16(i)
			}
		}
	}
	return t, nil
}
