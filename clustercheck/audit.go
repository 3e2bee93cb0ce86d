package clustercheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

// AuditOptions configure Audit. The zero value audits every key.
type AuditOptions struct {
	// Match is a SCAN MATCH pattern; "" audits every key.
	Match string
	// Rules give the key families keys are classified against; with nil
	// rules, or rules without families, keys are not classified.
	Rules *ruleset.Rules
	// Count is the SCAN COUNT hint; 0 means 1000.
	Count int64
	// Rate limits the keys read per second, over all nodes; 0 means no
	// limit.
	Rate float64
	// Examples is the number of example keys kept per kind of problem; 0
	// means 5.
	Examples int
	// Progress, when set, is called after each SCAN batch, never by two
	// goroutines at once.
	Progress func(AuditProgress)
	// SnapshotEvery is how often the audit looks at the cluster's slot map
	// while it scans, to notice slots that move; 0 means 250ms.
	SnapshotEvery time.Duration
}

// AuditProgress is how far an audit has got.
type AuditProgress struct {
	// Keys is the number of keys read so far.
	Keys int64
	// Total is the number of keys in the nodes (DBSIZE) when the audit
	// began, or 0 when unknown; with a MATCH pattern fewer keys are read.
	Total int64
	// Done and Nodes count the nodes scanned to the end, and all of them.
	Done, Nodes int
}

// An AuditReport is what Audit found.
type AuditReport struct {
	// Keys is the number of keys counted.
	Keys int64
	// Nodes are the masters scanned, in the order of the slot map, with
	// their keys.
	Nodes []NodeKeys
	// SlotKeys holds the number of keys of each slot.
	SlotKeys []int64
	// Families are the rules' key families, in order, with their keys.
	Families []FamilyKeys
	// Classified is true when keys were classified against families.
	Classified bool
	// Unmatched are the keys that match no family.
	Unmatched Problem
	// EmptyTag are the keys whose first braces are empty, "{}": Redis
	// hashes the whole key, which is rarely what was meant.
	EmptyTag Problem
	// UnclosedTag are the keys with a '{' and no '}' after it: Redis
	// hashes the whole key.
	UnclosedTag Problem
	// Orphans are keys found on a master that does not serve their slot
	// (left behind by a failed migration).
	Orphans Problem
	// Recounted are the slots that moved, or were being migrated, during
	// the audit; their keys were counted again at the end (see Audit).
	Recounted []int
	// Changes say how the masters changed during the audit (a failover, a
	// master added or emptied, slots moved), one sentence each; Nodes is
	// the topology at the end.
	Changes []string
	// Elapsed is the audit's duration.
	Elapsed time.Duration
	// IncompatibleOps is the sum over the nodes of cluster_incompatible_ops
	// in INFO stats, when IncompatibleOpsKnown: Redis 8 counts there the
	// commands it ran that a cluster would refuse (cross-slot commands,
	// SELECT, SWAPDB, MOVE and COPY to another database, no-cluster
	// scripts), when cluster-compatibility-sample-ratio is set. A count,
	// with neither the code nor the keys; older servers have no such field.
	IncompatibleOps      int64
	IncompatibleOpsKnown bool
}

// NodeKeys is one master's share of the keys.
type NodeKeys struct {
	// Addr is the master's address as the cluster announces it to clients
	// (CLUSTER SHARDS: its host name, or its IP address); ID is its node
	// ID, by which the audit tells nodes apart.
	Addr  string
	ID    string
	Slots int   // slots served at the end of the audit
	Keys  int64 // keys counted for it
}

// FamilyKeys is one family's share of the keys, and how they spread: a
// family with no key has Keys 0 (see EmptyFamilies).
type FamilyKeys struct {
	Name     string
	Template string
	Keys     int64
	// Slots and Masters count the slots and the masters that hold the
	// family's keys.
	Slots, Masters int
}

// EmptyFamilies returns the names of the families that have no key.
func (r *AuditReport) EmptyFamilies() []string {
	var out []string
	for _, f := range r.Families {
		if f.Keys == 0 {
			out = append(out, f.Name)
		}
	}
	return out
}

