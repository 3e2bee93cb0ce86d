package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
)

// A svcPkg is a service that keeps its records in Redis.
type svcPkg struct {
	name, path string
	// wrappers are its methods Rename<n>(ctx, from, to string) error, which
	// pass their parameters to RENAME as they are.
	wrappers []string
}

// A keyPair is two key expressions over "id" for one command: same says
// whether they share a hashtag.
type keyPair struct {
	a, b string
	same bool
}

var keyPairs = []keyPair{
	{`s.field(id, "a")`, `s.field(id, "b")`, true},
	{`@kd@.Item(id)`, `@kd@.Counter(id)`, true},
	{`s.space.Key(id)`, `s.space.Field(id, "next")`, true},
	{`@kd@.Job(id)`, `@kd@.Queue`, true},
	{`keys.UserField(id, "cart")`, `keys.User(id)`, true},
	{`s.key(id)`, `s.field(id, "shadow")`, true},
	{`@kd@.Space.Key(id)`, `@kd@.Space.Sub("archive").Key(id)`, true},
	// Keys that may land in different slots, as real code has them.
	{`@kd@.Lock(id)`, `@kd@.Item(id)`, false},
	{`keys.Cart(id)`, `keys.User(id)`, false},
	{`s.field(id, "a")`, `@kd@.Item(id)`, false},
	{`keys.Join(s.prefix, id)`, `keys.Join(s.prefix, id, "copy")`, false},
}

// A method is a template of one method of a service.
type method struct {
	text  string
	std   []string
	needs string // "model", "lib", "other": what the package must import
	wrap  string // the name of a wrapper it declares
}

