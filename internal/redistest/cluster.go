package redistest

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// Masters is the number of master nodes in a cluster started here.
const Masters = 3

// SlotCount is the number of hash slots in a Redis Cluster.
const SlotCount = 16384

// A Cluster is a Redis Cluster of Masters master nodes, without replicas
// unless started WithReplicas. At
// the start, node i serves the i-th third of the slots: 0-5460, 5461-10922 and
// 10923-16383, as redis-cli --cluster create assigns them.
type Cluster struct {
	// Nodes are the cluster's masters at the start, in the order of their
	// initial slot ranges.
	Nodes []*Node
	// Replicas are the replicas of a cluster started WithReplicas:
	// Replicas[i] replicates Nodes[i] at the start.
	Replicas []*Node
	// Password is the default user's password, "" for none.
	Password string
	// CA signed the nodes' certificates, for a cluster started WithTLS;
	// nil otherwise.
	CA *CA
}

// A Node is one master of a Cluster.
type Node struct {
	*Server
	// ID is the node's cluster node ID. It stays the same across Stop and
	// Start.
	ID string
	// BusPort is the node's cluster bus port.
	BusPort int
}

// initialSlots returns the first and last slot that node i of n serves at
// the start.
func initialSlots(i, n int) (first, last int) {
	return i * SlotCount / n, (i+1)*SlotCount/n - 1
}

