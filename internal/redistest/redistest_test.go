package redistest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/slot"
)

func TestMain(m *testing.M) { Main(m) }

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestStandaloneStopStart(t *testing.T) {
	s := StartStandalone(t)
	rdb := s.Client(t)
	if err := rdb.Set(ctx(t), "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if mode := infoField(t, rdb, "redis_mode"); mode != "standalone" {
		t.Fatalf("redis_mode = %q, want standalone", mode)
	}
	addr := s.Addr
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if s.Running() {
		t.Fatal("Running after Stop")
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Fatalf("%s still accepts connections after Stop", addr)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if s.Addr != addr {
		t.Fatalf("address changed across Stop and Start: %s, then %s", addr, s.Addr)
	}
	if err := rdb.Ping(ctx(t)).Err(); err != nil {
		t.Fatalf("PING after Start: %v", err)
	}
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if !s.Running() {
		t.Fatal("not Running after Restart")
	}
}

func infoField(t *testing.T, rdb *redis.Client, field string) string {
	t.Helper()
	info, err := rdb.Info(ctx(t), "server").Result()
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), field+":"); ok {
			return v
		}
	}
	t.Fatalf("no %s in INFO", field)
	return ""
}

func TestPassword(t *testing.T) {
	s := StartStandalone(t, WithPassword("s3cret"), WithConfig("user alice on >wonderland ~* &* +@all"))
	if err := s.Client(t).Ping(ctx(t)).Err(); err != nil {
		t.Fatalf("PING with the password: %v", err)
	}
	for _, tc := range []struct{ user, password, want string }{
		{"", "wrong", "WRONGPASS"},
		{"", "", "NOAUTH"},
		{"alice", "wonderland", ""},
		{"alice", "s3cret", "WRONGPASS"},
	} {
		o := s.Options()
		o.Username, o.Password = tc.user, tc.password
		rdb := redis.NewClient(o)
		err := rdb.Ping(ctx(t)).Err()
		rdb.Close()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("PING as %q with password %q: %v, want %q", tc.user, tc.password, err, tc.want)
		}
	}
}

func TestStartupFailureShowsLog(t *testing.T) {
	path := Require(t)
	s := &Server{Dir: t.TempDir(), path: path, cfg: config{extra: []string{"no-such-directive yes"}}}
	err := s.startFresh()
	if err == nil {
		s.Stop()
		t.Fatal("a server with a bad directive started")
	}
	if !strings.Contains(err.Error(), "no-such-directive") || !strings.Contains(err.Error(), "log tail") {
		t.Fatalf("error does not show the log tail: %v", err)
	}
}

func TestPortInUse(t *testing.T) {
	path := Require(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s := &Server{Dir: t.TempDir(), path: path}
	s.port = l.Addr().(*net.TCPAddr).Port
	s.Addr = l.Addr().String()
	if err := s.launch(); !errors.Is(err, errAddrInUse) {
		s.Stop()
		t.Fatalf("launch on a port in use: %v, want errAddrInUse", err)
	}
	// startFresh moves on to other ports.
	if err := s.startFresh(); err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if s.Addr == l.Addr().String() {
		t.Fatal("startFresh kept the port in use")
	}
}

func TestLocateMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := locate(); err == nil || err.Error() != missingHint {
		t.Fatalf("locate with an empty PATH: %v, want %q", err, missingHint)
	}
}

func TestCluster(t *testing.T) {
	c := StartCluster(t, WithPassword("pw"))
	if len(c.Nodes) != Masters {
		t.Fatalf("%d nodes, want %d", len(c.Nodes), Masters)
	}
	for i, n := range c.Nodes {
		first, last := initialSlots(i, Masters)
		for _, s := range []int{first, last} {
			o, err := c.Owner(s)
			if err != nil {
				t.Fatal(err)
			}
			if o != n {
				t.Errorf("slot %d is on %s, want %s", s, o.Addr, n.Addr)
			}
		}
	}
	cc := c.Client(t)
	for s := 0; s < slot.Count; s += 997 {
		key := "{" + slot.TagFor(s) + "}:k"
		if err := cc.Set(ctx(t), key, s, 0).Err(); err != nil {
			t.Fatalf("SET %s: %v", key, err)
		}
		if got, err := cc.ClusterKeySlot(ctx(t), key).Result(); err != nil || got != int64(s) {
			t.Fatalf("CLUSTER KEYSLOT %s = %d, %v; want %d", key, got, err, s)
		}
	}
}

