package keyflow_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/internal/snippet"
	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
)

// The engine's tests give Go snippets, type-checked against the real
// go-redis v9 that the module's go.mod requires, and assert what the engine
// resolves: the symbolic keys at each call site and each transaction's
// key set, never the text of a finding.
//
// A snippet is the body of a file of package p, after the imports every
// snippet gets. Its model is dumped one line per site, in the order of the
// function's body:
//
//	F: NAME [alt|alt] [key] open
//
// where F is the function, NAME the site's Name, each [...] a group of keys
// with its alternatives, and "open" marks keys the engine cannot see. A
// transaction's line lists all its keys; its commands follow with the
// handle they are sent on ("on tx", "queued", "piped") and the line of the
// call that made the handle, counted from the function's first line ("@L1").

const header = `package p

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/keyspace"
)

var (
	_ = fmt.Sprint
	_ = strings.Join
	_ = keyspace.MustTemplate
)

`

type engineCase struct {
	name string
	src  string
	// dep is a package "dep" that src may import as
	// "snippets/dep"; its facts reach src's engine.
	dep string
	// rules, when set, are merged over the built-in rules.
	rules string
	want  []string
}

var engineCases = []engineCase{
	{
		// After ODIM's plugin-unmanaged-racks db.CreateKey: a helper of
		// parts joined into a named string type, called through another
		// helper that prepends a part.
		name: "join-parts-named-type",
		src: `type Key string

func (k Key) String() string { return string(k) }

func mk(keys ...string) Key { return Key(strings.Join(keys, ":")) }

func contains(tokens ...string) Key { return mk(append([]string{"CONTAINS"}, tokens...)...) }

func f(ctx context.Context, rdb *redis.Client, x, y string) {
	rdb.Del(ctx, mk("Chassis", y).String(), string(mk("Other", x)), contains("Chassis", x).String())
}`,
		want: []string{`f: DEL ["Chassis:<y>"] ["Other:<x>"] ["CONTAINS:Chassis:<x>"]`},
	},
	{
		name: "literals",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	rdb.Rename(ctx, "tmp:user:1", "user:1")
	rdb.MGet(ctx, "a", "{a}:b")
}`,
		want: []string{
			`f: RENAME ["tmp:user:1"] ["user:1"]`,
			`f: MGET ["a"] ["{a}:b"]`,
		},
	},
	{
		// Built as in shop.go of the demo: a key and its temporary copy.
		name: "sprintf-concat-variables",
		src: `func f(ctx context.Context, rdb *redis.Client, uid int) {
	k := fmt.Sprintf("user:%d:cache", uid)
	tmp := "tmp:" + k
	rdb.Rename(ctx, tmp, k)
}`,
		want: []string{`f: RENAME ["tmp:user:<uid>:cache"] ["user:<uid>:cache"]`},
	},
	{
		// After adjust/rmq's newQueue: placeholders filled in turn.
		name: "strings-replace-in-turn",
		src: `func f(ctx context.Context, rdb *redis.Client, name, conn string) {
	k := strings.Replace("a::{connection}::[{queue}]::u", "{connection}", conn, 1)
	k = strings.Replace(k, "{queue}", name, 1)
	rdb.RPopLPush(ctx, strings.ReplaceAll("q::{queue}::{queue}", "{queue}", name), k)
}`,
		want: []string{`f: RPOPLPUSH ["q::<name>::<name>"] ["a::<conn>::[<name>]::u"]`},
	},
	{
		// After gocraft/work's RetryAllDeadJobs: an append after the loop
		// keeps what the loop appended.
		name: "append-after-loop-keeps-loop",
		src: `func f(ctx context.Context, rdb *redis.Client, ids []string) {
	keys := []string{"dead"}
	for _, id := range ids {
		keys = append(keys, "jobs:"+id)
	}
	keys = append(keys, "last")
	rdb.MGet(ctx, keys...)
}`,
		want: []string{`f: MGET ["dead"] ["jobs:<id>"] ["jobs:<id>"] ["last"]`},
	},
	{
		// After gocraft/work's redisKeyUniqueJob: a key written piece by
		// piece into a builder; a write made only on some paths is a hole.
		name: "builder-pieces",
		src: `func unique(ns, job string, args map[string]interface{}) string {
	var b strings.Builder
	b.WriteString(ns)
	b.WriteString("unique:")
	b.WriteString(job)
	b.WriteRune(':')
	if args != nil {
		b.WriteString(fmt.Sprint(args))
	}
	return b.String()
}

func f(ctx context.Context, rdb *redis.Client, job string) {
	var b strings.Builder
	b.WriteString("jobs:")
	b.WriteString(job)
	rdb.Rename(ctx, b.String(), unique("work:", job, nil))
}`,
		want: []string{`f: RENAME ["jobs:<job>"] ["work:unique:<job>:<fmt.Sprint(args)>"]`},
	},
	{
		name: "branches-give-alternatives",
		src: `func f(ctx context.Context, rdb *redis.Client, hot bool) {
	k := "cold:{x}"
	if hot {
		k = "hot:{x}"
	}
	rdb.LMove(ctx, k, "{x}:done", "LEFT", "RIGHT")
}`,
		want: []string{`f: LMOVE ["cold:{x}"|"hot:{x}"] ["{x}:done"]`},
	},
	{
		name: "helper-summary",
		src: `func pending(queue string) string { return "emq:{" + queue + "}:pending" }
func active(queue string) string  { return "emq:{" + queue + "}:active" }

func f(ctx context.Context, rdb *redis.Client, q string) {
	rdb.LMove(ctx, pending(q), active(q), "LEFT", "RIGHT")
}`,
		want: []string{`f: LMOVE ["emq:{<q>}:pending"] ["emq:{<q>}:active"]`},
	},
	{
		name: "slices-and-variadic",
		src: `func f(ctx context.Context, rdb *redis.Client, more []string) {
	keys := []string{"a", "b"}
	keys = append(keys, "c")
	rdb.Del(ctx, keys...)
	rdb.Del(ctx, more...)
	rdb.Eval(ctx, "return 1", []string{"{s}:1", "{s}:2"}, "arg")
}`,
		want: []string{
			`f: DEL ["a"] ["b"] ["c"]`,
			`f: DEL ["<more...>"] carried`,
			`f: EVAL ["{s}:1"] ["{s}:2"] script "return 1" keys 2 args 1`,
		},
	},
	{
		// Centrifuge's presence scripts: a helper builds KEYS and ARGV and
		// returns them with an error; its key helpers return a key without
		// a hashtag only where the shard is not a cluster.
		name: "helper-returns-keys-and-args",
		src: `func keysArgs(ch, uid string, isCluster bool) ([]string, []string, error) {
	if uid == "" {
		return nil, nil, fmt.Errorf("no user")
	}
	keys := []string{chKey(ch, "set", isCluster), chKey(ch, "hash", isCluster)}
	return keys, []string{uid, "60"}, nil
}

func chKey(ch, kind string, isCluster bool) string {
	if !isCluster {
		return "p." + kind + "." + ch
	}
	return "p." + kind + ".{" + ch + "}"
}

func f(ctx context.Context, rdb *redis.ClusterClient, isCluster bool) error {
	keys, args, err := keysArgs("chat", "u1", isCluster)
	if err != nil {
		return err
	}
	rdb.Del(ctx, args...)
	return rdb.Eval(ctx, "return 1", keys).Err()
}`,
		want: []string{
			`f: DEL ["u1"] ["60"]`,
			`f: EVAL ["p.set.{chat}"] ["p.hash.{chat}"] script "return 1" keys 2 args 0 cluster`,
		},
	},
	{
		name: "loop-elements-vary",
		src: `func f(ctx context.Context, rdb *redis.Client, ids []string) {
	var keys []string
	for _, id := range ids {
		keys = append(keys, "job:"+id)
	}
	rdb.Del(ctx, keys...)
}`,
		// An element built in a loop stands for many: it is given again as
		// another iteration sees it.
		want: []string{`f: DEL ["job:<id>"] ["job:<id>"]`},
	},
	{
		name: "raw-do",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	rdb.Do(ctx, "RENAME", "a", "b")
	rdb.Do(ctx, "EVAL", "return redis.call('GET', KEYS[1])", 1, "{k}:1", "x")
	rdb.Do(ctx, "PING")
}`,
		want: []string{
			`f: RENAME ["a"] ["b"]`,
			`f: EVAL ["{k}:1"] script "return redis.call('GET', KEYS[1])" keys 1 args 1`,
			`f: PING`,
		},
	},
	{
		name: "template",
		src: `var job = keyspace.MustTemplate("emq:{<queue>}:job:<id>")

func f(ctx context.Context, rdb *redis.Client, q, id string) {
	rdb.Rename(ctx, job.Key(q, id), "emq:{"+q+"}:done")
}`,
		want: []string{`f: RENAME ["emq:{<q>}:job:<id>"] ["emq:{<q>}:done"]`},
	},
	{
		// go-redis's own Watch example (example_test.go, ExampleClient_Watch),
		// reduced, with the update queued in MULTI/EXEC.
		name: "watch-transaction",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, _ := tx.Get(ctx, "counter").Int()
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "counter", n+1, 0)
			pipe.Incr(ctx, "updates")
			return nil
		})
		return err
	}, "counter")
}`,
		want: []string{
			`f: WATCH transaction ["counter"] ["counter"] ["counter"] ["updates"]`,
			`f: GET ["counter"] on tx @L1`,
			`f: MULTI/EXEC transaction on-tx on tx @L1`,
			`f: SET ["counter"] queued @L3`,
			`f: INCR ["updates"] queued @L3`,
		},
	},
	{
		// One function given to two Watch calls belongs to both.
		name: "watch-function-shared",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	fn := func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Incr(ctx, "{a}:n")
			return nil
		})
		return err
	}
	rdb.Watch(ctx, fn, "{a}")
	rdb.Watch(ctx, fn, "b")
}`,
		want: []string{
			`f: MULTI/EXEC transaction on-tx on tx @L9`,
			`f: INCR ["{a}:n"] queued @L2`,
			`f: WATCH transaction ["{a}"] ["{a}:n"]`,
			`f: WATCH transaction ["b"] ["{a}:n"]`,
		},
	},
	{
		// One variable, two transactions in turn: each has its own keys.
		name: "tx-pipeline-reused-variable",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	p := rdb.TxPipeline()
	p.Incr(ctx, "a")
	p.Exec(ctx)
	p = rdb.TxPipeline()
	p.Incr(ctx, "b")
	p.Exec(ctx)
}`,
		want: []string{
			`f: MULTI/EXEC transaction ["a"]`,
			`f: INCR ["a"] queued @L1`,
			`f: Exec queued @L1`,
			`f: MULTI/EXEC transaction ["b"]`,
			`f: INCR ["b"] queued @L4`,
			`f: Exec queued @L4`,
		},
	},
	{
		name: "tx-pipeline-and-plain-pipeline",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	p := rdb.TxPipeline()
	p.Incr(ctx, "a")
	p.Incr(ctx, "b")
	p.Exec(ctx)
	q := rdb.Pipeline()
	q.Incr(ctx, "c")
	q.Incr(ctx, "d")
	q.Exec(ctx)
}`,
		// A plain pipeline is not a transaction: it has no keys of its own.
		want: []string{
			`f: MULTI/EXEC transaction ["a"] ["b"]`,
			`f: INCR ["a"] queued @L1`,
			`f: INCR ["b"] queued @L1`,
			`f: Exec queued @L1`,
			`f: Pipeline`,
			`f: INCR ["c"] piped @L5`,
			`f: INCR ["d"] piped @L5`,
			`f: Exec piped @L5`,
		},
	},
	{
		// A helper handed the *redis.Tx: its TxPipelined belongs to a Watch
		// elsewhere, so it is no transaction of its own. A type of the
		// application that is also named Tx is not go-redis's: the rules
		// name the client's types with their package.
		name: "tx-type-from-rules",
		src: `type Tx struct{ *redis.Client }

func helper(ctx context.Context, tx *redis.Tx) {
	tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "a")
		p.Incr(ctx, "b")
		return nil
	})
}

func mine(ctx context.Context, tx Tx) {
	tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "a")
		p.Incr(ctx, "b")
		return nil
	})
}`,
		want: []string{
			`helper: MULTI/EXEC transaction on-tx`,
			`helper: INCR ["a"] queued @L1`,
			`helper: INCR ["b"] queued @L1`,
			`mine: MULTI/EXEC transaction ["a"] ["b"]`,
			`mine: INCR ["a"] queued @L1`,
			`mine: INCR ["b"] queued @L1`,
		},
	},
	{
		name: "cluster-client-from-rules",
		src: `const src = "return redis.call('GET', KEYS[1])"

var script = redis.NewScript(src)

func f(ctx context.Context, rdb *redis.Client, crdb *redis.ClusterClient) {
	rdb.Eval(ctx, src, []string{"a"})
	crdb.Eval(ctx, src, []string{"a"})
	script.Run(ctx, crdb, []string{"b"})
}`,
		want: []string{
			`f: EVAL ["a"] script "return redis.call('GET', KEYS[1])" keys 1 args 0`,
			`f: EVAL ["a"] script "return redis.call('GET', KEYS[1])" keys 1 args 0 cluster`,
			`f: EVALSHA ["b"] script "return redis.call('GET', KEYS[1])" keys 1 args 0 cluster`,
			`init: NewScript`,
		},
	},
	{
		// A wrapper that passes its parameters on: its callers are checked
		// for its command, with their own keys.
		name: "wrapper-carried",
		src: `func swap(ctx context.Context, rdb *redis.Client, a, b string) {
	rdb.Rename(ctx, a, b)
}

func f(ctx context.Context, rdb *redis.Client, id string) {
	swap(ctx, rdb, "tmp:user:"+id, "user:"+id)
}

func g(ctx context.Context, rdb *redis.Client, user string) {
	swap(ctx, rdb, "tmp:"+user, user)
}`,
		// g passes its own parameter on as a key: its callers are checked.
		want: []string{
			`swap: RENAME ["<a>"] ["<b>"] carried`,
			`f: RENAME (through swap at p.go:19) ["tmp:user:<id>"] ["user:<id>"]`,
			`g: RENAME (through swap at p.go:19) ["tmp:<user>"] ["<user>"] carried`,
		},
	},
	{
		// A raw command sent on the *redis.Tx is a command of the
		// transaction like any other: its keys are the transaction's.
		name: "raw-do-in-watch",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Do(ctx, "SET", "{a}:copy", "1")
		return nil
	}, "{a}")
}`,
		want: []string{
			`f: WATCH transaction ["{a}"] ["{a}:copy"]`,
			`f: SET ["{a}:copy"] on tx @L1`,
		},
	},
	{
		name: "struct-fields-patterns-db",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"{s}:a", "{s}:b", "0", "0"}})
	rdb.Sort(ctx, "{l}", &redis.Sort{By: "w_*", Get: []string{"{l}:o_*"}})
	rdb.Copy(ctx, "a", "b", 2, false)
}`,
		want: []string{
			`f: XREAD ["{s}:a"] ["{s}:b"]`,
			`f: SORT ["{l}"] refused BY "w_*" refused GET "{l}:o_*"`,
			`f: COPY ["a"] ["b"] db 2`,
		},
	},
	{
		// A script kept in a struct field by a constructor, and a function
		// library loaded and called.
		name: "script-field-and-library",
		src: `const lib = "#!lua name=q\nredis.register_function('claim', function(keys, args) return redis.call('GET', keys[1]) end)"

type queue struct {
	rdb   *redis.Client
	claim *redis.Script
}

func newQueue(rdb *redis.Client) *queue {
	return &queue{rdb: rdb, claim: redis.NewScript("return redis.call('LPOP', KEYS[1])")}
}

func (q *queue) pop(ctx context.Context) {
	q.claim.Run(ctx, q.rdb, []string{"{q}:pending"})
}

func load(ctx context.Context, rdb *redis.Client) {
	rdb.FunctionLoad(ctx, lib)
	rdb.FCall(ctx, "claim", []string{"{q}:jobs"})
}`,
		want: []string{
			`newQueue: NewScript`,
			`pop: EVALSHA ["{q}:pending"] script "return redis.call('LPOP', KEYS[1])" keys 1 args 0`,
			`load: FunctionLoad library "#!lua name=q\nredis.register_function('claim', function(keys, args) return redis.call('GET', keys[1]) end)"`,
			`load: FCALL ["{q}:jobs"] function "claim" keys 1 args 0`,
		},
	},
	{
		// Facts carry a helper's keys to an importing package.
		name: "facts-across-packages",
		dep: `package dep

import (
	"context"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/keyspace"
)

const app = "shop"

var (
	Prefix = app + ":"
	Job    = keyspace.MustTemplate("emq:{<queue>}:job:<id>")
)

func Cache(user string) string    { return Prefix + "user:" + user + ":cache" }
func TmpCache(user string) string { return "tmp:" + Cache(user) }

func Swap(ctx context.Context, rdb *redis.Client, a, b string) { rdb.Rename(ctx, a, b) }
`,
		src: `func f(ctx context.Context, rdb *redis.Client, sku string) {
	rdb.Rename(ctx, dep.TmpCache(sku), dep.Cache(sku))
	rdb.LMove(ctx, dep.Job.Key("orders", sku), dep.Prefix+"done", "LEFT", "RIGHT")
	dep.Swap(ctx, rdb, "a", "b")
}`,
		want: []string{
			`f: RENAME ["tmp:shop:user:<sku>:cache"] ["shop:user:<sku>:cache"]`,
			`f: LMOVE ["emq:{orders}:job:<sku>"] ["shop:done"]`,
			`f: RENAME (through Swap at dep.go:20) ["a"] ["b"]`,
		},
	},
	{
		// Origin: go-eagle/eagle (pkg/cache/key.go, BuildCacheKey): a key
		// returned by a bare return of named results.
		name: "named-results-bare-return",
		src: `func buildKey(prefix, key string) (cacheKey string, err error) {
	if key == "" {
		return "", fmt.Errorf("empty key")
	}
	cacheKey = key
	if prefix != "" {
		cacheKey, err = strings.Join([]string{prefix, key}, ":"), nil
	}
	return
}

func f(ctx context.Context, rdb *redis.ClusterClient, id string) {
	k, _ := buildKey("user", id)
	rdb.Rename(ctx, k, "user:"+id+":old")
}`,
		want: []string{
			`f: RENAME [""|"<id>"|"user:<id>"] ["user:<id>:old"]`,
		},
	},
	{
		// The elements of a slice parameter, each built into a key of the
		// function's own and sent in one command or one transaction:
		// carried to the callers, who give the elements (a map's keys
		// too). A command sent at each turn with one element is not a
		// collection (EachAlone).
		name: "elements-carried",
		dep: `package dep

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Cache interface {
	MultiGet(ctx context.Context, keys []string) error
}

type RedisCache struct {
	rdb    *redis.ClusterClient
	prefix string
}

func (c *RedisCache) MultiGet(ctx context.Context, keys []string) error {
	ks := make([]string, len(keys))
	for i, k := range keys {
		ks[i] = c.prefix + ":" + k
	}
	return c.rdb.MGet(ctx, ks...).Err()
}

func (c *RedisCache) MultiSet(ctx context.Context, values map[string]string) error {
	var args []interface{}
	for k, v := range values {
		args = append(args, c.prefix+":"+k, v)
	}
	return c.rdb.MSet(ctx, args...).Err()
}

type TxCache struct{ rdb *redis.ClusterClient }

func (c *TxCache) MultiGet(ctx context.Context, keys []string) error {
	pipe := c.rdb.TxPipeline()
	for i := range keys {
		pipe.Get(ctx, keys[i])
	}
	_, err := pipe.Exec(ctx)
	return err
}

type MemCache struct{ m map[string]string }

func (c *MemCache) MultiGet(ctx context.Context, keys []string) error { return nil }

func EachAlone(ctx context.Context, rdb *redis.ClusterClient, keys []string) {
	for _, k := range keys {
		rdb.Del(ctx, k, k+":meta")
	}
}
`,
		src: `func f(ctx context.Context, c dep.Cache, rdb *redis.ClusterClient, ids []string) {
	var keys []string
	for _, id := range ids {
		keys = append(keys, "user:"+id)
	}
	c.MultiGet(ctx, keys)
	c.MultiGet(ctx, []string{"{u}:a", "{u}:b"})
	dep.EachAlone(ctx, rdb, keys)
	g(ctx, c, keys)
	r := &dep.RedisCache{}
	r.MultiSet(ctx, map[string]string{"user:1": "a", "user:2": "b"})
	r.MultiSet(ctx, map[string]string{"{user}:1": "a", "{user}:2": "b"})
}

func g(ctx context.Context, c dep.Cache, keys []string) {
	c.MultiGet(ctx, keys)
}`,
		want: []string{
			`f: MGET (through MultiGet at dep.go:23) ["<c.prefix>:user:<id>"] ["<c.prefix>:user:<id>"]`,
			`f: MULTI/EXEC transaction (through MultiGet at dep.go:37) ["user:<id>"] ["user:<id>"]`,
			`f: MGET (through MultiGet at dep.go:23) ["<c.prefix>:{u}:a"] ["<c.prefix>:{u}:b"]`,
			`f: MULTI/EXEC transaction (through MultiGet at dep.go:37) ["{u}:a"] ["{u}:b"]`,
			`f: MGET (through MultiGet at dep.go:23) (through g at p.go:34) ["<c.prefix>:user:<id>"] ["<c.prefix>:user:<id>"]`,
			`f: MULTI/EXEC transaction (through MultiGet at dep.go:37) (through g at p.go:34) ["user:<id>"] ["user:<id>"]`,
			`f: MSET (through MultiSet at dep.go:31) ["<r.prefix>:user:1"] ["<r.prefix>:user:2"]`,
			`f: MSET (through MultiSet at dep.go:31) ["<r.prefix>:{user}:1"] ["<r.prefix>:{user}:2"]`,
			`g: MGET (through MultiGet at dep.go:23) ["<c.prefix>:<k>"] ["<c.prefix>:<k>"] carried`,
			`g: MULTI/EXEC transaction (through MultiGet at dep.go:37) ["<keys[i]>"] ["<keys[i]>"] carried`,
		},
	},
}