var methods = []method{
	{text: `
// Archive@i@ moves the live record of id aside.
func (s *Store) Archive@i@(ctx context.Context, id string) error {
	return s.rdb.Rename(ctx, @A@, @B@).Err()
}
`},
	{text: `
// Rename@i@ renames a key; its callers choose the keys.
func (s *Store) Rename@i@(ctx context.Context, from, to string) error {
	if from == to {
		return nil
	}
	return s.rdb.Rename(ctx, from, to).Err()
}
`, wrap: "Rename@i@"},
	{text: `
// Many@i@ reads the records of ids.
func (s *Store) Many@i@(ctx context.Context, ids []string) ([]any, error) {
	ks := make([]string, 0, len(ids))
	for _, id := range ids {
		ks = append(ks, @loopkey@)
	}
	return s.rdb.MGet(ctx, ks...).Result()
}
`},
	{text: `
// Reserve@i@ takes qty from the stock of id and queues the reservation.
func (s *Store) Reserve@i@(ctx context.Context, id string, qty int) (int64, error) {
	return s.reserve.Run(ctx, s.rdb, []string{@A@, @B@}, qty, id).Int64()
}
`},
	{text: "\nconst touch@i@ = `redis.call(\"SET\", KEYS[1], ARGV[1])\nreturn redis.call(\"EXPIRE\", KEYS[1], ARGV[2])`\n" + `
// Touch@i@ sets the value of id and its expiry in one script.
func (s *Store) Touch@i@(ctx context.Context, id, v string) error {
	return s.rdb.Eval(ctx, touch@i@, []string{@A@}, v, int(s.ttl.Seconds())).Err()
}
`},
	{text: `
// Transfer@i@ moves n units between two counters of id, atomically.
func (s *Store) Transfer@i@(ctx context.Context, id string, n int64) error {
	src, dst := @A@, @B@
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		have, err := tx.Get(ctx, src).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if have < n {
			return fmt.Errorf("transfer %s: have %d, want %d", id, have, n)
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.DecrBy(ctx, src, n)
			p.IncrBy(ctx, dst, n)
			return nil
		})
		return err
	}, src, dst)
}
`, std: []string{"errors", "fmt"}},
	{text: `
// Save@i@ stores records in one round trip.
func (s *Store) Save@i@(ctx context.Context, rs []*@m@.@T@) error {
	pipe := s.rdb.Pipeline()
	for _, r := range rs {
		if err := r.Validate(); err != nil {
			return err
		}
		pipe.HSet(ctx, s.key(r.ID), r.Fields())
		pipe.Expire(ctx, s.key(r.ID), s.ttl)
	}
	_, err := pipe.Exec(ctx)
	return err
}
`, needs: "model"},
	{text: `
// Count@i@ counts a hit on id and renews the counter's expiry.
func (s *Store) Count@i@(ctx context.Context, id string) (int64, error) {
	tx := s.rdb.TxPipeline()
	hits := tx.Incr(ctx, @A@)
	tx.Expire(ctx, @B@, s.ttl)
	if _, err := tx.Exec(ctx); err != nil {
		return 0, err
	}
	return hits.Val(), nil
}
`},
	{text: "\nconst bump@i@ = `return redis.call(\"INCRBY\", KEYS[1], ARGV[1])`\n" + `
// Bump@i@ adds to a counter through a script loaded once.
func (s *Store) Bump@i@(ctx context.Context, id string, by int) (int64, error) {
	sha, err := s.rdb.ScriptLoad(ctx, bump@i@).Result()
	if err != nil {
		return 0, err
	}
	return s.rdb.EvalSha(ctx, sha, []string{@A@}, by).Int64()
}
`},
	{text: `
// Load@i@ reads the values of ids in one pipeline.
func (s *Store) Load@i@(ctx context.Context, ids ...string) (map[string]string, error) {
	cmds := make(map[string]*redis.StringCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			cmds[id] = p.Get(ctx, @A@)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make(map[string]string, len(cmds))
	for id, c := range cmds {
		if v, err := c.Result(); err == nil {
			out[id] = v
		}
	}
	return out, nil
}
`, std: []string{"errors"}},
	{text: `
// Merge@i@ stores the union of the sets of ids in the set of dst.
func (s *Store) Merge@i@(ctx context.Context, dst string, ids ...string) (int64, error) {
	src := make([]string, 0, len(ids))
	for _, id := range ids {
		src = append(src, s.space.Key(id))
	}
	return s.rdb.SUnionStore(ctx, s.space.Key(dst), src...).Result()
}
`},
	{text: `
// Copy@i@ copies the record of id with a raw command.
func (s *Store) Copy@i@(ctx context.Context, id string) error {
	return s.rdb.Do(ctx, "COPY", @A@, @B@).Err()
}
`},
	{text: `
// WithLock@i@ runs f while it holds the lock of id.
func (s *Store) WithLock@i@(ctx context.Context, id string, f func() error) error {
	lock := @kd@.Lock(id)
	ok, err := s.rdb.SetNX(ctx, lock, "1", s.ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s is locked", id)
	}
	defer s.rdb.Del(context.WithoutCancel(ctx), lock)
	return f()
}
`, std: []string{"fmt"}},
	{text: `
// Finish@i@ moves the oldest pending job to the done list.
func (s *Store) Finish@i@(ctx context.Context) (string, error) {
	return s.rdb.LMove(ctx, @kd@.Queue, @kd@.Done, "LEFT", "RIGHT").Result()
}
`},
	{text: `
// Hand@i@ moves a record through another service.
func (s *Store) Hand@i@(ctx context.Context, a, b string) error {
	return @o@.New(s.rdb, "@word@").@W@(ctx, @kd@.@which@(a), @kd@.@which@(b))
}
`, needs: "other"},
	{text: `
// Describe@i@ formats ids for logs.
func Describe@i@(ids []string) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(@lib@(id))
	}
	return b.String()
}
`, std: []string{"strings"}, needs: "lib"},
	{text: `
// Page@i@ reads one page of the index, skipping what is not a number.
func (s *Store) Page@i@(ctx context.Context, n int) ([]int64, error) {
	vals, err := s.rdb.LRange(ctx, @kd@.Index(n), 0, -1).Result()
	if err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(vals))
	for _, v := range vals {
		x, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			continue
		}
		out = append(out, x)
	}
	return out, nil
}
`, std: []string{"strconv"}},
	{text: `
var stats@i@ = keys.Tagged("@tag@", "@word@")

// Rotate@i@ moves the newest stat to the pending queue.
func (s *Store) Rotate@i@(ctx context.Context) error {
	return s.rdb.RPopLPush(ctx, stats@i@, @kd@.Queue).Err()
}
`},
	{text: `
// Summary@i@ is the summary of a batch.
type Summary@i@ struct {
	Count   int
	Keys    []string
	Largest string
}

// Summarize@i@ summarizes ids without Redis.
func Summarize@i@(ids []string) Summary@i@ {
	var s Summary@i@
	for _, id := range ids {
		if !keys.Valid(id) {
			continue
		}
		s.Count++
		s.Keys = append(s.Keys, id)
		if len(id) > len(s.Largest) {
			s.Largest = id
		}
	}
	return s
}
`},
}

const storeFile = `// Package @name@ keeps @word@ records in Redis.
package @name@

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"@module@/keys"
)

// Store keeps @word@ records.
type Store struct {
	rdb     redis.UniversalClient
	prefix  string
	space   keys.Space
	ttl     time.Duration
	reserve *redis.Script
}

var reserveScript = redis.NewScript(` + "`" + `
local left = redis.call("DECRBY", KEYS[1], ARGV[1])
if left < 0 then
  redis.call("INCRBY", KEYS[1], ARGV[1])
  return -1
end
redis.call("RPUSH", KEYS[2], ARGV[2])
return left
` + "`" + `)

// New returns a Store on rdb, its space under hashtag tag.
func New(rdb redis.UniversalClient, tag string) *Store {
	return &Store{
		rdb:     rdb,
		prefix:  keys.App + ":@word@@n@",
		space:   keys.Space{Prefix: keys.App + ":@word@", Tag: tag},
		ttl:     @ttl@ * time.Second,
		reserve: reserveScript,
	}
}

func (s *Store) key(id string) string { return s.prefix + ":{" + id + "}" }

func (s *Store) field(id, f string) string { return s.key(id) + ":" + f }

// Ping checks that Redis answers.
func (s *Store) Ping(ctx context.Context) error { return s.rdb.Ping(ctx).Err() }
`

