package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// run runs slotcheck in-process.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code = RunContext(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// wantOneLine checks that stderr is one line holding each part.
func wantOneLine(t *testing.T, stderr string, parts ...string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line: %q", stderr)
	}
	for _, p := range parts {
		if !strings.Contains(stderr, p) {
			t.Errorf("stderr %q lacks %q", stderr, p)
		}
	}
}

const testRules = `version: 1
families:
  job: "emq:{<queue>}:job:<id>"
  pending: "emq:{<queue>}:pending"
  user: "user:<id>"
groups:
  queue: [job, pending]
`

func rulesFile(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "rules.yaml")
	if err := os.WriteFile(p, []byte(testRules), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUsage(t *testing.T) {
	code, out, _ := run(t, "--help")
	if code != ExitOK || !strings.Contains(out, "slotcheck audit --addr") {
		t.Fatalf("--help: %d %q", code, out)
	}
	for _, cmd := range []string{"slot", "verify", "audit", "traffic"} {
		code, out, _ := run(t, cmd, "--help")
		if code != ExitOK || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--timeout") || strings.Count(out, "Examples:") != 1 {
			t.Errorf("%s --help: %d %q", cmd, code, out)
		}
		if !strings.Contains(out, "ACL SETUSER NAME on >PASSWORD -@all") {
			t.Errorf("%s --help lacks the ACL rules", cmd)
		}
	}
	code, _, errs := run(t, "frob")
	if code != ExitUsage {
		t.Errorf("unknown command: %d", code)
	}
	wantOneLine(t, errs, `unknown command "frob"`)
	code, _, errs = run(t, "slot")
	if code != ExitUsage {
		t.Errorf("slot without keys: %d", code)
	}
	wantOneLine(t, errs, "no keys given")
	code, _, errs = run(t, "audit", "--password", "x")
	if code != ExitUsage {
		t.Errorf("--password: %d", code)
	}
	wantOneLine(t, errs, "unknown flag: --password")
	code, _, errs = run(t, "audit")
	wantOneLine(t, errs, "--addr is required")
	if code != ExitUsage {
		t.Errorf("audit without --addr: %d", code)
	}
}

// TestExitCodes: 2 for every kind of bad input, found before any server is
// reached; 130 when interrupted.
func TestExitCodes(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\nfamilies:\n  job: \"emq:{<queue>:job\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:1" // nothing listens: usage errors come first
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"audit", "--addr", addr, "--rules", bad}, "bad.yaml:3:"},
		{[]string{"verify", "--addr", addr, "--rules", bad}, "bad.yaml:3:"},
		{[]string{"audit", "--addr", addr, "--rules", "/nonexistent/rules.yaml"}, "no such file"},
		{[]string{"verify", "--addr", addr, "--tls", "--cacert", "/nonexistent/ca.pem"}, "--cacert"},
		{[]string{"audit", "--addr", "127.0.0.1:99999"}, "the port must be a number from 1 to 65535"},
		{[]string{"audit", "--addr", "127.0.0.1:http"}, "the port must be a number"},
		{[]string{"slot", "a", "--addr", ":7000"}, "is not HOST:PORT"},
		{[]string{"audit", "--addr", addr, "--timeout", "0"}, "--timeout 0s: it must be more than 0"},
		{[]string{"audit", "--addr", addr, "--rate", "NaN"}, "--rate NaN"},
		{[]string{"audit", "--addr", addr, "--rate", "1e12"}, "--rate 1e+12"},
		{[]string{"audit", "--addr", addr, "--rate", "0.001"}, "--rate 0.001"},
		{[]string{"audit", "--addr", addr, "--fail-on", "orphans,typos"}, `--fail-on "typos"`},
	} {
		code, _, errs := run(t, tc.args...)
		if code != ExitUsage {
			t.Errorf("%q: exit %d, want %d (%s)", tc.args, code, ExitUsage, errs)
		}
		wantOneLine(t, errs, tc.want)
	}

	// "--" ends the flags.
	code, out, errs := run(t, "slot", "--", "--addr", "-k")
	if code != ExitOK || !strings.Contains(out, `"--addr"`) || !strings.Contains(out, `"-k"`) {
		t.Errorf("slot -- KEYS: %d %q %q", code, out, errs)
	}

	// Interrupted: the context is cancelled, as SIGINT does in main.
	s := redistest.StartStandalone(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	if code := RunContext(ctx, []string{"audit", "--addr", s.Addr}, &o, &e); code != ExitInterrupted {
		t.Errorf("interrupted audit: exit %d (%s)", code, e.String())
	}
	wantOneLine(t, e.String(), "interrupted")
}

