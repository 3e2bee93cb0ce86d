package keymap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/keyspace"
)

func TestPlaceholder(t *testing.T) {
	for expr, want := range map[string]string{
		"q.name": "name", "strconv.Itoa(order)": "order", "ids[i]": "ids", "uid": "uid",
		"fmt.Sprint(a, b)": "a", "": "v", "?": "v",
	} {
		if got := placeholder(expr); got != want {
			t.Errorf("placeholder(%q) = %q, want %q", expr, got, want)
		}
	}
}

func TestTemplateOf(t *testing.T) {
	u := func(name string) keyspace.Key { return keyspace.Unknown("", name, false) }
	for _, c := range []struct {
		key  keyspace.Key
		want string
		ok   bool
	}{
		{keyspace.Concat(keyspace.Lit("emq:{"), u("q.name"), keyspace.Lit("}:job:"), u("id")), "emq:{<name>}:job:<id>", true},
		{keyspace.Concat(keyspace.Lit("a:"), u("x"), keyspace.Lit(":"), u("x")), "a:<x>:<x2>", true},
		{keyspace.Lit("user:123:cache"), "user:123:cache", true},
		{u("key"), "", false},                                    // no literal text
		{keyspace.Lit("a{b}c{d}"), "", false},                    // braces that are not one hashtag
		{keyspace.Lit("has space"), "", false},                   // a byte templates refuse
		{keyspace.Concat(keyspace.Lit("x<"), u("y")), "", false}, // '<' in the text
	} {
		got, ok := templateOf(c.key)
		if got != c.want || ok != c.ok {
			t.Errorf("templateOf(%s) = %q, %v; want %q, %v", c.key, got, ok, c.want, c.ok)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"UserCache": "user-cache", "Job": "job", "HTTPCache": "http-cache", "tmp_key": "tmp-key"} {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"order:{<sku>}:<order>": "order", "order:456:status": "order-456-status", "<a>:<b>": "key", "42:x": "key-42-x"} {
		if got := words(in); got != want {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBuildAcrossPackages joins parts of two packages: one family under
// two placeholder names is one family named after its helper, a constant
// key of it is folded in, and a group's hashtags get one placeholder name
// so that the rules file proves the group.
func TestBuildAcrossPackages(t *testing.T) {
	helper := &Part{Path: "app/users", Families: []*PartFamily{
		{ID: "user:<uid>:cache", Name: "UserCache", Origin: "helper keys.UserCache", Rank: 2,
			Commands: []Command{{Name: "GET", Read: true}}, Sites: []BuiltAt{{Where: "/m/users/u.go:10", Key: "user:<uid>:cache", Slot: -1}}},
	}}
	other := &Part{Path: "app/admin", Families: []*PartFamily{
		{ID: "user:<id>:cache", Commands: []Command{{Name: "RENAME", Write: true}}, Sites: []BuiltAt{{Where: "/m/admin/a.go:5", Key: "user:<id>:cache", Slot: -1}}},
		{ID: "tmp:user:<id>:cache", Commands: []Command{{Name: "RENAME", Write: true}}, Sites: []BuiltAt{{Where: "/m/admin/a.go:5", Key: "tmp:user:<id>:cache", Slot: -1}}},
		{ID: "user:7:cache", Literal: true, Commands: []Command{{Name: "DEL", Write: true}}, Sites: []BuiltAt{{Where: "/m/admin/a.go:9", Key: "user:7:cache", Slot: 1234}}},
		{ID: "stock:{<sku>}", Sites: []BuiltAt{{Where: "/m/admin/b.go:1", Key: "stock:{<sku>}", Slot: -1}}},
		{ID: "order:{<s>}:<sku>", Sites: []BuiltAt{{Where: "/m/admin/b.go:2", Key: "order:{<s>}:<sku>", Slot: -1}}},
	}, Uses: []*Use{
		{Kind: "command", Call: "RENAME", Where: "/m/admin/a.go:5", Pairs: []Pair{{A: "tmp:user:<id>:cache", B: "user:<id>:cache", Verdict: keyspace.Maybe}}},
		{Kind: "transaction", Call: "MULTI/EXEC transaction", Where: "/m/admin/b.go:3", Pairs: []Pair{{A: "order:{<s>}:<sku>", B: "stock:{<sku>}", Verdict: keyspace.Same}}},
	}}
	m := Build([]*Part{other, helper}, slotlint.Builtin())
	byName := map[string]*Family{}
	for _, f := range m.Families {
		byName[f.Name] = f
	}
	uc := byName["user-cache"]
	if uc == nil || len(m.Families) != 4 {
		t.Fatalf("families: %v", names(m.Families))
	}
	if uc.Template != "user:<uid>:cache" || len(uc.Sites) != 3 || len(uc.Commands) != 3 {
		t.Errorf("user-cache: %q, sites %v, commands %v", uc.Template, uc.Sites, uc.Commands)
	}
	if len(m.Edges) != 2 {
		t.Fatalf("%d edges, want 2", len(m.Edges))
	}
	if e := m.Edges[1]; e.A != "tmp-user-cache" || e.B != "user-cache" || e.Verdict != "maybe" {
		t.Errorf("edge: %+v", *e)
	}
	if o := byName["order"]; o == nil || o.Template != "order:{<sku>}:<sku2>" {
		t.Errorf("order's template is not unified with stock's hashtag: %+v", o)
	}
	var buf bytes.Buffer
	if err := m.WriteRules(&buf); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "r.yaml")
	os.WriteFile(file, buf.Bytes(), 0o666)
	rules, err := slotlint.LoadRules(file)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(rules.Groups) != 1 || strings.Join(rules.Groups[0].Families, ",") != "stock,order" {
		t.Errorf("groups: %+v\n%s", rules.Groups, buf.String())
	}
	// The rules name the families they declare.
	rules.Families[0].Name = "stock-level"
	m = Build([]*Part{other, helper}, rules)
	found := false
	for _, f := range m.Families {
		found = found || f.Name == "stock-level" && f.Origin == "rules"
	}
	if !found {
		t.Errorf("the rules' name is not taken: %v", names(m.Families))
	}
}

func names(fs []*Family) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name+"="+f.Template)
	}
	return out
}