// StartCluster starts a three-master cluster with all slots assigned and
// waits until every node reports cluster_state:ok and agrees on who owns
// which slot. The cluster is stopped when the test ends. Tests that stop
// nodes or move slots should start their own cluster; tests that only read
// and write keys can share one (see Shared).
func StartCluster(t testing.TB, opts ...Option) *Cluster {
	t.Helper()
	path := Require(t)
	cfg := newConfig(opts)
	if cfg.tls && runtime.GOOS != "linux" {
		t.Skip("a TLS cluster binds 127.0.0.2 and 127.0.0.3, which only Linux answers on by default")
	}
	c := &Cluster{}
	t.Cleanup(func() {
		if t.Failed() {
			for _, n := range c.all() {
				t.Logf("redis-server %s (cluster node) log tail:\n%s", n.Addr, n.LogTail(15))
			}
		}
		if err := c.stop(); err != nil {
			t.Error(err)
		}
	})
	if err := c.start(path, t.TempDir(), cfg); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *Cluster) start(path, dir string, cfg config) error {
	c.Password = cfg.password
	if cfg.tls {
		ca, err := NewCA(dir)
		if err != nil {
			return err
		}
		c.CA = ca
	}
	n := Masters
	if cfg.replicas {
		n = 2 * Masters
	}
	all := make([]*Node, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range all {
		n := &Node{Server: &Server{
			Password: cfg.password,
			Dir:      filepath.Join(dir, fmt.Sprintf("node%d", i)),
			path:     path,
			cfg:      cfg,
			cluster:  true,
			index:    i,
		}}
		if cfg.tls {
			n.host = fmt.Sprintf("127.0.0.%d", i+1)
			cert, key, err := c.CA.Issue(fmt.Sprintf("node%d", i), n.host)
			if err != nil {
				return err
			}
			n.tls = &nodeTLS{ca: c.CA, cert: cert, key: key}
		}
		all[i] = n
		wg.Go(func() {
			errs[i] = n.startFresh()
			n.BusPort = n.busPort
		})
	}
	wg.Wait()
	c.Nodes, c.Replicas = all[:Masters], all[Masters:]
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return c.form()
}

// all returns the masters and the replicas.
func (c *Cluster) all() []*Node {
	return append(append([]*Node(nil), c.Nodes...), c.Replicas...)
}

// form assigns the slots, introduces the nodes to each other and waits for
// the cluster to settle.
func (c *Cluster) form() error {
	for i, n := range c.Nodes {
		id, err := n.doString("CLUSTER", "MYID")
		if err != nil {
			return err
		}
		n.ID = id
		// Distinct epochs up front spare the cluster resolving collisions.
		if _, err := n.do("CLUSTER", "SET-CONFIG-EPOCH", i+1); err != nil {
			return err
		}
		first, last := initialSlots(i, len(c.Nodes))
		if _, err := n.do("CLUSTER", "ADDSLOTSRANGE", first, last); err != nil {
			return err
		}
	}
	for _, n := range c.all()[1:] {
		if _, err := c.Nodes[0].do("CLUSTER", "MEET", n.bindHost(), n.port, n.busPort); err != nil {
			return err
		}
	}
	for i, r := range c.Replicas {
		id, err := r.doString("CLUSTER", "MYID")
		if err != nil {
			return err
		}
		r.ID = id
		// The replica must have heard of its master first.
		deadline := time.Now().Add(clusterTimeout)
		for {
			_, err := r.do("CLUSTER", "REPLICATE", c.Nodes[i].ID)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				return err
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return c.WaitHealthy()
}

// Failover promotes replica to master in place of its master, with CLUSTER
// FAILOVER (the master agrees, no write is lost), and waits until every
// node sees the replica as a master and the old master as a replica, and
// the cluster is healthy.
func (c *Cluster) Failover(replica *Node) error {
	old, err := replica.doString("INFO", "replication")
	if err != nil {
		return err
	}
	var master *Node
	for _, n := range c.all() {
		_, port, _ := strings.Cut(n.Addr, ":")
		if n != replica && strings.Contains(old, "master_port:"+port+"\r\n") {
			master = n
		}
	}
	if master == nil {
		return fmt.Errorf("%s is not the replica of a node of the cluster", replica.Addr)
	}
	if _, err := replica.do("CLUSTER", "FAILOVER"); err != nil {
		return err
	}
	deadline := time.Now().Add(clusterTimeout)
	for {
		err := c.roles(replica, master)
		if err == nil {
			return c.WaitHealthy()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after CLUSTER FAILOVER on %s: %v", replica.Addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// roles checks that every node sees master as a master and replica as a
// replica.
func (c *Cluster) roles(master, replica *Node) error {
	for _, n := range c.all() {
		view, err := n.view()
		if err != nil {
			return err
		}
		for _, p := range view.peers {
			if p.id == master.ID && !slices.Contains(p.flags, "master") {
				return fmt.Errorf("node %s does not see %s as a master", n.Addr, master.Addr)
			}
			if p.id == replica.ID && !slices.Contains(p.flags, "slave") {
				return fmt.Errorf("node %s does not see %s as a replica", n.Addr, replica.Addr)
			}
		}
	}
	return nil
}

// stop stops every node, even when some fail to stop.
func (c *Cluster) stop() error {
	nodes := c.all()
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() { errs[i] = n.Stop() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Addrs returns the nodes' addresses.
func (c *Cluster) Addrs() []string {
	addrs := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		addrs[i] = n.Addr
	}
	return addrs
}

// ClusterOptions returns go-redis cluster options for c. For a cluster
// started WithTLS, each node's client checks the node's certificate against
// the node's own address.
func (c *Cluster) ClusterOptions() *redis.ClusterOptions {
	var newClient func(*redis.Options) *redis.Client
	if c.CA != nil {
		newClient = func(o *redis.Options) *redis.Client {
			host, _, _ := net.SplitHostPort(o.Addr)
			o.TLSConfig = c.CA.ClientConfig(host)
			return redis.NewClient(o)
		}
	}
	var tlsCfg *tls.Config
	if c.CA != nil {
		tlsCfg = c.CA.ClientConfig("")
	}
	return &redis.ClusterOptions{
		NewClient:                newClient,
		TLSConfig:                tlsCfg,
		Addrs:                    c.Addrs(),
		Password:                 c.Password,
		DialTimeout:              2 * time.Second,
		ReadTimeout:              commandTimeout,
		WriteTimeout:             commandTimeout,
		DisableIdentity:          true,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

// Client returns a go-redis cluster client for c, closed when the test ends.
func (c *Cluster) Client(t testing.TB) *redis.ClusterClient {
	cc := redis.NewClusterClient(c.ClusterOptions())
	t.Cleanup(func() { cc.Close() })
	return cc
}

// Node returns the node with the given address or cluster node ID, or nil.
func (c *Cluster) Node(addrOrID string) *Node {
	for _, n := range c.all() {
		if n.Addr == addrOrID || n.ID == addrOrID {
			return n
		}
	}
	return nil
}

// Owner returns the node that serves slot, as the first running node sees it.
func (c *Cluster) Owner(slot int) (*Node, error) {
	if slot < 0 || slot >= SlotCount {
		return nil, fmt.Errorf("slot %d out of range", slot)
	}
	for _, n := range c.Nodes {
		if !n.Running() {
			continue
		}
		view, err := n.view()
		if err != nil {
			return nil, err
		}
		o := c.Node(view.owner[slot])
		if o == nil {
			return nil, fmt.Errorf("node %s sees no owner of slot %d", n.Addr, slot)
		}
		return o, nil
	}
	return nil, errors.New("no cluster node is running")
}

// FlushAll deletes every key on every master.
func (c *Cluster) FlushAll() error {
	for _, n := range c.all() {
		if _, err := n.do("FLUSHALL"); err != nil && !strings.Contains(err.Error(), "READONLY") {
			return err
		}
	}
	return nil
}

// WaitHealthy waits until every node runs, knows every other node as
// connected and not failing, reports cluster_state:ok with all slots
// assigned, and all nodes agree on the owner of each slot. Call it after
// starting a stopped node again.
func (c *Cluster) WaitHealthy() error {
	deadline := time.Now().Add(clusterTimeout)
	for {
		err := c.healthy()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster not healthy after %v: %v", clusterTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *Cluster) healthy() error {
	var first *clusterView
	nodes := c.all()
	for _, n := range nodes {
		if !n.Running() {
			return fmt.Errorf("node %s is stopped", n.Addr)
		}
		info, err := n.doString("CLUSTER", "INFO")
		if err != nil {
			return err
		}
		for _, want := range []string{"cluster_state:ok", "cluster_slots_assigned:16384", "cluster_slots_ok:16384",
			fmt.Sprintf("cluster_known_nodes:%d", len(nodes))} {
			if !strings.Contains(info, want+"\r\n") {
				return fmt.Errorf("node %s: no %s in CLUSTER INFO", n.Addr, want)
			}
		}
		view, err := n.view()
		if err != nil {
			return err
		}
		for _, p := range view.peers {
			if p.id == n.ID && slices.Contains(p.flags, "slave") {
				repl, err := n.doString("INFO", "replication")
				if err != nil {
					return err
				}
				if !strings.Contains(repl, "master_link_status:up") {
					return fmt.Errorf("replica %s: its link to its master is not up", n.Addr)
				}
			}
			if c.Node(p.id) == nil || p.addr != c.Node(p.id).Addr {
				return fmt.Errorf("node %s sees unknown node %s at %s", n.Addr, p.id, p.addr)
			}
			if p.linkState != "connected" {
				return fmt.Errorf("node %s sees node %s %s", n.Addr, p.id, p.linkState)
			}
			for _, f := range p.flags {
				if f == "fail" || f == "fail?" || f == "handshake" || f == "noaddr" {
					return fmt.Errorf("node %s flags node %s %s", n.Addr, p.id, f)
				}
			}
		}
		if first == nil {
			first = view
		} else if first.owner != view.owner {
			for s := range first.owner {
				if first.owner[s] != view.owner[s] {
					return fmt.Errorf("nodes %s and %s disagree on the owner of slot %d", c.Nodes[0].Addr, n.Addr, s)
				}
			}
		}
	}
	return nil
}

// A clusterView is a node's CLUSTER NODES: its peers and slot owners.
type clusterView struct {
	peers []peer
	owner [SlotCount]string // node ID per slot, "" when unassigned
}

type peer struct {
	id, addr  string
	flags     []string
	linkState string
}

func (n *Node) view() (*clusterView, error) {
	text, err := n.doString("CLUSTER", "NODES")
	if err != nil {
		return nil, err
	}
	v, err := parseClusterNodes(text)
	if err != nil {
		return nil, fmt.Errorf("CLUSTER NODES on %s: %v", n.Addr, err)
	}
	return v, nil
}

// parseClusterNodes parses CLUSTER NODES: lines of
// "id ip:port@bus[,hostname] flags master ping pong epoch link slot...".
func parseClusterNodes(text string) (*clusterView, error) {
	v := new(clusterView)
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 8 {
			return nil, fmt.Errorf("short line %q", line)
		}
		addr, _, _ := strings.Cut(f[1], "@")
		v.peers = append(v.peers, peer{id: f[0], addr: addr, flags: strings.Split(f[2], ","), linkState: f[7]})
		for _, r := range f[8:] {
			if strings.HasPrefix(r, "[") { // a migrating or importing slot
				continue
			}
			lo, hi, isRange := strings.Cut(r, "-")
			first, err1 := strconv.Atoi(lo)
			last, err2 := first, error(nil)
			if isRange {
				last, err2 = strconv.Atoi(hi)
			}
			if err1 != nil || err2 != nil || first < 0 || last >= SlotCount || first > last {
				return nil, fmt.Errorf("bad slot range %q", r)
			}
			for s := first; s <= last; s++ {
				v.owner[s] = f[0]
			}
		}
	}
	return v, nil
}

// MigrateSlot moves slot, with its keys, to node to, as redis-cli --cluster
// reshard does, and waits until every node agrees. Moving a slot to its owner
// does nothing.
func (c *Cluster) MigrateSlot(slot int, to *Node) error {
	m, err := c.BeginMigration(slot, to)
	if err != nil || m == nil {
		return err
	}
	return m.Finish()
}

// A Migration is a slot being moved between nodes. While it lasts the source
// answers ASK for the slot's keys it no longer has, and the destination
// serves them only to a client that sends ASKING first.
type Migration struct {
	Slot     int
	From, To *Node
	c        *Cluster
}

// BeginMigration marks slot IMPORTING on to and MIGRATING on its owner,
// without moving any key. It returns nil, nil when to already owns slot.
func (c *Cluster) BeginMigration(slot int, to *Node) (*Migration, error) {
	from, err := c.Owner(slot)
	if err != nil {
		return nil, err
	}
	if from == to {
		return nil, nil
	}
	if _, err := to.do("CLUSTER", "SETSLOT", slot, "IMPORTING", from.ID); err != nil {
		return nil, err
	}
	if _, err := from.do("CLUSTER", "SETSLOT", slot, "MIGRATING", to.ID); err != nil {
		return nil, err
	}
	return &Migration{Slot: slot, From: from, To: to, c: c}, nil
}

// MoveKeys moves the given keys of the slot to the destination. Keys that
// the source does not have are ignored.
func (m *Migration) MoveKeys(keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	args := []any{"MIGRATE", m.To.bindHost(), m.To.port, "", 0, 5000, "REPLACE"}
	if m.c.Password != "" {
		args = append(args, "AUTH", m.c.Password)
	}
	args = append(args, "KEYS")
	for _, k := range keys {
		args = append(args, k)
	}
	if _, err := m.From.do(args...); err != nil && !strings.Contains(err.Error(), "NOKEY") {
		return err
	}
	return nil
}

// MoveAll moves every key of the slot that is still on the source.
func (m *Migration) MoveAll() error {
	for range 1 << 20 { // bounded: each round moves up to 1000 keys
		v, err := m.From.do("CLUSTER", "GETKEYSINSLOT", m.Slot, 1000)
		if err != nil {
			return err
		}
		list, _ := v.([]any)
		if len(list) == 0 {
			return nil
		}
		keys := make([]string, len(list))
		for i, k := range list {
			keys[i] = fmt.Sprint(k)
		}
		if err := m.MoveKeys(keys...); err != nil {
			return err
		}
	}
	return fmt.Errorf("slot %d still has keys on %s", m.Slot, m.From.Addr)
}

// Finish moves the remaining keys, assigns the slot to the destination on
// every node and waits until the cluster is healthy.
func (m *Migration) Finish() error {
	if err := m.MoveAll(); err != nil {
		return err
	}
	// The destination first, so it owns the slot before the source sends
	// clients there; then the source; then the others.
	order := []*Node{m.To, m.From}
	for _, n := range m.c.Nodes {
		if n != m.To && n != m.From {
			order = append(order, n)
		}
	}
	for _, n := range order {
		if _, err := n.do("CLUSTER", "SETSLOT", m.Slot, "NODE", m.To.ID); err != nil {
			return err
		}
	}
	return m.c.WaitHealthy()
}

// removeAll removes dir, for clusters that outlive a test.
func removeAll(dir string) error {
	if dir == "" {
		return nil
	}
	return os.RemoveAll(dir)
}
