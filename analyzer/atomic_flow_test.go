package analyzer

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/internal/snippet"
	"github.com/slotlint/slotlint/keyflow"
	"golang.org/x/tools/go/analysis"
)

// The taint walk of the atomicity checks, tested on its own: for a Go
// snippet, each write and the reads that its values and its guard depend
// on, whatever the checks then make of them. A write is shown as
//
//	SET "k" value=[GET "k"] guard=[] in-watch
//
// with "in-watch" when it lies in a Watch function.
var taintCases = []struct {
	name string
	body string
	want []string
}{
	{
		name: "value-through-conversions",
		body: `n, _ := rdb.Get(ctx, "balance").Int()
	rdb.Set(ctx, "balance", strconv.Itoa(n-30), 0)`,
		want: []string{`SET "balance" value=[GET "balance"] guard=[]`},
	},
	{
		// A cache filled on a miss: the variable is set again, from
		// something else, and no longer carries the read.
		name: "assignment-replaces",
		body: `v := rdb.Get(ctx, "a").Val()
	v = "fresh"
	rdb.Set(ctx, "b", v, 0)`,
		want: []string{`SET "b" value=[] guard=[]`},
	},
	{
		name: "early-return-guards",
		body: `n, _ := rdb.Get(ctx, "stock").Int()
	if n <= 0 {
		return
	}
	rdb.Set(ctx, "order", "reserved", 0)`,
		want: []string{`SET "order" value=[] guard=[GET "stock"]`},
	},
	{
		// An error says whether a read worked, not what it read.
		name: "errors-carry-nothing",
		body: `_, err := rdb.Get(ctx, "a").Result()
	if err != nil {
		return
	}
	rdb.Set(ctx, "b", "1", 0)`,
		want: []string{`SET "b" value=[] guard=[]`},
	},
	{
		name: "scan-into-pointer",
		body: `var v int
	rdb.Get(ctx, "a").Scan(&v)
	rdb.Set(ctx, "b", v+1, 0)`,
		want: []string{`SET "b" value=[GET "a"] guard=[]`},
	},
	{
		name: "keys-are-not-values",
		body: `id := rdb.Get(ctx, "current").Val()
	rdb.Set(ctx, "job:"+id, "done", 0)`,
		want: []string{`SET "job:<rdb.Get(ctx, \"current\").Val()>" value=[] guard=[]`},
	},
	{
		name: "watch-function",
		body: `rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, _ := tx.Get(ctx, "counter").Int()
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "counter", n+1, 0)
			return nil
		})
		return err
	}, "counter")`,
		want: []string{`SET "counter" value=[GET "counter"] guard=[] in-watch`},
	},
}

func TestTaintFlow(t *testing.T) {
	l, err := taintLoader()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := slotlint.LoadRules("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range taintCases {
		t.Run(tc.name, func(t *testing.T) {
			src := "package p\n\nimport (\n\t\"context\"\n\t\"strconv\"\n\n\t\"github.com/redis/go-redis/v9\"\n)\n\nvar _ = strconv.Itoa\n\n" +
				"func f(ctx context.Context, rdb *redis.Client) {\n\t" + tc.body + "\n}\n"
			pkg, err := l.Check("taint/"+tc.name, "p.go", src)
			if err != nil {
				t.Fatal(err)
			}
			flow := keyflow.New(keyflow.Config{Fset: pkg.Fset, Pkg: pkg.Types, Info: pkg.Info, Files: pkg.Files, Rules: rules, Facts: noFacts{}})
			c := &checker{pass: &analysis.Pass{Fset: pkg.Fset, Pkg: pkg.Types, TypesInfo: pkg.Info, Files: pkg.Files}, rules: rules, flow: flow}
			var got []string
			for _, s := range flow.Funcs() {
				a := c.atomicWalk(s)
				if a == nil {
					continue
				}
				for _, ws := range a.writes {
					line := fmt.Sprintf("%s value=%s guard=%s", a.show(ws.op), showTaint(a, ws.value), showTaint(a, ws.guard))
					if ws.region != nil {
						line += " in-watch"
					}
					got = append(got, line)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("writes:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

func showTaint(a *atomicity, t taint) string {
	s := make([]string, len(t))
	for i, r := range t {
		s[i] = a.show(a.reads[r].op)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

var taintLoader = sync.OnceValues(func() (*snippet.Loader, error) {
	return snippet.NewLoader("..", "context", "strconv", "github.com/redis/go-redis/v9")
})

// noFacts is a package with no facts to import.
type noFacts struct{}

func (noFacts) ImportObjectFact(obj types.Object, fact analysis.Fact) bool { return false }
func (noFacts) ExportObjectFact(obj types.Object, fact analysis.Fact)      {}