// TestEngine checks the model of each snippet.
func TestEngine(t *testing.T) {
	pkgs := loadSnippets(t)
	rules, err := slotlint.LoadRules("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range engineCases {
		t.Run(tc.name, func(t *testing.T) {
			facts := memFacts{}
			if tc.dep != "" {
				dep := pkgs["snippets/"+tc.name+"/dep"]
				keyflow.New(config(dep, rules, facts)).ExportFacts()
			}
			pkg := pkgs["snippets/"+tc.name]
			r := rules
			if tc.rules != "" {
				if r, err = slotlint.ParseRules(tc.name+".yaml", []byte(tc.rules)); err != nil {
					t.Fatal(err)
				}
			}
			g := keyflow.New(config(pkg, r, facts))
			var got []string
			for _, s := range g.Funcs() {
				got = append(got, dump(pkg, s)...)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("model:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

// TestFacts checks the facts that carry summaries to importers.
func TestFacts(t *testing.T) {
	pkgs := loadSnippets(t)
	rules, err := slotlint.LoadRules("")
	if err != nil {
		t.Fatal(err)
	}
	facts := memFacts{}
	dep := pkgs["snippets/facts-across-packages/dep"]
	g := keyflow.New(config(dep, rules, facts))
	g.Funcs()
	g.ExportFacts()
	var got []string
	for obj, f := range facts {
		got = append(got, obj.Name()+": "+fmt.Sprint(f))
	}
	slices.Sort(got)
	want := []string{
		`Cache: keyFunc("shop:user:<user>:cache")`,
		`Job: keyTemplate("emq:{<queue>}:job:<id>")`,
		`Prefix: keyVar("shop:")`,
		`Swap: keyWrapper(RENAME "<a>" "<b>")`,
		`TmpCache: keyFunc("tmp:shop:user:<user>:cache")`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("facts = %q, want %q", got, want)
	}

	facts = memFacts{}
	wrap := pkgs["snippets/wrapper-carried"]
	g = keyflow.New(config(wrap, rules, facts))
	g.Funcs()
	g.ExportFacts()
	if len(facts) != 0 {
		t.Errorf("unexported swap exported facts: %v", facts)
	}
}

func config(pkg *snippet.Package, rules *ruleset.Rules, facts memFacts) keyflow.Config {
	return keyflow.Config{Fset: pkg.Fset, Pkg: pkg.Types, Info: pkg.Info, Files: pkg.Files, Rules: rules, Facts: facts}
}

// memFacts holds facts in memory, for packages loaded together.
type memFacts map[types.Object]analysis.Fact

func (m memFacts) ImportObjectFact(obj types.Object, fact analysis.Fact) bool {
	f, ok := m[obj]
	if !ok {
		return false
	}
	switch dst := fact.(type) {
	case *keyflow.KeyFunc:
		src, ok := f.(*keyflow.KeyFunc)
		if ok {
			*dst = *src
		}
		return ok
	case *keyflow.KeyVar:
		src, ok := f.(*keyflow.KeyVar)
		if ok {
			*dst = *src
		}
		return ok
	case *keyflow.KeyWrapper:
		src, ok := f.(*keyflow.KeyWrapper)
		if ok {
			*dst = *src
		}
		return ok
	}
	return false
}

func (m memFacts) ExportObjectFact(obj types.Object, fact analysis.Fact) { m[obj] = fact }

// dump shows the sites of one function.
func dump(pkg *snippet.Package, s *keyflow.Func) []string {
	name := "init"
	if s.Decl != nil {
		name = s.Decl.Name.Name
	}
	line := func(n ast.Node) int { return pkg.Fset.Position(n.Pos()).Line }
	var start int
	if s.Decl != nil {
		start = line(s.Decl)
	}
	var out []string
	for _, site := range s.Sites {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %s", name, site.Name)
		for _, g := range site.AllKeys() {
			alts := make([]string, len(g))
			for i, v := range g {
				alts[i] = v.Key.Quote()
			}
			fmt.Fprintf(&b, " [%s]", strings.Join(alts, "|"))
		}
		if site.Open {
			b.WriteString(" open")
		}
		if site.Tx != nil && site.Tx.OnTx {
			b.WriteString(" on-tx")
		}
		if r := site.Script; r != nil {
			if r.Function != "" {
				fmt.Fprintf(&b, " function %q", r.Function)
			} else {
				fmt.Fprintf(&b, " script %q", r.Ref.Src)
			}
			fmt.Fprintf(&b, " keys %d args %d", len(r.Keys), len(r.Args))
			if r.Cluster {
				b.WriteString(" cluster")
			}
		}
		if h := site.Handle; h != nil {
			how := map[keyflow.HandleKind]string{keyflow.HandleTx: "on tx", keyflow.HandleMulti: "queued", keyflow.HandlePlain: "piped"}[h.Kind]
			fmt.Fprintf(&b, " %s @L%d", how, line(h.Made.Site.Call)-start)
		}
		if site.Carried {
			b.WriteString(" carried")
		}
		for _, o := range site.SortRefused {
			fmt.Fprintf(&b, " refused %s %s", o.Option, o.Pattern.Key.Quote())
		}
		if site.DB != nil {
			fmt.Fprintf(&b, " db %d", site.DBNum)
		}
		if site.Library != nil {
			fmt.Fprintf(&b, " library %q", site.Library.Src)
		}
		out = append(out, b.String())
	}
	return out
}

var (
	loadOnce sync.Once
	loaded   map[string]*snippet.Package
	loadErr  error
)

// loadSnippets type-checks every snippet. The packages they import, the
// real go-redis v9 of this module's go.mod among them, are loaded once.
func loadSnippets(t *testing.T) map[string]*snippet.Package {
	t.Helper()
	loadOnce.Do(func() { loaded, loadErr = load() })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

func load() (map[string]*snippet.Package, error) {
	l, err := snippet.NewLoader("..", "context", "fmt", "strings", "github.com/redis/go-redis/v9", "github.com/slotlint/slotlint/keyspace")
	if err != nil {
		return nil, err
	}
	out := map[string]*snippet.Package{}
	check := func(path, name, src string) error {
		p, err := l.Check(path, name, src)
		out[path] = p
		return err
	}
	for _, tc := range engineCases {
		src := header + tc.src + "\n"
		if tc.dep != "" {
			dep := "snippets/" + tc.name + "/dep"
			if err := check(dep, "dep.go", tc.dep); err != nil {
				return nil, err
			}
			src = strings.Replace(src, "import (\n", "import (\n\t\""+dep+"\"\n", 1)
		}
		if err := check("snippets/"+tc.name, "p.go", src); err != nil {
			return nil, err
		}
	}
	return out, nil
}