// raw returns a single-node client that follows no redirection.
func raw(t *testing.T, n *Node) *redis.Client {
	o := n.Options()
	o.MaxRetries = -1
	rdb := redis.NewClient(o)
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func TestMigrateSlot(t *testing.T) {
	c := StartCluster(t)
	const s = 42
	tag := "{" + slot.TagFor(s) + "}"
	from, to, other := c.Nodes[0], c.Nodes[1], c.Nodes[2]
	src, dst, third := raw(t, from), raw(t, to), raw(t, other)
	for i := range 5 {
		if err := src.Set(ctx(t), fmt.Sprint(tag, i), i, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}

	m, err := c.BeginMigration(s, to)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.MoveKeys(tag+"0", tag+"missing"); err != nil {
		t.Fatal(err)
	}
	wantErr := func(rdb *redis.Client, key, want string) {
		t.Helper()
		err := rdb.Get(ctx(t), key).Err()
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("GET %s on %s: %v, want %s", key, rdb.Options().Addr, err, want)
		}
	}
	wantErr(src, tag+"0", fmt.Sprintf("ASK %d %s", s, to.Addr))
	if err := src.Get(ctx(t), tag+"1").Err(); err != nil {
		t.Errorf("GET of a key not yet moved on the source: %v", err)
	}
	wantErr(dst, tag+"0", fmt.Sprintf("MOVED %d %s", s, from.Addr))
	wantErr(third, tag+"0", fmt.Sprintf("MOVED %d %s", s, from.Addr))
	cc := c.Client(t)
	if v, err := cc.Get(ctx(t), tag+"0").Result(); err != nil || v != "0" {
		t.Errorf("cluster client GET during the migration: %q, %v", v, err)
	}

	if err := m.Finish(); err != nil {
		t.Fatal(err)
	}
	if o, err := c.Owner(s); err != nil || o != to {
		t.Fatalf("slot %d after the migration: %v, %v; want %s", s, o, err, to.Addr)
	}
	wantErr(src, tag+"1", fmt.Sprintf("MOVED %d %s", s, to.Addr))
	wantErr(third, tag+"1", fmt.Sprintf("MOVED %d %s", s, to.Addr))
	for i := range 5 {
		if v, err := dst.Get(ctx(t), fmt.Sprint(tag, i)).Result(); err != nil || v != fmt.Sprint(i) {
			t.Errorf("GET %s%d on the destination: %q, %v", tag, i, v, err)
		}
	}
	if err := c.MigrateSlot(s, to); err != nil {
		t.Fatalf("moving a slot to its owner: %v", err)
	}
	if err := c.MigrateSlot(s, from); err != nil {
		t.Fatal(err)
	}
	if o, err := c.Owner(s); err != nil || o != from {
		t.Fatalf("slot %d after moving it back: %v, %v; want %s", s, o, err, from.Addr)
	}
}

func TestStopNode(t *testing.T) {
	c := StartCluster(t)
	n := c.Nodes[2]
	id := n.ID
	if err := n.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := c.healthy(); err == nil {
		t.Fatal("cluster healthy with a node stopped")
	}
	cc := c.Client(t)
	key := "{" + slot.TagFor(0) + "}" // served by node 0
	if err := cc.Set(ctx(t), key, 1, 0).Err(); err != nil {
		t.Fatalf("SET on a running node: %v", err)
	}
	if err := n.Start(); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitHealthy(); err != nil {
		t.Fatal(err)
	}
	got, err := n.doString("CLUSTER", "MYID")
	if err != nil || got != id {
		t.Fatalf("node ID after restart: %q, %v; want %q", got, err, id)
	}
	if o, err := c.Owner(slot.Count - 1); err != nil || o != n {
		t.Fatalf("owner of the last slot after restart: %v, %v", o, err)
	}
}

func TestShared(t *testing.T) {
	c := Shared(t)
	if c2 := Shared(t); c2 != c {
		t.Fatal("Shared started a second cluster")
	}
	if err := c.Nodes[1].Stop(); err != nil {
		t.Fatal(err)
	}
	c = Shared(t) // starts the node again
	if err := c.Client(t).Ping(ctx(t)).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(shared.dir); err != nil {
		t.Fatal(err)
	}
}

func TestParseClusterNodes(t *testing.T) {
	text := "07c37dfeb235213a872192d90877d0cd55635b91 127.0.0.1:30004@31004,hostname4 slave e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 0 1426238317239 4 connected\n" +
		"67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 127.0.0.1:30002@31002 master - 0 1426238316232 2 connected 5461-10922 [5460-<-e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca]\n" +
		"e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 127.0.0.1:30001@31001 myself,master - 0 0 1 connected 0-5460 16383\n"
	v, err := parseClusterNodes(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.peers) != 3 || v.peers[0].addr != "127.0.0.1:30004" || v.peers[2].flags[0] != "myself" {
		t.Fatalf("peers = %+v", v.peers)
	}
	for s, want := range map[int]string{0: "e7d1", 5460: "e7d1", 5461: "67ed", 10922: "67ed", 10923: "", 16383: "e7d1"} {
		if !strings.HasPrefix(v.owner[s], want) || want == "" && v.owner[s] != "" {
			t.Errorf("owner of slot %d = %q, want %s...", s, v.owner[s], want)
		}
	}
	if _, err := parseClusterNodes("x 1:2@3 master - 0 0 1 connected 9-3\n"); err == nil {
		t.Error("a reversed slot range parsed")
	}
}

// TestTLSCluster starts a cluster whose nodes each have a certificate valid
// for their own loopback address only.
func TestTLSCluster(t *testing.T) {
	c := StartCluster(t, WithTLS())
	for i, n := range c.Nodes {
		if want := fmt.Sprintf("127.0.0.%d:", i+1); !strings.HasPrefix(n.Addr, want) {
			t.Errorf("node %d at %s, want %s*", i, n.Addr, want)
		}
	}
	cc := c.Client(t)
	for i := range 100 {
		if err := cc.Set(ctx(t), fmt.Sprint("k", i), "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	// A client that checks node 1 against node 0's address fails.
	o := c.Nodes[1].Options()
	o.TLSConfig = c.CA.ClientConfig("127.0.0.1")
	bad := redis.NewClient(o)
	defer bad.Close()
	if err := bad.Ping(ctx(t)).Err(); err == nil || !strings.Contains(err.Error(), "127.0.0.2") {
		t.Errorf("node 1 checked against 127.0.0.1: %v", err)
	}
}

// TestHostnameEndpoints starts a cluster that announces host names.
func TestHostnameEndpoints(t *testing.T) {
	c := StartCluster(t, WithNodeConfig(func(int) []string {
		return []string{"cluster-announce-hostname localhost", "cluster-preferred-endpoint-type hostname"}
	}))
	slots, err := c.Nodes[0].Client(t).ClusterSlots(ctx(t)).Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range slots {
		if !strings.HasPrefix(s.Nodes[0].Addr, "localhost:") {
			t.Errorf("CLUSTER SLOTS gives %s", s.Nodes[0].Addr)
		}
	}
}

// TestFailover starts a cluster with replicas and fails a master over.
func TestFailover(t *testing.T) {
	c := StartCluster(t, WithReplicas())
	if len(c.Replicas) != Masters {
		t.Fatalf("%d replicas", len(c.Replicas))
	}
	if err := c.Failover(c.Replicas[1]); err != nil {
		t.Fatal(err)
	}
	o, err := c.Owner(initialSlotsFirst(1))
	if err != nil || o != c.Replicas[1] {
		t.Fatalf("slot owner after failover: %v %v", o, err)
	}
}

func initialSlotsFirst(i int) int {
	first, _ := initialSlots(i, Masters)
	return first
}