// A Problem counts keys with one kind of problem, with a few examples.
type Problem struct {
	Keys     int64
	Examples []string
}

// SlotKeys is a slot with its number of keys.
type SlotKeys struct {
	Slot int
	Keys int64
	Node string
}

// HotSlots returns the n slots with the most keys, most first.
func (r *AuditReport) HotSlots(n int) []SlotKeys {
	var out []SlotKeys
	for s, k := range r.SlotKeys {
		if k > 0 {
			out = append(out, SlotKeys{Slot: s, Keys: k})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Keys > out[j].Keys })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// SlotSkew is the keys of the fullest slot over the mean keys per slot, over
// all 16384 slots: 1 when keys spread evenly.
func (r *AuditReport) SlotSkew() float64 {
	if r.Keys == 0 {
		return 0
	}
	return float64(slices.Max(r.SlotKeys)) * slot.Count / float64(r.Keys)
}

// NodeSkew is the keys of the fullest master over the mean keys per master.
func (r *AuditReport) NodeSkew() float64 {
	if r.Keys == 0 || len(r.Nodes) == 0 {
		return 0
	}
	var most int64
	for _, n := range r.Nodes {
		most = max(most, n.Keys)
	}
	return float64(most) * float64(len(r.Nodes)) / float64(r.Keys)
}

// Audit reads every key of every master, read-only, with SCAN, and tallies
// the keys by slot, master and key family, with the keys whose hashtag is
// empty or unclosed and those that match no family. c is a
// *redis.ClusterClient, whose masters are all scanned, or a client of one
// server, which alone is scanned.
//
// The count is exact for keys that exist, unchanged, for the whole audit,
// even while slots move between masters. SCAN on a master sees only its own
// keys, so a key that moves from a master not yet scanned to one already
// scanned would be missed, and one that moves the other way counted twice.
// Audit therefore watches the slot map (CLUSTER NODES of every master, at
// the start, every SnapshotEvery and at the end): a slot that changes owner,
// or that a master shows as migrating or importing, is left out of the SCAN
// tally and counted again at the end with CLUSTER GETKEYSINSLOT on every
// master, the migrating ones first, so that a key moving during the recount
// is seen before it leaves. Keys are counted for the master that serves
// their slot at the end. Two limits remain: a slot that moves away and
// back between two looks at the slot map goes unnoticed, and SCAN itself
// may return a key twice when a master's hash table shrinks during the
// audit (after mass deletions). Keys created or deleted during the audit
// may or may not be counted.
func Audit(ctx context.Context, c redis.UniversalClient, opt AuditOptions) (*AuditReport, error) {
	start := time.Now()
	if opt.Count <= 0 {
		opt.Count = 1000
	}
	if opt.Examples <= 0 {
		opt.Examples = 5
	}
	if opt.SnapshotEvery <= 0 {
		opt.SnapshotEvery = 250 * time.Millisecond
	}
	a := &auditor{opt: opt, c: c}
	a.cls = newClassifier(opt.Rules)
	if cc, ok := c.(*redis.ClusterClient); ok {
		a.cluster = cc
		cc.ReloadState(ctx)
	}
	if err := a.run(ctx); err != nil {
		return nil, err
	}
	r := a.report()
	r.Elapsed = time.Since(start)
	return r, nil
}

type auditor struct {
	opt     AuditOptions
	c       redis.UniversalClient
	cluster *redis.ClusterClient
	cls     *classifier

	mu      sync.Mutex // guards what follows, and serializes Progress
	tallies []*tally
	first   *slotMap // the slot map at the start
	last    *slotMap
	// The topology (CLUSTER SHARDS) at the start and at the end.
	startTopo, endTopo *Topology
	affected           [slot.Count]bool
	recount            *tally
	done               int
	nodes              int
	total              int64
	// The sum of cluster_incompatible_ops, and whether a node had it.
	incompatible      int64
	incompatibleKnown bool

	read atomic.Int64 // keys read
	// The rate limit: keys may be read until start + read/Rate.
	rateStart time.Time
}

// forEachNode runs fn on every master at once, or on the one server. The
// first error cancels the calls on the other masters, and is the one
// returned.
func (a *auditor) forEachNode(ctx context.Context, fn func(ctx context.Context, n *redis.Client) error) error {
	if a.cluster != nil {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var once sync.Once
		var first error
		err := a.cluster.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
			err := fn(ctx, n)
			if err != nil {
				once.Do(func() { first = err })
				cancel()
			}
			return err
		})
		if first != nil {
			return first
		}
		return err
	}
	if cl, ok := a.c.(*redis.Client); ok {
		return fn(ctx, cl)
	}
	return errors.New("audit needs a *redis.ClusterClient or a *redis.Client")
}

