package keyflow_test

// The values behind the analyzer's realworld corpus (analyzer/testdata/
// realworld): which keys reach each call when code is written the way
// public projects write it. Each case names the project whose pattern it
// reduces. They join engineCases, so TestEngine checks them.
var realworldCases = []engineCase{
	{
		// hookdeck/outpost (internal/rsmq): a context-free adapter over
		// go-redis v9. The package's client interface makes its
		// TxPipeline a struct that holds the client's TxPipeline in a
		// field, and whose methods send on that field with the stored
		// context: the commands queued through the wrapper are the
		// transaction's, which its Exec ends.
		name: "rw-pipeline-adapter",
		src: `type Pipeliner interface {
	ZCard(key string) *redis.IntCmd
	HMGet(key string, fields ...string) *redis.SliceCmd
	Exec() ([]redis.Cmder, error)
}

type Client interface {
	TxPipeline() Pipeliner
}

type adapter struct {
	client redis.Cmdable
	ctx    context.Context
}

func (r *adapter) TxPipeline() Pipeliner { return newPipe(r.client.TxPipeline(), r.ctx) }

type pipe struct {
	pipe redis.Pipeliner
	ctx  context.Context
}

func newPipe(p redis.Pipeliner, ctx context.Context) *pipe { return &pipe{pipe: p, ctx: ctx} }

func (p *pipe) ZCard(key string) *redis.IntCmd { return p.pipe.ZCard(p.ctx, key) }
func (p *pipe) HMGet(key string, fields ...string) *redis.SliceCmd {
	return p.pipe.HMGet(p.ctx, key, fields...)
}
func (p *pipe) Exec() ([]redis.Cmder, error) { return p.pipe.Exec(p.ctx) }

type queue struct {
	client Client
	ns     string
}

func (q *queue) attrs(name string) {
	key := q.ns + name
	tx := q.client.TxPipeline()
	tx.HMGet(key+":Q", "vt")
	tx.ZCard(key)
	tx.Exec()
}

func (q *queue) direct(ctx context.Context, rdb redis.Cmdable, name string) {
	tx := newPipe(rdb.TxPipeline(), ctx)
	tx.ZCard(q.ns + name)
	tx.ZCard(q.ns + name + ":Q")
	tx.Exec()
}`,
		want: []string{
			`TxPipeline: MULTI/EXEC transaction`,
			`ZCard: ZCARD ["<key>"]`,
			`HMGet: HMGET ["<key>"]`,
			`Exec: Exec`,
			`attrs: MULTI/EXEC transaction ["<q.ns><name>:Q"] ["<q.ns><name>"]`,
			`attrs: HMGET (through HMGet at p.go:44) ["<q.ns><name>:Q"] queued @L2`,
			`attrs: ZCARD (through ZCard at p.go:42) ["<q.ns><name>"] queued @L2`,
			`attrs: Exec (through Exec at p.go:46) queued @L2`,
			`direct: MULTI/EXEC transaction ["<q.ns><name>"] ["<q.ns><name>:Q"]`,
			`direct: ZCARD (through ZCard at p.go:42) ["<q.ns><name>"] queued @L1`,
			`direct: ZCARD (through ZCard at p.go:42) ["<q.ns><name>:Q"] queued @L1`,
			`direct: Exec (through Exec at p.go:46) queued @L1`,
		},
	},
	{
		// tair-opensource/tair-go: a struct embedding the client; its
		// promoted methods are go-redis's.
		name: "rw-embedded-client",
		src: `type cache struct{ *redis.ClusterClient }

type universal struct{ redis.UniversalClient }

func (c *cache) rotate(ctx context.Context, day string) {
	c.Rename(ctx, "{log}:today", "{log}:"+day)
}

func (u universal) merge(ctx context.Context, a string) {
	u.SUnionStore(ctx, "tags:all", "tags:"+a)
}`,
		want: []string{
			`rotate: RENAME ["{log}:today"] ["{log}:<day>"]`,
			`merge: SUNIONSTORE ["tags:all"] ["tags:<a>"]`,
		},
	},
	{
		// robinjoseph08/redisqueue: XREADGROUP's Streams are the keys, then
		// one ID per stream; the IDs are no keys.
		name: "rw-xreadgroup-streams",
		src: `func f(ctx context.Context, rdb *redis.ClusterClient) {
	keys := []string{"{s}:orders", "{s}:payments"}
	ids := []string{">", ">"}
	rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: append(keys, ids...)})
}`,
		want: []string{`f: XREADGROUP ["{s}:orders"] ["{s}:payments"]`},
	},
	{
		// go-redis/cache: slices joined with append(a, b...).
		name: "rw-append-spread",
		src: `func f(ctx context.Context, rdb *redis.ClusterClient, post string) {
	mine := []string{"tags:{" + post + "}"}
	shared := []string{"tags:{" + post + "}:global"}
	rdb.SInterStore(ctx, "tags:{"+post+"}:common", append(mine, shared...)...)
}`,
		want: []string{`f: SINTERSTORE ["tags:{<post>}:common"] ["tags:{<post>}"] ["tags:{<post>}:global"]`},
	},
	{
		// hyman-m/redis-tools, Syncano/orion: a project's interface over
		// go-redis whose methods have go-redis's names and signatures is
		// go-redis: its calls send their commands.
		name: "rw-project-interface",
		src: `type store interface {
	Del(ctx context.Context, keys ...string) *redis.IntCmd
	Rename(ctx context.Context, key, newkey string) *redis.StatusCmd
	TxPipeline() redis.Pipeliner
	Get(ctx context.Context, key string) string
}

func f(ctx context.Context, s store, id string) {
	s.Del(ctx, "lock:"+id, "owner:"+id)
	s.Rename(ctx, "tmp:{"+id+"}", "{"+id+"}")
	p := s.TxPipeline()
	p.Incr(ctx, "hits:"+id)
	p.Exec(ctx)
	s.Get(ctx, "x")
}`,
		// Get returns a string, not go-redis's *StringCmd: another shape,
		// not go-redis's method.
		want: []string{
			`f: DEL ["lock:<id>"] ["owner:<id>"]`,
			`f: RENAME ["tmp:{<id>}"] ["{<id>}"]`,
			`f: MULTI/EXEC transaction ["hits:<id>"]`,
			`f: INCR ["hits:<id>"] queued @L3`,
			`f: Exec queued @L3`,
		},
	},
	{
		// RichardKnop/machinery: a method value kept in a variable is the
		// method; one assigned twice is not followed.
		name: "rw-method-value",
		src: `func f(ctx context.Context, rdb *redis.Client, q string) {
	move := rdb.LMove
	move(ctx, "jobs:{"+q+"}:failed", "jobs:{"+q+"}:ready", "LEFT", "RIGHT")
	del := rdb.Del
	del = rdb.Unlink
	del(ctx, "a", "b")
}`,
		want: []string{`f: LMOVE ["jobs:{<q>}:failed"] ["jobs:{<q>}:ready"]`},
	},
	{
		// hibiken/asynq (internal/rdb): helpers handed the pipeline of a
		// TxPipelined, or the *redis.Tx of a Watch, queue commands that
		// belong to the caller's transaction. reserve's DECR is queued in
		// its own MULTI/EXEC on that *redis.Tx; at f it counts among the
		// Watch transaction's keys, and is shown on the handle passed.
		name: "rw-tx-helpers",
		src: `func addEvent(ctx context.Context, p redis.Pipeliner, id string) {
	p.HSet(ctx, "task:"+id, "state", "pending")
}

func reserve(ctx context.Context, tx *redis.Tx, sku string) {
	tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Decr(ctx, "stock:"+sku)
		return nil
	})
}

func f(ctx context.Context, rdb *redis.Client, id string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		addEvent(ctx, p, id)
		p.LPush(ctx, "queue:default", id)
		return nil
	})
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		reserve(ctx, tx, id)
		return nil
	}, "stock:"+id)
}`,
		want: []string{
			`addEvent: HSET ["task:<id>"]`,
			`reserve: MULTI/EXEC transaction on-tx`,
			`reserve: DECR ["stock:<sku>"] queued @L1`,
			`f: MULTI/EXEC transaction ["task:<id>"] ["queue:default"]`,
			`f: HSET (through addEvent at p.go:19) ["task:<id>"] queued @L1`,
			`f: LPUSH ["queue:default"] queued @L1`,
			`f: WATCH transaction ["stock:<id>"] ["stock:<id>"]`,
			`f: DECR (through reserve at p.go:24) ["stock:<id>"] on tx @L6`,
		},
	},
	{
		// hibiken/asynq (ForwardIfReady), gocraft/work: a range over a
		// literal, an array and a map with constant entries gives each
		// element in turn; a map entry by a constant name is that entry; a
		// slice whose elements are assigned is not taken for its literal.
		name: "rw-collections",
		src: `var queues = map[string]string{"high": "jobs:high", "low": "jobs:low"}

func forward(ctx context.Context, rdb *redis.Client, src, dst string) {
	rdb.LMove(ctx, src, dst, "LEFT", "RIGHT")
}

func f(ctx context.Context, rdb *redis.Client, q string) {
	for _, k := range []string{"asynq:{" + q + "}:scheduled", "asynq:{" + q + "}:retry"} {
		forward(ctx, rdb, k, "asynq:{"+q+"}:pending")
	}
	srcs := [2]string{"mail:high", "mail:low"}
	for _, s := range srcs {
		rdb.LMove(ctx, s, "mail:sending", "LEFT", "RIGHT")
	}
	for _, name := range queues {
		rdb.Del(ctx, name)
	}
	rdb.RPopLPush(ctx, queues["low"], queues["high"])
	keys := []string{"a", "b"}
	keys[1] = q
	rdb.Del(ctx, keys...)
}`,
		want: []string{
			`forward: LMOVE ["<src>"] ["<dst>"] carried`,
			`f: LMOVE (through forward at p.go:21) ["asynq:{<q>}:scheduled"|"asynq:{<q>}:retry"] ["asynq:{<q>}:pending"]`,
			`f: LMOVE ["mail:high"|"mail:low"] ["mail:sending"]`,
			`f: DEL ["jobs:high"|"jobs:low"]`,
			`f: RPOPLPUSH ["jobs:low"] ["jobs:high"]`,
			`f: DEL open`,
		},
	},
	{
		// rbcervilla/redisstore, adjust/rmq: keys kept in struct fields,
		// set by a constructor's composite literal, by a New function's
		// assignments, and by a setter. Fields built from one argument
		// share its identity; a field with two writers holds both values.
		name: "rw-constructor-fields",
		src: `type Cart struct {
	rdb          *redis.Client
	items, total string
	dst          string
}

func NewCart(rdb *redis.Client, uid string) *Cart {
	c := &Cart{rdb: rdb, items: "cart:{" + uid + "}:items"}
	c.total = "cart:{" + uid + "}:total"
	c.dst = "out:{" + uid + "}"
	return c
}

func (c *Cart) Redirect(name string) { c.dst = "dead:" + name }

func (c *Cart) Add(ctx context.Context) {
	c.rdb.RPopLPush(ctx, c.items, c.total)
	c.rdb.RPopLPush(ctx, c.items, c.dst)
}`,
		want: []string{
			`Add: RPOPLPUSH ["cart:{<uid>}:items"] ["cart:{<uid>}:total"]`,
			`Add: RPOPLPUSH ["cart:{<uid>}:items"] ["out:{<uid>}"|"dead:<name>"]`,
		},
	},
	{
		// go-redis/cache (Delete), hibiken/asynq (runScript): key lists
		// and scripts passed on by wrappers are the callers', checked at
		// each call with its own keys and script.
		name: "rw-passed-on",
		src: `const touch = "return redis.call('INCR', KEYS[1])"

func del(ctx context.Context, rdb *redis.Client, keys ...string) {
	rdb.Del(ctx, keys...)
}

func run(ctx context.Context, rdb *redis.Client, s *redis.Script, keys []string) {
	s.Run(ctx, rdb, keys)
}

func eval(ctx context.Context, rdb *redis.Client, src string, keys []string) {
	rdb.Eval(ctx, src, keys)
}

func f(ctx context.Context, rdb *redis.Client, a string) {
	del(ctx, rdb, "cache:"+a, "cache:{"+a+"}")
	ks := []string{"x:{" + a + "}", "y:{" + a + "}"}
	del(ctx, rdb, ks...)
	run(ctx, rdb, redis.NewScript(touch), []string{"audit:" + a})
	eval(ctx, rdb, touch, []string{"hits:" + a})
}`,
		want: []string{
			`del: DEL ["<keys...>"] carried`,
			`run: EVALSHA ["<keys...>"] carried`,
			`eval: EVAL ["<keys...>"] carried`,
			`f: DEL (through del at p.go:21) ["cache:<a>"] ["cache:{<a>}"]`,
			`f: DEL (through del at p.go:21) ["x:{<a>}"] ["y:{<a>}"]`,
			`f: EVALSHA (through run at p.go:25) ["audit:<a>"] script "return redis.call('INCR', KEYS[1])" keys 1 args 0`,
			`f: NewScript`,
			`f: EVAL (through eval at p.go:29) ["hits:<a>"] script "return redis.call('INCR', KEYS[1])" keys 1 args 0`,
		},
	},
	{
		// NamalSanjaya/sonnet, zeromicro/go-zero: a Do wrapper of another
		// shape, forwarding its arguments to Pipeliner.Do; its callers
		// name the command, and their keys are checked.
		name: "rw-raw-do-wrapper",
		src: `type runner struct{ pipe redis.Pipeliner }

func (r *runner) Do(ctx context.Context, args ...interface{}) *redis.Cmd {
	return r.pipe.Do(ctx, args...)
}

func f(ctx context.Context, r *runner, id string) {
	r.Do(ctx, "RENAME", "order:"+id, "archive:"+id)
}`,
		want: []string{
			`Do: Do carried`,
			`f: RENAME (through Do at p.go:21) ["order:<id>"] ["archive:<id>"]`,
		},
	},
	{
		// lcsin/go-itools (pkg/lua): Lua embedded into a string or a
		// []byte, and kept in a map by name. The file is
		// keyflow/testdata/realworld/release.lua. (An embed.FS read, directly
		// or through a loader, is in the analyzer's realworld/luaembed.)
		name: "rw-embedded-lua",
		src: `//go:embed testdata/realworld/release.lua
var releaseSrc string

//go:embed testdata/realworld/release.lua
var releaseBytes []byte

var (
	release = redis.NewScript(releaseSrc)
	byName  = map[string]*redis.Script{"release": release}
)

func f(ctx context.Context, rdb *redis.Client) {
	release.Run(ctx, rdb, []string{"lock:{a}"})
	rdb.Eval(ctx, string(releaseBytes), []string{"lock:{b}"})
	byName["release"].Run(ctx, rdb, []string{"lock:{c}"})
}`,
		want: []string{
			`f: EVALSHA ["lock:{a}"] script "-- release a lock\nreturn redis.call('DEL', KEYS[1])\n" keys 1 args 0`,
			`f: EVAL ["lock:{b}"] script "-- release a lock\nreturn redis.call('DEL', KEYS[1])\n" keys 1 args 0`,
			`f: EVALSHA ["lock:{c}"] script "-- release a lock\nreturn redis.call('DEL', KEYS[1])\n" keys 1 args 0`,
			`init: NewScript`,
		},
	},
	{
		// go-redis/cache, asynq's inspector: multi-key commands sent alone
		// on a cluster client. Which of them go-redis splits is read from
		// the build's file of the go-redis method, which these snippets'
		// file set does not hold: the analyzer's realworld/split tests it.
		name: "rw-split",
		src: `func f(ctx context.Context, c *redis.ClusterClient, u redis.UniversalClient, n *redis.Client) {
	c.Del(ctx, "a", "b")
	u.MGet(ctx, "a", "b")
	n.Del(ctx, "a", "b")
	c.Rename(ctx, "a", "b")
	c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, "a", "b")
		return nil
	})
}`,
		want: []string{
			`f: DEL ["a"] ["b"]`,
			`f: MGET ["a"] ["b"]`,
			`f: DEL ["a"] ["b"]`,
			`f: RENAME ["a"] ["b"]`,
			`f: MULTI/EXEC transaction ["a"] ["b"]`,
			`f: DEL ["a"] ["b"] queued @L5`,
		},
	},
}

func init() { engineCases = append(engineCases, realworldCases...) }
