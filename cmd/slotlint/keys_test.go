package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/slotlint/slotlint/internal/redistest"
)

var slotcheckBuild struct {
	once sync.Once
	path string
	err  error
}

// slotcheckBin returns the path of the slotcheck binary, built on first use.
func slotcheckBin(t *testing.T) string {
	t.Helper()
	slotcheckBuild.once.Do(func() {
		slotcheckBuild.path = filepath.Join(binDir, "slotcheck")
		out, err := exec.Command("go", "build", "-o", slotcheckBuild.path, "../slotcheck").CombinedOutput()
		if err != nil {
			slotcheckBuild.err = &buildError{string(out)}
		}
	})
	if slotcheckBuild.err != nil {
		t.Fatalf("building slotcheck: %v", slotcheckBuild.err)
	}
	return slotcheckBuild.path
}

type buildError struct{ out string }

func (e *buildError) Error() string { return e.out }

// demoRules writes the rules file of the demo's map and returns its path.
func demoRules(t *testing.T, bin, root string) string {
	t.Helper()
	r := run(t, root, nil, bin, "keys", "-format=rules", "./testdata/demo/...")
	if r.code != 0 {
		t.Fatalf("slotlint keys -format=rules: exit %d\n%s", r.code, r.stderr)
	}
	file := filepath.Join(t.TempDir(), "keys.yaml")
	if err := os.WriteFile(file, []byte(r.stdout), 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestKeys runs slotlint keys on the demo in every format, and the linter
// with the rules file that the map writes.
func TestKeys(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	t.Parallel()
	r := run(t, root, nil, bin, "keys", "./testdata/demo/...")
	if r.code != 0 {
		t.Fatalf("slotlint keys: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"families (9)",
		"  job  emq:{<queue>}:job:<id>",
		"hashtag {<queue>}; built by template keys.Job",
		"built at: testdata/demo/shop/shop.go:23, testdata/demo/shop/shop.go:32 (\"user:123:cache\", slot 7641)",
		"  tmp-user-cache -- user-cache  different",
		"    command RENAME at testdata/demo/shop/shop.go:32: different",
		"  queue: job, pending, active\n    share hashtag {<queue>}; uses: same",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, r.stdout)
		}
	}
	r = run(t, root, nil, bin, "keys", "-format=json", "./testdata/demo/...")
	var m struct {
		Families []struct{ Name, Template string }
		Edges    []struct{ A, B, Verdict string }
		Groups   []struct{ Name string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil || r.code != 0 || len(m.Families) != 9 || len(m.Edges) != 6 || len(m.Groups) != 4 {
		t.Errorf("-format=json: exit %d, %v, %d families, %d edges, %d groups\n%s", r.code, err, len(m.Families), len(m.Edges), len(m.Groups), r.stdout)
	}
	if !strings.Contains(r.stdout, "<") || strings.Contains(r.stdout, `\u003c`) {
		t.Errorf("-format=json escapes < and > in key templates:\n%s", r.stdout)
	}
	for format, want := range map[string]string{"mermaid": "flowchart LR", "dot": "graph keyspace {"} {
		if r := run(t, root, nil, bin, "keys", "-format="+format, "./testdata/demo/..."); r.code != 0 || !strings.HasPrefix(r.stdout, want) {
			t.Errorf("-format=%s: exit %d\n%s%s", format, r.code, r.stdout, r.stderr)
		}
	}

	// The rules file loads with slotlint -rules: the linter runs and
	// reports the demo's findings.
	rules := demoRules(t, bin, root)
	r = run(t, root, nil, bin, "-rules", rules, "-cache=false", "./testdata/demo/...")
	if r.code != 3 {
		t.Fatalf("slotlint -rules %s: exit %d, want 3 (findings)\n%s", rules, r.code, r.stderr)
	}
	wantFindings(t, r.stderr, root, demoFindings)

	// With the rules, the map takes the rules' names.
	data, _ := os.ReadFile(rules)
	renamed := strings.Replace(string(data), "  job: ", "  queue-job: ", 1)
	renamed = strings.Replace(renamed, "[job, pending", "[queue-job, pending", 1)
	if err := os.WriteFile(rules, []byte(renamed), 0o666); err != nil {
		t.Fatal(err)
	}
	r = run(t, root, nil, bin, "keys", "-rules", rules, "./testdata/demo/...")
	if r.code != 0 || !strings.Contains(r.stdout, "  queue-job  emq:{<queue>}:job:<id>") {
		t.Errorf("keys -rules: exit %d, want the family named queue-job\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestKeysBadInput(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	t.Parallel()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"keys", "-format=svg", "./testdata/demo/..."}, 2, "-format=svg is not a format of the map; use one of text, json, rules, mermaid, dot"},
		{[]string{"keys"}, 2, "name the packages to map"},
		{[]string{"keys", "-rules", "/nonexistent/rules.yaml", "./testdata/demo/..."}, 1, "/nonexistent/rules.yaml"},
		{[]string{"keys", "./nonexistent/..."}, 1, "slotlint keys:"},
	} {
		r := run(t, root, nil, bin, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), r.code, r.stderr, c.code, c.want)
		}
	}
}

// TestKeysLive closes the loop on a real cluster: the rules file that the
// map of the demo writes passes slotcheck verify, and slotcheck audit of a
// cluster loaded with the demo's keys and some orphans reports the
// orphans, the family with no live key, and each family's keys, slots and
// masters.
func TestKeysLive(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	cl := redistest.StartCluster(t)
	check := slotcheckBin(t)
	rules := demoRules(t, bin, root)
	addr := cl.Nodes[0].Addr

	r := run(t, root, nil, check, "verify", "--addr", addr, "--rules", rules, "--samples", "100")
	if r.code != 0 || !strings.Contains(r.stdout, "OK") {
		t.Fatalf("slotcheck verify --rules: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"family job", "group  queue", "group  sku"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("verify output lacks %q:\n%s", want, r.stdout)
		}
	}

	// The demo's keys: jobs of two queues, their lists, cached profiles,
	// the stock and order keys; no tmp:user:<uid>:cache key is left, as
	// RENAME moves it. And orphans no family of the code builds.
	ctx := context.Background()
	rdb := cl.Client(t)
	var keys []string
	for _, q := range []string{"orders", "emails"} {
		for i := range 20 {
			keys = append(keys, "emq:{"+q+"}:job:"+itoa(i))
		}
		keys = append(keys, "emq:{"+q+"}:pending", "emq:{"+q+"}:active")
	}
	for i := range 30 {
		keys = append(keys, "user:"+itoa(i)+":cache", "inventory:{sku"+itoa(i)+"}", "order:{sku"+itoa(i)+"}:"+itoa(i))
	}
	keys = append(keys, "inventory:sku123", "order:456:status")
	orphans := []string{"legacy:session:abc", "legacy:session:def", "cache:v1:home"}
	for _, k := range append(keys, orphans...) {
		if err := rdb.Set(ctx, k, "1", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	r = run(t, root, nil, check, "audit", "--addr", addr, "--rules", rules, "--json")
	if r.code != 0 {
		t.Fatalf("slotcheck audit --rules --json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rep struct {
		Keys      int64
		Unmatched struct {
			Keys     int64
			Examples []struct{ Key string }
		}
		Families []struct {
			Name           string
			Keys           int64
			Slots, Masters int
		}
		EmptyFamilies []string `json:"empty_families"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if rep.Keys != int64(len(keys)+len(orphans)) || rep.Unmatched.Keys != int64(len(orphans)) {
		t.Errorf("audit: %d keys, %d unmatched; want %d and %d", rep.Keys, rep.Unmatched.Keys, len(keys)+len(orphans), len(orphans))
	}
	var ex []string
	for _, e := range rep.Unmatched.Examples {
		ex = append(ex, e.Key)
	}
	for _, o := range orphans {
		if !strings.Contains(strings.Join(ex, " "), o) {
			t.Errorf("audit does not name orphan %q: %v", o, ex)
		}
	}
	if strings.Join(rep.EmptyFamilies, " ") != "tmp-user-cache" {
		t.Errorf("families with no live key: %v, want [tmp-user-cache]", rep.EmptyFamilies)
	}
	want := map[string][3]int{
		"job": {40, 2, -1}, "pending": {2, 2, -1}, "active": {2, 2, -1}, "user-cache": {30, -1, -1},
		"inventory": {30, -1, -1}, "order": {30, -1, -1}, "inventory-sku123": {1, 1, 1}, "order-456-status": {1, 1, 1},
		"tmp-user-cache": {0, 0, 0},
	}
	for _, f := range rep.Families {
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("audit family %s is not the map's", f.Name)
			continue
		}
		if f.Keys != int64(w[0]) || w[1] >= 0 && f.Slots != w[1] || w[2] >= 0 && f.Masters != w[2] {
			t.Errorf("family %s: %d keys, %d slots, %d masters; want %v", f.Name, f.Keys, f.Slots, f.Masters, w)
		}
		if f.Keys > 0 && (f.Slots < 1 || f.Masters < 1 || f.Masters > redistest.Masters) {
			t.Errorf("family %s: %d keys over %d slots and %d masters", f.Name, f.Keys, f.Slots, f.Masters)
		}
		if f.Name == "user-cache" && f.Masters < 2 {
			t.Errorf("user-cache's 30 keys without a hashtag sit on %d master(s); want them spread", f.Masters)
		}
	}
	r = run(t, root, nil, check, "audit", "--addr", addr, "--rules", rules)
	for _, want := range []string{"families with no live key: tmp-user-cache", "legacy:session:", "masters"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("audit text lacks %q:\n%s", want, r.stdout)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
