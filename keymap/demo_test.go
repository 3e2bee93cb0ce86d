package keymap_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/keymap"
)

var demo struct {
	once sync.Once
	m    *keymap.Map
	err  error
}

// demoMap is the map of testdata/demo, loaded once; the tests only read it.
func demoMap(t *testing.T) *keymap.Map {
	t.Helper()
	if testing.Short() {
		t.Skip("loads go-redis")
	}
	demo.once.Do(func() {
		root, err := filepath.Abs("..")
		if err != nil {
			demo.err = err
			return
		}
		m, failures, err := keymap.Load(keymap.Config{Dir: root}, "./testdata/demo/...")
		if err == nil && len(failures) > 0 {
			err = fmt.Errorf("failures: %v", failures)
		}
		if err != nil {
			demo.err = err
			return
		}
		m.Relative(root)
		demo.m = m
	})
	if demo.err != nil {
		t.Fatal(demo.err)
	}
	return demo.m
}

// TestDemo checks the map of testdata/demo: every family the demo builds,
// with its template, hashtag, origin, commands and sites; every edge with
// its verdict; the groups.
func TestDemo(t *testing.T) {
	m := demoMap(t)
	type fam struct {
		template, hashtag, origin, commands, types, sites string
	}
	want := map[string]fam{
		"job":              {"emq:{<queue>}:job:<id>", "{<queue>}", "template keys.Job", "EVALSHA", "", "queue/queue.go:37 queue/queue.go:49"},
		"pending":          {"emq:{<queue>}:pending", "{<queue>}", "template keys.Pending", "EVALSHA LMOVE", "list", "queue/queue.go:37 queue/queue.go:49 queue/queue.go:58 queue/queue.go:63"},
		"active":           {"emq:{<queue>}:active", "{<queue>}", "template keys.Active", "LMOVE", "list", "queue/queue.go:58"},
		"tmp-user-cache":   {"tmp:user:<uid>:cache", "none", "helper keys.TmpUserCache", "HSET RENAME", "hash", "shop/shop.go:19 shop/shop.go:29 shop/shop.go:32"},
		"user-cache":       {"user:<uid>:cache", "none", "helper keys.UserCache", "RENAME", "", "shop/shop.go:23 shop/shop.go:32"},
		"inventory-sku123": {"inventory:sku123", "none", "", "GET SET WATCH", "string", "shop/shop.go:37"},
		"order-456-status": {"order:456:status", "none", "", "SET WATCH", "string", "shop/shop.go:37"},
		"inventory":        {"inventory:{<sku>}", "{<sku>}", "", "GET SET WATCH", "string", "shop/shop.go:57"},
		"order":            {"order:{<sku>}:<order>", "{<sku>}", "", "SET WATCH", "string", "shop/shop.go:58"},
	}
	got := map[string]bool{}
	for _, f := range m.Families {
		got[f.Name] = true
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("unexpected family %s %q", f.Name, f.Template)
			continue
		}
		var cmds, sites []string
		for _, c := range f.Commands {
			cmds = append(cmds, c.Name)
		}
		for _, s := range f.Sites {
			if w := strings.TrimPrefix(s.Where, "testdata/demo/"); !slices.Contains(sites, w) {
				sites = append(sites, w)
			}
		}
		g := fam{f.Template, f.Hashtag, f.Origin, strings.Join(cmds, " "), strings.Join(f.Types, " "), strings.Join(sites, " ")}
		if g != w {
			t.Errorf("family %s:\n got %+v\nwant %+v", f.Name, g, w)
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("family %s is missing", name)
		}
	}
	// The constant families have their slots.
	for _, f := range m.Families {
		switch f.Name {
		case "inventory-sku123", "order-456-status":
			if f.Slot == nil || *f.Slot != map[string]int{"inventory-sku123": 5242, "order-456-status": 9813}[f.Name] {
				t.Errorf("family %s: slot %v", f.Name, f.Slot)
			}
		case "job":
			if f.Slot != nil {
				t.Errorf("family job has slot %d", *f.Slot)
			}
		}
	}

	edges := map[string]string{}
	for _, e := range m.Edges {
		var uses []string
		for _, u := range e.Uses {
			uses = append(uses, u.Kind+" "+u.Call+" "+strings.TrimPrefix(u.Where, "testdata/demo/")+" "+u.Verdict)
		}
		edges[e.A+" -- "+e.B] = e.Verdict + ": " + strings.Join(uses, "; ")
	}
	wantEdges := map[string]string{
		"active -- pending":                    "same: command LMOVE queue/queue.go:58 same",
		"job -- pending":                       "same: script EVALSHA queue/queue.go:37 same; script EVALSHA queue/queue.go:49 same",
		"pending -- pending":                   "maybe: command LMOVE queue/queue.go:63 maybe",
		"tmp-user-cache -- user-cache":         "different: command RENAME shop/shop.go:23 maybe; command RENAME shop/shop.go:32 different",
		"inventory-sku123 -- order-456-status": "different: transaction WATCH transaction shop/shop.go:38 different",
		"inventory -- order":                   "same: transaction WATCH transaction shop/shop.go:59 same",
	}
	for k, w := range wantEdges {
		if edges[k] != w {
			t.Errorf("edge %s:\n got %q\nwant %q", k, edges[k], w)
		}
	}
	if len(edges) != len(wantEdges) {
		t.Errorf("edges: got %v", edges)
	}

	groups := map[string]string{}
	for _, g := range m.Groups {
		groups[strings.Join(g.Families, ",")] = g.Name + " " + g.Verdict + " " + g.Hashtag
	}
	wantGroups := map[string]string{
		"job,pending,active":                "queue same {<queue>}",
		"tmp-user-cache,user-cache":         "tmp-user-cache different ",
		"inventory-sku123,order-456-status": "inventory-sku123 different ",
		"inventory,order":                   "sku same {<sku>}",
	}
	for k, w := range wantGroups {
		if groups[k] != w {
			t.Errorf("group %s: got %q, want %q", k, groups[k], w)
		}
	}
	if len(groups) != len(wantGroups) {
		t.Errorf("groups: got %v", groups)
	}
}

