package analyzer

import (
	"go/types"
	"testing"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/keyflow"
	"golang.org/x/tools/go/analysis"
)

// Which go-redis types pooled-transaction takes for pools of connections,
// from the rules alone, and the method that it suggests to hold one
// connection. A type the rules do not name, such as a project's struct
// that embeds a client, is none.
func TestPooled(t *testing.T) {
	l, err := taintLoader()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := slotlint.LoadRules("")
	if err != nil {
		t.Fatal(err)
	}
	const src = `package p

import "github.com/redis/go-redis/v9"

type Store struct{ *redis.Client }

var (
	client    *redis.Client
	cluster   *redis.ClusterClient
	ring      *redis.Ring
	universal redis.UniversalClient
	conn      *redis.Conn
	tx        *redis.Tx
	pipe      redis.Pipeliner
	sentinel  *redis.SentinelClient
	store     *Store
)
`
	pkg, err := l.Check("pooled/p", "p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	flow := keyflow.New(keyflow.Config{Fset: pkg.Fset, Pkg: pkg.Types, Info: pkg.Info, Files: pkg.Files, Rules: rules, Facts: noFacts{}})
	c := &checker{pass: &analysis.Pass{Fset: pkg.Fset, Pkg: pkg.Types, TypesInfo: pkg.Info, Files: pkg.Files}, rules: rules, flow: flow}
	for _, tc := range []struct {
		name   string
		pooled bool
		conn   string
	}{
		{"client", true, "Conn"},
		{"cluster", true, ""},
		{"ring", true, ""},
		{"universal", true, ""},
		{"conn", false, ""},
		{"tx", false, ""},
		{"pipe", false, ""},
		{"sentinel", false, ""},
		{"store", false, ""},
	} {
		typ := pkg.Types.Scope().Lookup(tc.name).Type()
		if got := c.pooled(typ); got != tc.pooled {
			t.Errorf("pooled(%s) = %v, want %v", types.TypeString(typ, nil), got, tc.pooled)
		}
		if !tc.pooled {
			continue
		}
		got := ""
		if fn := c.connMethod(typ); fn != nil {
			got = fn.Name()
		}
		if got != tc.conn {
			t.Errorf("connMethod(%s) = %q, want %q", types.TypeString(typ, nil), got, tc.conn)
		}
	}
}