func (a *auditor) run(ctx context.Context) error {
	if a.cluster != nil {
		topo, err := FetchTopology(ctx, a.cluster)
		if err != nil {
			return err
		}
		a.startTopo = topo
		m, err := a.snapshot(ctx)
		if err != nil {
			return err
		}
		a.first, a.last = m, m
		a.markAffected(m)
	}
	// Count the nodes and their keys, for the progress report.
	var nodes int
	var total atomic.Int64
	err := a.forEachNode(ctx, func(ctx context.Context, n *redis.Client) error {
		a.mu.Lock()
		nodes++
		a.mu.Unlock()
		size, err := n.DBSize(ctx).Result()
		if err != nil {
			return fmt.Errorf("%s: DBSIZE: %w", n.Options().Addr, classify(err))
		}
		total.Add(size)
		// Redis 8's count of commands a cluster would refuse; a server
		// that does not have it, or refuses INFO, leaves it unknown.
		if info, err := n.Info(ctx, "stats").Result(); err == nil {
			if v, ok := infoField(info, "cluster_incompatible_ops"); ok {
				a.mu.Lock()
				a.incompatible += v
				a.incompatibleKnown = true
				a.mu.Unlock()
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	a.nodes, a.total = nodes, total.Load()
	a.rateStart = time.Now()

	scanCtx, stopSnapshots := context.WithCancel(ctx)
	var wg sync.WaitGroup
	if a.cluster != nil {
		wg.Go(func() {
			t := time.NewTicker(a.opt.SnapshotEvery)
			defer t.Stop()
			for {
				select {
				case <-scanCtx.Done():
					return
				case <-t.C:
				}
				// A failed look is retried at the next tick; a node that
				// is down fails the scan itself.
				if m, err := a.snapshot(scanCtx); err == nil {
					a.mu.Lock()
					a.markAffected(m)
					a.mu.Unlock()
				}
			}
		})
	}
	err = a.forEachNode(scanCtx, a.scanNode)
	stopSnapshots()
	wg.Wait()
	if err != nil {
		return err
	}
	if a.cluster == nil {
		return nil
	}
	m, err := a.snapshot(ctx)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.markAffected(m)
	a.mu.Unlock()
	if err := a.checkScanned(); err != nil {
		return err
	}
	if err := a.recountAffected(ctx); err != nil {
		return err
	}
	topo, err := FetchTopology(ctx, a.cluster)
	if err != nil {
		return err
	}
	a.endTopo = topo
	return nil
}

// checkScanned makes sure that every master that served slots at the start
// was scanned, unless all its slots are counted again at the end: an audit
// must not miss a master's keys without saying so.
func (a *auditor) checkScanned() error {
	scanned := map[string]bool{}
	for _, t := range a.tallies {
		scanned[t.id] = true
	}
	missed := map[string]int{}
	for s, id := range a.first.owner {
		if id != "" && !scanned[id] && !a.affected[s] {
			missed[id]++
		}
	}
	for id, n := range missed {
		return fmt.Errorf("master %s (%s) serves %d slots but was not scanned: the client's view of the cluster (%d masters scanned) differs from CLUSTER NODES; the audit would miss its keys",
			a.first.masters[id], id, n, len(a.tallies))
	}
	return nil
}

// scanNode SCANs one node to the end.
func (a *auditor) scanNode(ctx context.Context, n *redis.Client) error {
	addr := n.Options().Addr
	id := addr
	if a.cluster != nil {
		// The node's identity is its node ID: the address go-redis uses
		// (a host name, a rewritten loopback address) need not be the one
		// CLUSTER NODES shows.
		a.mu.Lock()
		id = a.first.self[addr]
		a.mu.Unlock()
		if id == "" {
			text, err := n.ClusterNodes(ctx).Result()
			if err != nil {
				return fmt.Errorf("%s: CLUSTER NODES: %w", addr, classify(err))
			}
			if f := strings.Fields(myself(text)); len(f) > 0 {
				id = f[0]
			}
		}
	}
	t := newTally(id)
	t.addr = addr
	a.mu.Lock()
	a.tallies = append(a.tallies, t)
	first := a.first
	a.mu.Unlock()
	var cursor uint64
	for {
		keys, next, err := n.Scan(ctx, cursor, a.opt.Match, a.opt.Count).Result()
		if err != nil {
			return fmt.Errorf("%s: SCAN: %w", addr, classify(err))
		}
		for _, k := range keys {
			s := slot.Of(k)
			owner := first == nil || first.owner[s] == id
			t.add(a.cls, k, s, owner, a.opt.Examples)
		}
		read := a.read.Add(int64(len(keys)))
		cursor = next
		if cursor == 0 {
			a.mu.Lock()
			a.done++
			a.mu.Unlock()
		}
		a.progress(read)
		if cursor == 0 {
			return nil
		}
		if err := a.pace(ctx, read); err != nil {
			return err
		}
	}
}

func (a *auditor) progress(read int64) {
	if a.opt.Progress == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.opt.Progress(AuditProgress{Keys: read, Total: a.total, Done: a.done, Nodes: a.nodes})
}

// pace waits until the rate limit allows read keys.
func (a *auditor) pace(ctx context.Context, read int64) error {
	if a.opt.Rate <= 0 {
		return ctx.Err()
	}
	due := a.rateStart.Add(time.Duration(float64(read) / a.opt.Rate * float64(time.Second)))
	wait := time.Until(due)
	if wait <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// A slotMap is the slot map as the masters see it. Nodes are known by their
// node IDs.
type slotMap struct {
	owner   [slot.Count]string // node ID of the master serving each slot
	moving  []int              // slots a master shows as migrating or importing
	torn    []int              // slots whose owner the masters disagree on
	masters map[string]string  // node ID → address in CLUSTER NODES
	self    map[string]string  // address of go-redis's client → node ID
}

// snapshot reads CLUSTER NODES from every master.
func (a *auditor) snapshot(ctx context.Context) (*slotMap, error) {
	var mu sync.Mutex
	var views []string
	m := &slotMap{masters: map[string]string{}, self: map[string]string{}}
	err := a.cluster.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
		text, err := n.ClusterNodes(ctx).Result()
		if err != nil {
			return fmt.Errorf("%s: CLUSTER NODES: %w", n.Options().Addr, classify(err))
		}
		mu.Lock()
		views = append(views, text)
		if f := strings.Fields(myself(text)); len(f) > 0 {
			m.self[n.Options().Addr] = f[0]
		}
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, text := range views {
		var owner [slot.Count]string
		for line := range strings.Lines(text) {
			f := strings.Fields(line)
			if len(f) < 8 {
				continue
			}
			addr, _, _ := strings.Cut(f[1], "@")
			m.masters[f[0]] = addr
			for _, r := range f[8:] {
				if strings.HasPrefix(r, "[") {
					var s int
					if _, err := fmt.Sscanf(r, "[%d-", &s); err == nil && s >= 0 && s < slot.Count {
						m.moving = append(m.moving, s)
					}
					continue
				}
				var lo, hi int
				if n, _ := fmt.Sscanf(r, "%d-%d", &lo, &hi); n == 1 {
					hi = lo
				} else if n != 2 {
					continue
				}
				for s := max(lo, 0); s <= hi && s < slot.Count; s++ {
					owner[s] = f[0]
				}
			}
		}
		if i == 0 {
			m.owner = owner
			continue
		}
		for s := range owner {
			if owner[s] != m.owner[s] {
				m.torn = append(m.torn, s)
			}
		}
	}
	return m, nil
}

// markAffected notes the slots that m shows moving, or that changed owner
// since the first snapshot. The caller holds a.mu or is alone.
func (a *auditor) markAffected(m *slotMap) {
	for _, s := range m.moving {
		a.affected[s] = true
	}
	for _, s := range m.torn {
		a.affected[s] = true
	}
	for s := range m.owner {
		if m.owner[s] != a.first.owner[s] {
			a.affected[s] = true
		}
	}
	a.last = m
}

// recountAffected counts the keys of the affected slots again with CLUSTER
// GETKEYSINSLOT on every master, those that showed the slot migrating
// first.
func (a *auditor) recountAffected(ctx context.Context) error {
	var slots []int
	for s, ok := range a.affected {
		if ok {
			slots = append(slots, s)
		}
	}
	t := newTally("")
	a.recount = t
	if len(slots) == 0 {
		return nil
	}
	// Masters, sources of migrations first: a key that moves while it is
	// recounted is then seen before it leaves.
	var clients []*redis.Client
	var views []string
	err := a.cluster.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
		text, err := n.ClusterNodes(ctx).Result()
		if err != nil {
			return fmt.Errorf("%s: CLUSTER NODES: %w", n.Options().Addr, classify(err))
		}
		a.mu.Lock()
		clients = append(clients, n)
		views = append(views, myself(text))
		a.mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range slots {
		seen := map[string]bool{}
		var order []*redis.Client
		mark := fmt.Sprintf("[%d->-", s)
		for i, n := range clients {
			if strings.Contains(views[i], mark) {
				order = append(order, n)
			}
		}
		for i, n := range clients {
			if !strings.Contains(views[i], mark) {
				order = append(order, n)
			}
		}
		for _, n := range order {
			cnt, err := n.ClusterCountKeysInSlot(ctx, s).Result()
			if err != nil {
				return fmt.Errorf("%s: CLUSTER COUNTKEYSINSLOT: %w", n.Options().Addr, classify(err))
			}
			if cnt == 0 {
				continue
			}
			keys, err := n.ClusterGetKeysInSlot(ctx, s, int(cnt)+1000).Result()
			if err != nil {
				return fmt.Errorf("%s: CLUSTER GETKEYSINSLOT: %w", n.Options().Addr, classify(err))
			}
			for _, k := range keys {
				if seen[k] || (a.opt.Match != "" && !globMatch(a.opt.Match, k)) {
					continue
				}
				seen[k] = true
				t.add(a.cls, k, s, true, a.opt.Examples)
			}
		}
	}
	return nil
}

// myself returns the line of CLUSTER NODES about the node that answered.
func myself(text string) string {
	for line := range strings.Lines(text) {
		if strings.Contains(line, "myself") {
			return line
		}
	}
	return ""
}

// report merges the tallies.
func (a *auditor) report() *AuditReport {
	r := &AuditReport{SlotKeys: make([]int64, slot.Count), Classified: a.cls != nil}
	r.IncompatibleOps, r.IncompatibleOpsKnown = a.incompatible, a.incompatibleKnown
	if a.cls != nil {
		for _, f := range a.cls.fams {
			r.Families = append(r.Families, FamilyKeys{Name: f.Name, Template: f.Template.String()})
		}
	}
	nodeKeys := map[string]int64{}
	// famSlots and famNodes are the slots and masters of each family's keys.
	famSlots := make([]map[int]bool, len(r.Families))
	famNodes := make([]map[string]bool, len(r.Families))
	for i := range r.Families {
		famSlots[i], famNodes[i] = map[int]bool{}, map[string]bool{}
	}
	// merge adds a tally's slots; scanned tallies leave out the affected
	// slots, which the recount tally holds.
	merge := func(t *tally, scanned bool, nodeOf func(s int) string) {
		for s := range t.slots {
			st := &t.slots[s]
			if scanned && a.affected[s] {
				continue
			}
			r.Orphans.Keys += st.orphan
			if st.n == 0 {
				continue
			}
			r.SlotKeys[s] += st.n
			r.Keys += st.n
			nodeKeys[nodeOf(s)] += st.n
			r.Unmatched.Keys += st.unmatched
			r.EmptyTag.Keys += st.empty
			r.UnclosedTag.Keys += st.unclosed
			for _, fc := range st.fams {
				r.Families[fc.fam].Keys += fc.n
				famSlots[fc.fam][s] = true
				famNodes[fc.fam][nodeOf(s)] = true
			}
		}
		for _, ex := range t.examples {
			if scanned && a.affected[ex.slot] {
				continue
			}
			p := r.problem(ex.kind)
			if len(p.Examples) < a.opt.Examples && !slices.Contains(p.Examples, ex.key) {
				p.Examples = append(p.Examples, ex.key)
			}
		}
	}
	for _, t := range a.tallies {
		id := t.id
		merge(t, true, func(int) string { return id })
	}
	if a.recount != nil {
		merge(a.recount, false, func(s int) string { return a.last.owner[s] })
	}
	for s, ok := range a.affected {
		if ok {
			r.Recounted = append(r.Recounted, s)
		}
	}
	for i := range r.Families {
		r.Families[i].Slots, r.Families[i].Masters = len(famSlots[i]), len(famNodes[i])
	}
	if a.endTopo == nil {
		// One server: its keys.
		for _, t := range a.tallies {
			r.Nodes = append(r.Nodes, NodeKeys{Addr: t.addr, Keys: nodeKeys[t.id]})
		}
		return r
	}
	// The masters at the end, in slot order, known by node ID.
	listed := map[string]bool{}
	for _, sh := range a.endTopo.Shards {
		m := sh.Master
		n := NodeKeys{Addr: m.Addr, ID: m.ID, Keys: nodeKeys[m.ID]}
		for _, sr := range sh.Slots {
			n.Slots += sr.Last - sr.First + 1
		}
		if n.Slots == 0 && n.Keys == 0 {
			continue // a master without slots or keys
		}
		listed[m.ID] = true
		r.Nodes = append(r.Nodes, n)
	}
	// Keys counted for a node that is no master at the end: they stay in
	// the total, under their node.
	for _, t := range a.tallies {
		if !listed[t.id] && nodeKeys[t.id] > 0 {
			listed[t.id] = true
			r.Nodes = append(r.Nodes, NodeKeys{Addr: t.addr, ID: t.id, Keys: nodeKeys[t.id]})
		}
	}
	r.Changes = topologyChanges(a.startTopo, a.endTopo)
	return r
}

// A nodeRole is a node's place in a topology.
type nodeRole struct {
	addr, master string // master: the ID of its master, for a replica
	slots        int
}

// promoted returns the ID of a replica of sh's master that is a master in
// after, or "".
func promoted(sh Shard, after map[string]nodeRole) string {
	for _, r := range sh.Replicas {
		if a, ok := after[r.ID]; ok && a.master == "" {
			return r.ID
		}
	}
	return ""
}

// topologyChanges describes how the masters changed between two topologies.
func topologyChanges(start, end *Topology) []string {
	if start == nil || end == nil {
		return nil
	}
	roles := func(t *Topology) map[string]nodeRole {
		out := map[string]nodeRole{}
		for _, sh := range t.Shards {
			n := 0
			for _, r := range sh.Slots {
				n += r.Last - r.First + 1
			}
			out[sh.Master.ID] = nodeRole{addr: sh.Master.Addr, slots: n}
			for _, rep := range sh.Replicas {
				out[rep.ID] = nodeRole{addr: rep.Addr, master: sh.Master.ID}
			}
		}
		return out
	}
	before, after := roles(start), roles(end)
	name := func(id string) string {
		if r, ok := after[id]; ok {
			return r.addr
		}
		if r, ok := before[id]; ok {
			return r.addr
		}
		return id
	}
	var out []string
	for _, sh := range start.Shards {
		id := sh.Master.ID
		b, a := before[id], after[id]
		_, present := after[id]
		switch {
		case !present:
			out = append(out, fmt.Sprintf("master %s left the cluster", b.addr))
		case a.master != "":
			out = append(out, fmt.Sprintf("master %s became a replica of %s (failover); its %d slots were counted on their new master", b.addr, name(a.master), b.slots))
		case a.slots == 0 && b.slots > 0 && promoted(sh, after) != "":
			// The new master took over; the old one has not yet turned
			// into its replica.
			out = append(out, fmt.Sprintf("master %s lost its %d slots to its replica %s (failover); they were counted on their new master", b.addr, b.slots, name(promoted(sh, after))))
		case a.slots != b.slots:
			out = append(out, fmt.Sprintf("master %s served %d slots at the start and %d at the end", b.addr, b.slots, a.slots))
		}
	}
	for _, sh := range end.Shards {
		id := sh.Master.ID
		b, ok := before[id]
		a := after[id]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("master %s joined the cluster with %d slots", a.addr, a.slots))
		case b.master != "":
			out = append(out, fmt.Sprintf("replica %s became a master with %d slots (failover)", a.addr, a.slots))
		}
	}
	return out
}

func (r *AuditReport) problem(k problemKind) *Problem {
	switch k {
	case probUnmatched:
		return &r.Unmatched
	case probEmpty:
		return &r.EmptyTag
	case probUnclosed:
		return &r.UnclosedTag
	}
	return &r.Orphans
}

type problemKind uint8

const (
	probUnmatched problemKind = iota
	probEmpty
	probUnclosed
	probOrphan
)

// A tally counts one node's keys per slot.
type tally struct {
	id       string // node ID, or address for a server not in a cluster
	addr     string // go-redis's address of the node
	slots    []slotTally
	examples []example
	nEx      [4]int
}

type slotTally struct {
	n, unmatched, empty, unclosed, orphan int64
	fams                                  []famCount
}

type famCount struct {
	fam int
	n   int64
}

type example struct {
	kind problemKind
	key  string
	slot int
}

func newTally(id string) *tally {
	return &tally{id: id, addr: id, slots: make([]slotTally, slot.Count)}
}

// add counts key k of slot s; owner is false when the node does not serve
// the slot by the first slot map.
func (t *tally) add(cls *classifier, k string, s int, owner bool, examples int) {
	st := &t.slots[s]
	ex := func(kind problemKind) {
		// Keep a few more than asked, as some may be dropped with their
		// slot.
		if t.nEx[kind] < 4*examples {
			t.nEx[kind]++
			t.examples = append(t.examples, example{kind, k, s})
		}
	}
	if !owner {
		st.orphan++
		ex(probOrphan)
		return
	}
	st.n++
	switch tagProblem(k) {
	case probEmpty:
		st.empty++
		ex(probEmpty)
	case probUnclosed:
		st.unclosed++
		ex(probUnclosed)
	}
	if cls == nil {
		return
	}
	f := cls.match(k)
	if f < 0 {
		st.unmatched++
		ex(probUnmatched)
		return
	}
	for i := range st.fams {
		if st.fams[i].fam == f {
			st.fams[i].n++
			return
		}
	}
	st.fams = append(st.fams, famCount{f, 1})
}

// tagProblem says whether a key's braces are a broken hashtag: the first '{'
// directly followed by '}', or a '{' with no '}' after it. It returns
// probUnmatched for a key without such a problem.
func tagProblem(k string) problemKind {
	open := strings.IndexByte(k, '{')
	if open < 0 {
		return probUnmatched
	}
	end := strings.IndexByte(k[open+1:], '}')
	switch {
	case end < 0:
		return probUnclosed
	case end == 0:
		return probEmpty
	}
	return probUnmatched
}

// A classifier matches keys against the rules' families.
type classifier struct {
	rules *ruleset.Rules
	fams  []*ruleset.Family
	index map[*ruleset.Family]int
}

func newClassifier(r *ruleset.Rules) *classifier {
	if r == nil || len(r.Families) == 0 {
		return nil
	}
	c := &classifier{rules: r, fams: r.Families, index: map[*ruleset.Family]int{}}
	for i, f := range r.Families {
		c.index[f] = i
	}
	return c
}

// match returns the index of the key's family, or -1.
func (c *classifier) match(k string) int {
	f, _, ok := c.rules.Match(k)
	if !ok {
		return -1
	}
	return c.index[f]
}

// infoField returns the integer field name of an INFO reply ("name:123"
// on a line of its own).
func infoField(info, name string) (int64, bool) {
	for line := range strings.Lines(info) {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || k != name {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}