func (g *gen) svc() error {
	p := &svcPkg{name: fmt.Sprintf("s%03d", len(g.svcs))}
	p.path = g.module + "/svc/" + p.name
	w := g.word()
	d := g.domains[g.rng.IntN(len(g.domains))]
	var m *modelPkg
	if len(g.models) > 0 && g.rng.IntN(4) > 0 {
		m = recent(g.rng, g.models, 1, 20)[0]
	}
	var lib *libPkg
	if ls := g.libsWithStrFuncs(); len(ls) > 0 {
		lib = recent(g.rng, ls, 1, 30)[0]
	}
	var others []*svcPkg
	for _, o := range g.svcs {
		if len(o.wrappers) > 0 {
			others = append(others, o)
		}
	}
	var other *svcPkg
	if len(others) > 0 {
		other = recent(g.rng, others, 1, 25)[0]
	}

	if err := g.add("svc/"+p.name+"/store.go", subst(storeFile,
		"name", p.name, "word", w, "module", g.module, "n", fmt.Sprint(len(g.svcs)),
		"ttl", fmt.Sprint(30+g.rng.IntN(600)))); err != nil {
		return err
	}

	var body strings.Builder
	std := []string{"context"}
	n := 4 + g.rng.IntN(10)
	for k := range n {
		mt := methods[g.rng.IntN(len(methods))]
		switch {
		case mt.needs == "model" && m == nil, mt.needs == "lib" && lib == nil, mt.needs == "other" && other == nil:
			continue
		}
		// About one method in thirty keeps its keys in different slots.
		bad := g.rng.IntN(100) < 3
		pair := keyPairs[g.rng.IntN(len(keyPairs))]
		for pair.same == bad {
			pair = keyPairs[g.rng.IntN(len(keyPairs))]
		}
		id := fmt.Sprint(k)
		text := subst(mt.text, "A", pair.a, "B", pair.b)
		which, loopkey, tag := "Job", "@kd@.Job(id)", "jobs"
		if bad {
			which, loopkey, tag = "Item", "@kd@.Item(id)", "stats"
		}
		text = subst(text, "loopkey", loopkey, "tag", tag)
		text = subst(text, "i", id, "kd", d.name, "word", w, "which", which)
		if m != nil {
			text = subst(text, "m", m.name, "T", m.record)
		}
		if lib != nil {
			text = subst(text, "lib", lib.name+"."+lib.strFuncs[g.rng.IntN(len(lib.strFuncs))])
		}
		if other != nil {
			text = subst(text, "o", other.name, "W", other.wrappers[g.rng.IntN(len(other.wrappers))])
		}
		body.WriteString(text)
		std = append(std, mt.std...)
		if mt.wrap != "" {
			p.wrappers = append(p.wrappers, subst(mt.wrap, "i", id))
		}
	}
	used, err := usedNames("package " + p.name + "\n" + body.String())
	if err != nil {
		return err
	}
	candidates := []string{"github.com/redis/go-redis/v9", g.module + "/keys", d.path}
	if m != nil {
		candidates = append(candidates, m.path)
	}
	if lib != nil {
		candidates = append(candidates, lib.path)
	}
	if other != nil {
		candidates = append(candidates, other.path)
	}
	var other2 []string
	for _, path := range candidates {
		if used[importName(path)] {
			other2 = append(other2, fmt.Sprintf("%q", path))
		}
	}
	slices.Sort(other2)
	var stdUsed []string
	for _, s := range std {
		if used[importName(s)] {
			stdUsed = append(stdUsed, s)
		}
	}
	std = stdUsed
	src := "package " + p.name + "\n\n" + imports(std, other2...) + body.String()
	if err := g.add("svc/"+p.name+"/ops.go", src); err != nil {
		return err
	}
	g.svcs = append(g.svcs, p)
	return nil
}

// usedNames returns the package names that a file's selectors use.
func usedNames(src string) (map[string]bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, numbered(src))
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	return used, nil
}

// importName is the name a package is imported as.
func importName(path string) string {
	if path == "github.com/redis/go-redis/v9" {
		return "redis"
	}
	return path[strings.LastIndexByte(path, '/')+1:]
}

// server is cmd/server, which wires every service to one cluster client.
func (g *gen) server() error {
	var imps, stores strings.Builder
	for i, s := range g.svcs {
		fmt.Fprintf(&imps, "\t%q\n", s.path)
		fmt.Fprintf(&stores, "\t\t%s.New(rdb, %q),\n", s.name, fmt.Sprintf("t%d", i%7))
	}
	src := `// Command server serves the shop's HTTP API over a Redis Cluster.
package main

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

` + imps.String() + `)

type pinger interface {
	Ping(ctx context.Context) error
}

func main() {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs: strings.Split(os.Getenv("REDIS_ADDRS"), ","),
	})
	defer rdb.Close()
	stores := []pinger{
` + stores.String() + `	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		for _, st := range stores {
			if err := st.Ping(r.Context()); err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	srv := &http.Server{Addr: ":8080", Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		slog.Error("serve", "err", err)
		os.Exit(1)
	}
}
`
	return g.add("cmd/server/main.go", src)
}