func TestSlot(t *testing.T) {
	code, out, _ := run(t, "slot", "user:{42}:cart", "a", "x{}y")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{`"user:{42}:cart"  8000   "42"`, `"a"               15495`, `empty "{}"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run(t, "slot", "--json", "{a}b")
	var rows []slotRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || code != ExitOK || len(rows) != 1 || rows[0].Slot != slot.Of("a") || rows[0].HashTag != "a" {
		t.Fatalf("--json: %d %v %q", code, err, out)
	}

	cl := redistest.Shared(t)
	code, out, errs := run(t, "slot", "--addr", cl.Nodes[1].Addr, "a", "{user}:1")
	if code != ExitOK || strings.Count(out, "agrees") != 2 || !strings.Contains(out, cl.Nodes[2].Addr) {
		t.Fatalf("slot --addr: %d %q %q", code, out, errs)
	}
}

func TestVerify(t *testing.T) {
	cl := redistest.Shared(t)
	code, out, errs := run(t, "verify", "--addr", cl.Nodes[0].Addr, "--rules", rulesFile(t), "--samples", "200")
	if code != ExitOK {
		t.Fatalf("verify: %d %q %q", code, out, errs)
	}
	for _, want := range []string{"family job", "group  queue", "200 samples: each sample in one slot", "OK: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run(t, "verify", "--addr", cl.Nodes[0].Addr, "--rules", rulesFile(t), "--json", "--samples", "50")
	var res struct {
		OK       bool
		Keys     int
		Families []struct {
			Name  string
			Slots int
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != ExitOK || !res.OK || len(res.Families) != 3 {
		t.Fatalf("--json: %d %v %q", code, err, out)
	}
	if res.Families[0].Slots < 40 {
		t.Errorf("job samples hit %d slots; want them spread", res.Families[0].Slots)
	}
}

func TestErrors(t *testing.T) {
	s := redistest.StartStandalone(t, redistest.WithPassword("right"))

	code, _, errs := run(t, "verify", "--addr", "127.0.0.1:1", "--timeout", "2s")
	if code != ExitError {
		t.Errorf("refused: exit %d", code)
	}
	t.Logf("%s", errs)
	wantOneLine(t, errs, "127.0.0.1:1", "connection refused")

	t.Setenv(PasswordEnv, "wrong")
	code, _, errs = run(t, "audit", "--addr", s.Addr)
	if code != ExitError {
		t.Errorf("wrong password: exit %d", code)
	}
	t.Logf("%s", errs)
	wantOneLine(t, errs, s.Addr, "authentication failed", "WRONGPASS")

	t.Setenv(PasswordEnv, "")
	code, _, errs = run(t, "audit", "--addr", s.Addr)
	if code != ExitError {
		t.Errorf("no password: exit %d", code)
	}
	t.Logf("%s", errs)
	wantOneLine(t, errs, "needs a password", PasswordEnv)

	t.Setenv(PasswordEnv, "right")
	code, _, errs = run(t, "verify", "--addr", s.Addr)
	if code != ExitError {
		t.Errorf("standalone: exit %d", code)
	}
	t.Logf("%s", errs)
	wantOneLine(t, errs, "is a standalone server", "needs a Redis Cluster")
	code, _, errs = run(t, "slot", "--addr", s.Addr, "a")
	if code != ExitError {
		t.Errorf("slot on standalone: exit %d", code)
	}
	wantOneLine(t, errs, "is a standalone server")
	// --cluster forces cluster mode: the server's own reply says no.
	code, _, errs = run(t, "slot", "--cluster", "--addr", s.Addr, "a")
	if code != ExitError {
		t.Errorf("slot --cluster on standalone: exit %d", code)
	}
	wantOneLine(t, errs, "cluster support disabled")

	// audit works on a standalone server.
	c := s.Client(t)
	c.Set(context.Background(), "k{}", "1", 0)
	code, out, errs := run(t, "audit", "--addr", s.Addr)
	if code != ExitOK || !strings.Contains(out, "standalone server") || !strings.Contains(out, `"k{}"`) {
		t.Errorf("audit standalone: %d %q %q", code, out, errs)
	}
}

// commandStats returns the calls per command of a node.
func commandStats(t *testing.T, addr string) map[string]int64 {
	c := redis.NewClient(&redis.Options{Addr: addr, DisableIdentity: true})
	defer c.Close()
	text, err := c.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for line := range strings.Lines(text) {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":calls=")
		if !ok {
			continue
		}
		n, _, _ := strings.Cut(rest, ",")
		out[strings.TrimPrefix(name, "cmdstat_")], _ = strconv.ParseInt(n, 10, 64)
	}
	return out
}

// TestAuditReadOnly audits the shared cluster and proves with INFO
// commandstats that only read commands reached the nodes.
func TestAuditReadOnly(t *testing.T) {
	cl := redistest.Shared(t)
	ctx := context.Background()
	cc := cl.Client(t)
	if err := cl.FlushAll(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.FlushAll() })
	var keys []string
	for i := range 3000 {
		keys = append(keys, fmt.Sprintf("emq:{q%d}:job:%d", i%40, i))
	}
	keys = append(keys, "stray", "a{}b", "open{", "user:7")
	for i := 0; i < len(keys); i += 500 {
		if _, err := cc.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, k := range keys[i:min(i+500, len(keys))] {
				p.Set(ctx, k, "v", 0)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	before := map[string]map[string]int64{}
	for _, n := range cl.Nodes {
		before[n.Addr] = commandStats(t, n.Addr)
	}
	code, out, errs := run(t, "audit", "--addr", cl.Nodes[0].Addr, "--rules", rulesFile(t), "--json", "--count", "100")
	if code != ExitOK {
		t.Fatalf("audit: %d %q", code, errs)
	}
	allowed := map[string]bool{"cluster": true, "info": true, "scan": true, "command": true, "ping": true, "hello": true, "client": true, "dbsize": true}
	builtin := slotlint.Builtin()
	for _, n := range cl.Nodes {
		after := commandStats(t, n.Addr)
		for name, calls := range after {
			if calls == before[n.Addr][name] {
				continue
			}
			parent, _, _ := strings.Cut(name, "|")
			c := builtin.Command(name)
			if !allowed[parent] || c == nil || c.IsWrite() {
				t.Errorf("node %s: the audit sent %s (%d calls)", n.Addr, name, calls-before[n.Addr][name])
			}
		}
	}
	var r struct {
		Keys     int64
		Families []struct {
			Name string
			Keys int64
		}
		Unmatched struct{ Keys int64 }
		Nodes     []struct{ Keys int64 }
		SlotKeys  map[string]int64 `json:"slot_keys"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Keys != int64(len(keys)) || r.Families[0].Keys != 3000 || r.Families[2].Keys != 1 || r.Unmatched.Keys != 3 || len(r.Nodes) != 3 {
		t.Errorf("report: %+v", r)
	}
	// The text report draws the histogram.
	code, out, _ = run(t, "audit", "--addr", cl.Nodes[0].Addr, "--rules", rulesFile(t))
	for _, want := range []string{"keys per master", "keys over slots", "█", "hot slots:", "master skew", `"open{"`, `(none)`} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	if code != ExitOK {
		t.Errorf("audit text: %d", code)
	}

	// --fail-on: broken hashtags fail the audit, with the report written.
	code, out, errs = run(t, "audit", "--addr", cl.Nodes[0].Addr, "--rules", rulesFile(t), "--fail-on", "orphans,broken-hashtag")
	if code != ExitMismatch || !strings.Contains(out, "broken hashtags") {
		t.Errorf("--fail-on broken-hashtag: %d %q", code, out)
	}
	wantOneLine(t, errs, "2 keys with a broken hashtag (--fail-on)")
	code, _, errs = run(t, "audit", "--addr", cl.Nodes[0].Addr, "--rules", rulesFile(t), "--fail-on", "orphans", "--json")
	if code != ExitOK {
		t.Errorf("--fail-on orphans without orphans: %d %q", code, errs)
	}
	code, _, errs = run(t, "audit", "--addr", cl.Nodes[0].Addr, "--rules", rulesFile(t), "--fail-on", "unmatched", "--json")
	if code != ExitMismatch {
		t.Errorf("--fail-on unmatched: %d", code)
	}
	wantOneLine(t, errs, "3 keys that match no key family")
}

// TestNodeDown kills a master while the audit scans, then waits for the
// cluster to fail and checks that verify and audit refuse a CLUSTERDOWN
// cluster.
func TestNodeDown(t *testing.T) {
	cl := redistest.StartCluster(t)
	ctx := context.Background()
	cc := cl.Client(t)
	for i := 0; i < 3000; i += 500 {
		if _, err := cc.Pipelined(ctx, func(p redis.Pipeliner) error {
			for j := i; j < i+500; j++ {
				p.Set(ctx, "k"+strconv.Itoa(j), "v", 0)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	// The node is killed at the first progress report. At 300 keys a
	// second the audit would take 10 s; the first node error must stop it
	// at once, with no master scanned to the end.
	var once sync.Once
	var stopErr error
	var last clustercheck.AuditProgress
	testProgress = func(p clustercheck.AuditProgress) {
		last = p
		once.Do(func() { stopErr = cl.Nodes[2].Kill() })
	}
	t.Cleanup(func() { testProgress = nil })
	code, _, errs := run(t, "audit", "--addr", cl.Nodes[0].Addr, "--count", "10", "--rate", "300", "--timeout", "2s")
	testProgress = nil
	if stopErr != nil {
		t.Fatal(stopErr)
	}
	if code != ExitError {
		t.Errorf("node down: exit %d", code)
	}
	t.Logf("node down: %s; last progress %+v", errs, last)
	wantOneLine(t, errs, "audit stopped", cl.Nodes[2].Addr, "connection refused")
	if last.Done != 0 || last.Keys >= last.Total {
		t.Errorf("the audit went on after the node died: %+v", last)
	}

	// With a master down and no replica, the cluster fails once the others
	// time the node out.
	c := cl.Nodes[0].Client(t)
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, err := c.ClusterInfo(ctx).Result()
		if err == nil && strings.Contains(info, "cluster_state:fail") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster did not fail: %v %q", err, info)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, cmd := range []string{"verify", "audit"} {
		code, _, errs = run(t, cmd, "--addr", cl.Nodes[0].Addr, "--timeout", "2s")
		if code != ExitError {
			t.Errorf("%s on a failed cluster: exit %d", cmd, code)
		}
		t.Logf("%s: %s", cmd, errs)
		wantOneLine(t, errs, "cluster_state:fail", "CLUSTERDOWN")
	}
}

// TestEndpointTypes audits, verifies and looks up keys on one cluster under
// each of its endpoint types (cluster-preferred-endpoint-type): the node
// identity the audit uses must not depend on the address go-redis connects
// to. A wrong identity shows as every key on "a master that does not serve
// its slot", or 0 keys.
func TestEndpointTypes(t *testing.T) {
	cl := redistest.StartCluster(t, redistest.WithNodeConfig(func(int) []string {
		return []string{"cluster-announce-hostname localhost"}
	}))
	ctx := context.Background()
	cc := cl.Client(t)
	var keys []string
	for i := range 3000 {
		keys = append(keys, fmt.Sprintf("emq:{q%d}:job:%d", i%40, i))
	}
	loadTestKeys(t, cc, keys)
	for _, typ := range []string{"ip", "hostname", "unknown-endpoint"} {
		t.Run(typ, func(t *testing.T) {
			for _, n := range cl.Nodes {
				if err := n.Client(t).ConfigSet(ctx, "cluster-preferred-endpoint-type", typ).Err(); err != nil {
					t.Fatal(err)
				}
			}
			code, out, errs := run(t, "audit", "--addr", cl.Nodes[0].Addr, "--rules", rulesFile(t), "--json")
			if code != ExitOK {
				t.Fatalf("audit: %d %q", code, errs)
			}
			var r struct {
				Keys    int64
				Orphans struct{ Keys int64 }
				Nodes   []struct {
					Addr  string
					ID    string
					Slots int
					Keys  int64
				}
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if r.Keys != int64(len(keys)) || r.Orphans.Keys != 0 || len(r.Nodes) != 3 {
				t.Fatalf("audit counted %d keys of %d, %d orphans, nodes %+v", r.Keys, len(keys), r.Orphans.Keys, r.Nodes)
			}
			var sum int64
			for i, n := range r.Nodes {
				sum += n.Keys
				if n.ID != cl.Nodes[i].ID || n.Slots == 0 || n.Keys == 0 {
					t.Errorf("node %d: %+v, want ID %s", i, n, cl.Nodes[i].ID)
				}
				_, port, _ := strings.Cut(cl.Nodes[i].Addr, ":")
				want := "127.0.0.1:" + port
				if typ == "hostname" {
					want = "localhost:" + port
				}
				if n.Addr != want {
					t.Errorf("node %d at %s, want %s", i, n.Addr, want)
				}
			}
			if sum != r.Keys {
				t.Errorf("nodes hold %d keys, the total is %d", sum, r.Keys)
			}
			code, out, errs = run(t, "verify", "--addr", cl.Nodes[1].Addr, "--rules", rulesFile(t), "--samples", "20")
			if code != ExitOK || !strings.Contains(out, "OK: ") {
				t.Errorf("verify: %d %q %q", code, out, errs)
			}
			code, out, errs = run(t, "slot", "--addr", cl.Nodes[2].Addr, "a")
			if code != ExitOK || !strings.Contains(out, "agrees") {
				t.Errorf("slot: %d %q %q", code, out, errs)
			}
		})
	}
}

// loadTestKeys writes keys with pipelined SETs.
func loadTestKeys(t *testing.T, cc *redis.ClusterClient, keys []string) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < len(keys); i += 500 {
		if _, err := cc.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, k := range keys[i:min(i+500, len(keys))] {
				p.Set(ctx, k, "v", 0)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTLSPerNodeCertificates runs slotcheck against a TLS cluster whose
// nodes each have a certificate valid for their own address only: every
// node must be checked against its own name, and a node whose certificate
// does not fit must be named in the error.
func TestTLSPerNodeCertificates(t *testing.T) {
	cl := redistest.StartCluster(t, redistest.WithTLS())
	ctx := context.Background()
	cc := cl.Client(t)
	var keys []string
	for i := range 300 {
		keys = append(keys, "k"+strconv.Itoa(i))
	}
	loadTestKeys(t, cc, keys)
	addr := cl.Nodes[0].Addr
	tlsArgs := []string{"--addr", addr, "--tls", "--cacert", cl.CA.CertFile}
	code, out, errs := run(t, append([]string{"audit", "--json"}, tlsArgs...)...)
	if code != ExitOK || !strings.Contains(out, `"keys": 300`) {
		t.Fatalf("audit over TLS: %d %q %q", code, out, errs)
	}
	code, out, errs = run(t, append([]string{"verify", "--rules", rulesFile(t), "--samples", "20"}, tlsArgs...)...)
	if code != ExitOK {
		t.Fatalf("verify over TLS: %d %q %q", code, out, errs)
	}
	code, out, errs = run(t, append([]string{"slot", "a", "b", "c"}, tlsArgs...)...)
	if code != ExitOK || strings.Count(out, "agrees") != 3 {
		t.Fatalf("slot over TLS: %d %q %q", code, out, errs)
	}
	code, out, errs = run(t, append([]string{"traffic", "--duration", "50ms"}, tlsArgs...)...)
	if code != ExitOK || !strings.Contains(out, "stopped by --duration") {
		t.Fatalf("traffic over TLS: %d %q %q", code, out, errs)
	}

	// Node 2 now presents a certificate for another address.
	bad, badKey, err := cl.CA.Issue("wrong", "127.0.0.9")
	if err != nil {
		t.Fatal(err)
	}
	n2 := cl.Nodes[2]
	if err := n2.Client(t).Do(ctx, "CONFIG", "SET", "tls-cert-file", bad, "tls-key-file", badKey).Err(); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, append([]string{"audit"}, tlsArgs...)...)
	if code != ExitError {
		t.Errorf("audit with a bad node certificate: exit %d", code)
	}
	t.Logf("bad certificate: %s", errs)
	wantOneLine(t, errs, n2.Addr, "127.0.0.9")
	if strings.Contains(errs, addr+": ") {
		t.Errorf("the error names --addr %s, not the failed node: %s", addr, errs)
	}
}

// TestOutput: keys that are not valid UTF-8 survive JSON, long keys are cut
// in text with their length, hashtags are quoted, and the progress line
// fits 80 columns.
func TestOutput(t *testing.T) {
	binary := "bin:\xff\xfe{t\x00g}"
	long := "user:" + strings.Repeat("x", 300)
	code, out, errs := run(t, "slot", "--json", "--", binary, "plain", long)
	if code != ExitOK {
		t.Fatalf("slot --json: %d %q", code, errs)
	}
	var rows []slotRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 3 {
		t.Fatalf("slot --json: %v %q", err, out)
	}
	got, err := base64.StdEncoding.DecodeString(rows[0].KeyBase64)
	if err != nil || string(got) != binary || rows[0].HashTag != "t\x00g" || rows[0].Key != "" || rows[0].Slot != slot.Of(binary) {
		t.Errorf("binary key: %+v", rows[0])
	}
	if rows[1].Key != "plain" || rows[1].KeyBase64 != "" {
		t.Errorf("plain key: %+v", rows[1])
	}
	code, out, _ = run(t, "slot", "--", binary, long, "user:{42}:cart")
	if code != ExitOK || !strings.Contains(out, `"bin:\xff\xfe{t\x00g}"`) || !strings.Contains(out, `"t\x00g"`) ||
		!strings.Contains(out, `… (305 bytes)`) || strings.Contains(out, strings.Repeat("x", 100)) || !strings.Contains(out, `"42"`) {
		t.Errorf("slot text:\n%s", out)
	}

	// The audit's JSON examples.
	s := redistest.StartStandalone(t)
	c := s.Client(t)
	ctx := context.Background()
	emptyTag := "bin:\xff\xfe{}"
	for _, k := range []string{emptyTag, long + "{"} {
		if err := c.Set(ctx, k, "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs = run(t, "audit", "--addr", s.Addr, "--json")
	if code != ExitOK {
		t.Fatalf("audit --json: %d %q", code, errs)
	}
	var r struct {
		KeyEncoding string `json:"key_encoding"`
		Empty       struct {
			Examples []struct {
				Key       *string `json:"key"`
				KeyBase64 string  `json:"key_base64"`
			}
		} `json:"empty_hashtag"`
		Unclosed struct {
			Examples []struct {
				Key string `json:"key"`
			}
		} `json:"unclosed_hashtag"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Empty.Examples) != 1 || r.Empty.Examples[0].Key != nil || !strings.Contains(r.KeyEncoding, "base64") {
		t.Fatalf("audit JSON: %+v %s", r, out)
	}
	if b, _ := base64.StdEncoding.DecodeString(r.Empty.Examples[0].KeyBase64); string(b) != emptyTag {
		t.Errorf("binary example %q", b)
	}
	if len(r.Unclosed.Examples) != 1 || r.Unclosed.Examples[0].Key != long+"{" {
		t.Errorf("long example: %+v", r.Unclosed)
	}
	code, out, _ = run(t, "audit", "--addr", s.Addr)
	if code != ExitOK || !strings.Contains(out, "… (306 bytes)") {
		t.Errorf("audit text:\n%s", out)
	}

	for _, p := range []clustercheck.AuditProgress{
		{Keys: 1, Total: 2, Done: 0, Nodes: 3},
		{Keys: 123_456_789_012, Total: 999_999_999_999, Done: 1000, Nodes: 1000},
		{Keys: 123_456_789_012, Done: 1000, Nodes: 1000},
	} {
		line := progressLine(p, time.Millisecond)
		if n := len([]rune(line)); n > 79 {
			t.Errorf("progress line of %d columns: %q", n, line)
		}
	}
	if line := progressLine(clustercheck.AuditProgress{Keys: 1_234_567, Total: 2_900_000, Done: 1, Nodes: 3}, time.Second); !strings.Contains(line, "1.2M/2.9M keys  1.2M keys/s  1/3 masters") {
		t.Errorf("progress line %q", line)
	}
}

// TestACLUsers runs each command as a user with exactly the ACL rules the
// README documents for it, on a cluster with a slot being migrated, so that
// the audit counts it again (CLUSTER COUNTKEYSINSLOT, GETKEYSINSLOT).
func TestACLUsers(t *testing.T) {
	readme, err := os.ReadFile("../../../../docs/runtime.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range []string{ACLSlot, ACLAudit} {
		if !strings.Contains(string(readme), rules) {
			t.Errorf("docs/runtime.md does not show the ACL rules %q", rules)
		}
	}
	cl := redistest.StartCluster(t, redistest.WithConfig(
		"user slotuser on >pw1 "+ACLSlot,
		"user audituser on >pw2 "+ACLAudit,
		"user weak on >pw3 "+strings.Replace(ACLAudit, " +cluster|countkeysinslot", "", 1),
	))
	cc := cl.Client(t)
	var keys []string
	for i := range 2000 {
		keys = append(keys, "k"+strconv.Itoa(i))
	}
	loadTestKeys(t, cc, keys)
	m, err := cl.BeginMigration(slot.Of("k1"), cl.Nodes[(indexOf(t, cl, slot.Of("k1"))+1)%3])
	if err != nil {
		t.Fatal(err)
	}
	if err := m.MoveKeys("k1"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Finish() })
	addr := cl.Nodes[0].Addr

	t.Setenv(PasswordEnv, "pw1")
	code, out, errs := run(t, "slot", "--addr", addr, "--user", "slotuser", "a", "b")
	if code != ExitOK || strings.Count(out, "agrees") != 2 {
		t.Errorf("slot as slotuser: %d %q %q", code, out, errs)
	}
	code, out, errs = run(t, "verify", "--addr", addr, "--user", "slotuser", "--rules", rulesFile(t), "--samples", "10")
	if code != ExitOK {
		t.Errorf("verify as slotuser: %d %q %q", code, out, errs)
	}
	t.Setenv(PasswordEnv, "pw2")
	code, out, errs = run(t, "audit", "--addr", addr, "--user", "audituser", "--json")
	if code != ExitOK || !strings.Contains(out, `"keys": 2000`) || !strings.Contains(out, strconv.Itoa(slot.Of("k1"))) {
		t.Errorf("audit as audituser: %d %q %q", code, out, errs)
	}
	// Without CLUSTER COUNTKEYSINSLOT the recount fails, naming it.
	t.Setenv(PasswordEnv, "pw3")
	code, _, errs = run(t, "audit", "--addr", addr, "--user", "weak")
	if code != ExitError {
		t.Errorf("audit as weak: %d", code)
	}
	wantOneLine(t, errs, "CLUSTER COUNTKEYSINSLOT", "NOPERM")
	// No denial was logged for the two users with the documented rules.
	for _, n := range cl.Nodes {
		entries, err := n.Client(t).Do(context.Background(), "ACL", "LOG").Slice()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if s := fmt.Sprint(e); !strings.Contains(s, "weak") {
				t.Errorf("node %s denied: %s", n.Addr, s)
			}
		}
	}
}

func indexOf(t *testing.T, cl *redistest.Cluster, s int) int {
	o, err := cl.Owner(s)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range cl.Nodes {
		if n == o {
			return i
		}
	}
	t.Fatalf("no owner of slot %d", s)
	return -1
}

// TestFailoverMidAudit fails a master over while the audit scans: the
// report must count every key once, list the masters at the end (3, none
// with 0 slots), compute the skew over them, and say what changed.
func TestFailoverMidAudit(t *testing.T) {
	cl := redistest.StartCluster(t, redistest.WithReplicas())
	cc := cl.Client(t)
	var keys []string
	for i := range 3000 {
		keys = append(keys, "k"+strconv.Itoa(i))
	}
	loadTestKeys(t, cc, keys)
	var once sync.Once
	var foErr error
	testProgress = func(clustercheck.AuditProgress) {
		once.Do(func() { foErr = cl.Failover(cl.Replicas[1]) })
	}
	t.Cleanup(func() { testProgress = nil })
	code, out, errs := run(t, "audit", "--addr", cl.Nodes[0].Addr, "--count", "10", "--json")
	testProgress = nil
	if foErr != nil {
		t.Fatal(foErr)
	}
	if code != ExitOK {
		t.Fatalf("audit: %d %q", code, errs)
	}
	var r struct {
		Keys     int64
		NodeSkew float64 `json:"node_skew"`
		Nodes    []struct {
			Addr  string
			ID    string
			Slots int
			Keys  int64
		}
		Changes []string
		Orphans struct{ Keys int64 }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Keys != int64(len(keys)) || r.Orphans.Keys != 0 || len(r.Nodes) != 3 {
		t.Fatalf("report: %d keys, %d orphans, nodes %+v", r.Keys, r.Orphans.Keys, r.Nodes)
	}
	var most, sum int64
	for i, n := range r.Nodes {
		if n.Slots == 0 {
			t.Errorf("node %+v has no slots", n)
		}
		want := cl.Nodes[i].ID
		if i == 1 {
			want = cl.Replicas[1].ID
		}
		if n.ID != want {
			t.Errorf("master %d is %s, want %s", i, n.ID, want)
		}
		most = max(most, n.Keys)
		sum += n.Keys
	}
	if sum != r.Keys || r.NodeSkew != float64(most)*3/float64(r.Keys) {
		t.Errorf("node keys sum to %d, skew %v", sum, r.NodeSkew)
	}
	joined := strings.Join(r.Changes, "; ")
	for _, want := range []string{
		"master " + cl.Nodes[1].Addr + " became a replica of " + cl.Replicas[1].Addr + " (failover)",
		"replica " + cl.Replicas[1].Addr + " became a master with 5461 slots (failover)",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("changes %q lack %q", r.Changes, want)
		}
	}
}

// buildSlotcheck builds the slotcheck binary into the test's directory.
func buildSlotcheck(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "slotcheck")
	build := exec.Command("go", "build", "-o", bin, "github.com/slotlint/slotlint/cmd/slotcheck")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestSIGINT runs the slotcheck binary, interrupts a slow audit with
// SIGINT, and expects exit status 130 and one line on stderr.
func TestSIGINT(t *testing.T) {
	s := redistest.StartStandalone(t)
	c := s.Client(t)
	ctx := context.Background()
	for i := range 20 {
		if err := c.Set(ctx, "k"+strconv.Itoa(i), "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	bin := buildSlotcheck(t)
	clients := func() int {
		info := c.Info(ctx, "clients").Val()
		for line := range strings.Lines(info) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "connected_clients:"); ok {
				n, _ := strconv.Atoi(v)
				return n
			}
		}
		return 0
	}
	before := clients()
	cmd := exec.Command(bin, "audit", "--addr", s.Addr, "--count", "1", "--rate", "1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Once it has connected, it handles SIGINT.
	for clients() <= before {
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
		t.Fatalf("exit: %v; stderr %q", err, stderr.String())
	}
	wantOneLine(t, stderr.String(), "slotcheck audit: interrupted")
}
