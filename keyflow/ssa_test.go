package keyflow_test

// The SSA value layer: collections that the syntax tree alone loses,
// followed the way Go moves them. They join engineCases, so TestEngine
// checks them.
var ssaCases = []engineCase{
	{
		name: "ssa-make-and-index",
		src: `func f(ctx context.Context, rdb *redis.Client, ids []string) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = "user:" + id
	}
	rdb.MGet(ctx, keys...)
}`,
		// One element stands for all the loop stores, given again as
		// another iteration builds it.
		want: []string{`f: MGET ["user:<id>"] ["user:<id>"]`},
	},
	{
		name: "ssa-make-constant-indexes",
		src: `func f(ctx context.Context, rdb *redis.Client, id string) {
	keys := make([]string, 2)
	keys[1] = "{u}:b:" + id
	keys[0] = "{u}:a:" + id
	rdb.MGet(ctx, keys...)
	again := []string{"a", "b"}
	again[1] = id
	rdb.Del(ctx, again...)
}`,
		// Stores at constant indexes in index order; a second store at
		// one index is a value the order decides, not followed.
		want: []string{
			`f: MGET ["{u}:a:<id>"] ["{u}:b:<id>"]`,
			`f: DEL open`,
		},
	},
	{
		name: "ssa-filled-elsewhere",
		src: `func fill(keys []string) {}

func f(ctx context.Context, rdb *redis.Client, n int) {
	keys := make([]string, n)
	keys[0] = "a"
	fill(keys)
	rdb.Del(ctx, keys...)
}`,
		want: []string{`f: DEL open`},
	},
	{
		name: "ssa-raw-do-spread",
		src: `func f(ctx context.Context, rdb *redis.Client, ids []string) {
	args := []interface{}{"DEL"}
	for _, id := range ids {
		args = append(args, "job:"+id)
	}
	rdb.Do(ctx, args...)
	pairs := []interface{}{"MSET"}
	for i := 0; i < 3; i++ {
		pairs = append(pairs, fmt.Sprint("n:", i), i)
	}
	rdb.Do(ctx, pairs...)
}`,
		// The elements of the last loop are given twice, in order, so
		// MSET's keys are its first, third, ... arguments.
		want: []string{
			`f: DEL ["job:<id>"] ["job:<id>"]`,
			`f: MSET ["n:<i>"] ["n:<i>"]`,
		},
	},
	{
		name: "ssa-slice-type-add",
		src: `type Args []interface{}

func (a Args) Add(v ...interface{}) Args { return append(a, v...) }

func f(ctx context.Context, rdb *redis.Client, ids []string) {
	args := Args{"UNLINK"}
	for _, id := range ids {
		args = args.Add("job:" + id)
	}
	rdb.Do(ctx, args...)
}`,
		// A method of a slice type that takes ...E and returns its type
		// appends, as redigo's Args.Add does.
		want: []string{`f: UNLINK ["job:<id>"] ["job:<id>"]`},
	},
	{
		name: "ssa-scan-keys",
		src: `func f(ctx context.Context, rdb *redis.Client, tenant string) {
	keys, _, _ := rdb.Scan(ctx, 0, "session:"+tenant+":*", 100).Result()
	rdb.Del(ctx, keys...)
	tagged := rdb.Keys(ctx, "{cart:1}:*").Val()
	rdb.Unlink(ctx, tagged...)
	it := rdb.Scan(ctx, 0, "lock:?", 0).Iterator()
	var locks []string
	for it.Next(ctx) {
		locks = append(locks, it.Val())
	}
	rdb.Del(ctx, locks...)
}`,
		// Each key a pattern matches: its text, an unknown for each
		// wildcard, another for each other key.
		want: []string{
			`f: SCAN`,
			`f: DEL ["session:<tenant>:<*>"] ["session:<tenant>:<*>"]`,
			`f: KEYS`,
			`f: UNLINK ["{cart:1}:<*>"] ["{cart:1}:<*>"]`,
			`f: SCAN`,
			`f: DEL ["lock:<*>"] ["lock:<*>"]`,
		},
	},
	{
		name: "ssa-scan-keys-to-script",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	keys := rdb.Keys(ctx, "lock:*").Val()
	rdb.Eval(ctx, "for _, k in ipairs(KEYS) do redis.call('DEL', k) end", keys)
}`,
		want: []string{
			`f: KEYS`,
			`f: EVAL ["lock:<*>"] ["lock:<*>"] script "for _, k in ipairs(KEYS) do redis.call('DEL', k) end" keys 2 args 0`,
		},
	},
	{
		name: "ssa-scan-iterator-tx",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	it := rdb.Scan(ctx, 0, "session:*", 0).Iterator()
	pipe := rdb.TxPipeline()
	for it.Next(ctx) {
		pipe.Del(ctx, it.Val())
	}
	pipe.Exec(ctx)
}`,
		// Each turn queues another key the pattern matches.
		want: []string{
			`f: SCAN`,
			`f: MULTI/EXEC transaction ["session:<*>"] ["session:<*>"]`,
			`f: DEL ["session:<*>"] queued @L2`,
			`f: Exec queued @L2`,
		},
	},
	{
		name: "ssa-channel-struct-tx",
		src: `type op struct{ key, val string }

func worker(ctx context.Context, rdb *redis.Client, ch chan op) {
	var batch []op
	for o := range ch {
		batch = append(batch, o)
	}
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, o := range batch {
			p.Set(ctx, o.key, o.val, 0)
		}
		return nil
	})
}

func send(ch chan op, user string) {
	ch <- op{key: "user:" + user, val: "x"}
}`,
		// The key of each struct sent on a channel of op; queued at each
		// turn of a loop in one transaction, so its keys are another
		// send's too.
		want: []string{
			`worker: MULTI/EXEC transaction ["user:<user>"] ["user:<user>"]`,
			`worker: SET ["user:<user>"] queued @L5`,
		},
	},
	{
		name: "ssa-channel-fields-apart",
		src: `type op struct{ key string }

type batcher struct {
	rdb *redis.Client
	ch  chan op
}

type other struct{ ch chan op }

func (b *batcher) run(ctx context.Context) {
	p := b.rdb.TxPipeline()
	for o := range b.ch {
		p.Incr(ctx, o.key)
	}
	p.Exec(ctx)
}

func (b *batcher) add(id string) { b.ch <- op{key: "{a}:" + id} }

func (o *other) add(id string) { o.ch <- op{key: "{b}:" + id} }

func f(b *batcher, o *other) {
	b.add("1")
	o.add("2")
}`,
		// A channel kept in a field receives what is sent on that field
		// only, not on every channel of its type.
		want: []string{
			`run: MULTI/EXEC transaction ["{a}:<id>"] ["{a}:<id>"]`,
			`run: INCR ["{a}:<id>"] queued @L1`,
			`run: Exec queued @L1`,
		},
	},
	{
		name: "ssa-passed-to-wrapper",
		src: `func del(ctx context.Context, rdb *redis.Client, keys ...string) {
	rdb.Del(ctx, keys...)
}

func f(ctx context.Context, rdb *redis.Client, ids []string) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = "job:" + id
	}
	del(ctx, rdb, keys...)
}`,
		// A wrapper's caller's slice, filled by index.
		want: []string{
			`del: DEL ["<keys...>"] carried`,
			`f: DEL (through del at p.go:19) ["job:<id>"] ["job:<id>"]`,
		},
	},
	{
		name: "ssa-loop-counter",
		src: `func f(ctx context.Context, rdb *redis.Client) {
	var keys []string
	for i := 0; i < 3; i++ {
		keys = append(keys, fmt.Sprint("page:", i))
	}
	rdb.Del(ctx, keys...)
}`,
		// i++ sets i: the counter is no constant.
		want: []string{`f: DEL ["page:<i>"] ["page:<i>"]`},
	},
	{
		name: "ssa-prefix-parameter",
		src: `func del(ctx context.Context, rdb *redis.Client, prefix string, ids []string) {
	var keys []string
	for _, id := range ids {
		keys = append(keys, prefix+id)
	}
	rdb.Del(ctx, keys...)
}

func f(ctx context.Context, rdb *redis.Client, ids []string) {
	del(ctx, rdb, "user:", ids)
}`,
		// Keys that show their slot only with the caller's prefix are
		// carried to the caller.
		want: []string{
			`del: DEL ["<prefix><id>"] ["<prefix><id>"] carried`,
			`f: DEL (through del at p.go:23) ["user:<id>"] ["user:<id>"]`,
		},
	},
}

func init() { engineCases = append(engineCases, ssaCases...) }