// TestDemoRules checks that the rules file the map writes loads as slotlint
// -rules loads it, with every family that has a template and the groups
// whose templates share a hashtag.
func TestDemoRules(t *testing.T) {
	m := demoMap(t)
	var buf bytes.Buffer
	if err := m.WriteRules(&buf); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "keys.yaml")
	if err := os.WriteFile(file, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	rules, err := slotlint.LoadRules(file)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	for _, name := range []string{"job", "pending", "active", "tmp-user-cache", "user-cache", "inventory-sku123", "order-456-status", "inventory", "order"} {
		if rules.Family(name) == nil {
			t.Errorf("rules lack family %s:\n%s", name, buf.String())
		}
	}
	var groups []string
	for _, g := range rules.Groups {
		groups = append(groups, g.Name+"="+strings.Join(g.Families, ","))
	}
	if got := strings.Join(groups, " "); got != "queue=job,pending,active sku=inventory,order" {
		t.Errorf("groups %q", got)
	}
	// Each key is of its own family: constants before the templates that
	// would also match them.
	for key, fam := range map[string]string{
		"user:123:cache": "user-cache", "tmp:user:123:cache": "tmp-user-cache",
		"emq:{orders}:job:42": "job", "inventory:sku123": "inventory-sku123",
		"order:{sku9}:7": "order", "legacy:session:1": "",
	} {
		f, _, ok := rules.Match(key)
		if got := ""; ok {
			got = f.Name
			if got != fam {
				t.Errorf("key %q is of family %s, want %s", key, got, fam)
			}
		} else if fam != "" {
			t.Errorf("key %q matches no family, want %s", key, fam)
		}
	}
	if !strings.Contains(buf.String(), "# tmp-user-cache: [tmp-user-cache, user-cache] are used together (different)") {
		t.Errorf("rules lack the comment on the group that does not share a slot:\n%s", buf.String())
	}
}

// TestDemoPictures checks that Mermaid and DOT draw every family and edge,
// coloured by verdict.
func TestDemoPictures(t *testing.T) {
	m := demoMap(t)
	var mer, dot bytes.Buffer
	if err := m.WriteMermaid(&mer); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"flowchart LR", `["job<br/>emq:{#lt;queue#gt;}:job:#lt;id#gt;"]`, `---|"RENAME: different"|`, "stroke:red", "stroke:green", "stroke:orange"} {
		if !strings.Contains(mer.String(), want) {
			t.Errorf("mermaid lacks %q:\n%s", want, mer.String())
		}
	}
	if n := strings.Count(mer.String(), "linkStyle"); n != len(m.Edges) {
		t.Errorf("mermaid styles %d links, want %d", n, len(m.Edges))
	}
	for _, want := range []string{"graph keyspace {", `"tmp-user-cache" -- "user-cache" [color=red, label="RENAME: different"]`, `"job" -- "pending" [color=green`} {
		if !strings.Contains(dot.String(), want) {
			t.Errorf("dot lacks %q:\n%s", want, dot.String())
		}
	}
}
