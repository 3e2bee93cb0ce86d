package keyflow_test

// guardCases are calls that run only off a Redis Cluster (guard.go): their
// keys are neither checked nor carried to the callers. They join
// engineCases, so TestEngine checks them.
var guardCases = []engineCase{
	{
		// Origin: go-zero, core/stores/cache/cachenode.go (cacheNode.DelCtx).
		name: "guard-else-of-one-key-or-cluster",
		src: `type S struct {
	rdb  *redis.Client
	Type string
}

func (s *S) f(ctx context.Context, keys ...string) {
	if len(keys) > 1 && s.Type == "cluster" {
		for _, k := range keys {
			s.rdb.Unlink(ctx, k)
		}
	} else {
		s.rdb.SInter(ctx, keys...)
	}
}`,
		want: []string{
			`f: UNLINK ["<k>"]`,
			`f: SINTER ["<keys...>"]`,
		},
	},
	{
		name: "guard-negations",
		src: `type S struct {
	rdb       *redis.Client
	isCluster bool
}

func (s *S) IsCluster() bool { return s.isCluster }

func (s *S) f(ctx context.Context, keys ...string) {
	if !s.IsCluster() {
		s.rdb.SInter(ctx, keys...)
	}
	if s.isCluster == false {
		s.rdb.SUnion(ctx, keys...)
	}
	if s.isCluster {
		return
	}
	s.rdb.SDiff(ctx, keys...)
}`,
		want: []string{
			`f: SINTER ["<keys...>"]`,
			`f: SUNION ["<keys...>"]`,
			`f: SDIFF ["<keys...>"]`,
		},
	},
	{
		// Tests that say nothing of a cluster leave the calls checked at
		// the callers: a count of nodes, another flag, a cluster test
		// whose branch is the cluster's, and one key besides the list.
		name: "guard-not-a-cluster-test",
		src: `type S struct {
	rdb       *redis.Client
	nodes     []string
	fast      bool
	isCluster bool
}

func (s *S) f(ctx context.Context, dst string, keys ...string) {
	if len(s.nodes) == 1 {
		s.rdb.SInter(ctx, keys...)
	}
	if len(keys) > 1 && s.fast {
		return
	}
	s.rdb.SUnion(ctx, keys...)
	if s.isCluster {
		s.rdb.SDiff(ctx, keys...)
	}
	if len(keys) > 1 && s.isCluster {
		return
	}
	s.rdb.SInterStore(ctx, dst, keys...)
}`,
		want: []string{
			`f: SINTER ["<keys...>"] carried`,
			`f: SUNION ["<keys...>"] carried`,
			`f: SDIFF ["<keys...>"] carried`,
			`f: SINTERSTORE ["<dst>"] ["<keys...>"] carried`,
		},
	},
	{
		// Origin: rueidis, helper.go (MDel): switch client.(type) { case
		// *singleClient, *standalone, *sentinelClient: one DEL of all the
		// keys }, and one DEL per key on a cluster.
		name: "guard-type-switch-on-the-client",
		src: `type standaloneNode struct{ *redis.Client }

func inter(ctx context.Context, c redis.UniversalClient, keys ...string) {
	c.SInter(ctx, keys...)
}

func f(ctx context.Context, c redis.UniversalClient, keys ...string) {
	switch c.(type) {
	case *redis.Client:
		inter(ctx, c, keys...)
	case standaloneNode:
		inter(ctx, c, keys...)
	case *redis.ClusterClient:
		inter(ctx, c, keys...)
	}
}`,
		want: []string{
			`inter: SINTER ["<keys...>"] carried`,
			`f: SINTER (through inter at p.go:21) ["<keys...>"]`,
			`f: SINTER (through inter at p.go:21) ["<keys...>"]`,
			`f: SINTER (through inter at p.go:21) ["<keys...>"] carried`,
		},
	},
	{
		// rueidis's own single-node clients are listed in its rules'
		// types; a client library's type is not taken for one by its
		// name. Here the package is a client library whose rules call
		// node a client of one node, and do not name singleShard.
		name: "guard-type-switch-types-from-the-rules",
		rules: `version: 1
clients:
  shards:
    packages: [snippets/guard-type-switch-types-from-the-rules]
    types: {node: client}
`,
		src: `type node struct{ *redis.Client }

type singleShard struct{ *redis.ClusterClient }

func inter(ctx context.Context, c redis.UniversalClient, keys ...string) {
	c.SInter(ctx, keys...)
}

func f(ctx context.Context, c redis.UniversalClient, keys ...string) {
	switch c.(type) {
	case node:
		inter(ctx, c, keys...)
	case singleShard:
		inter(ctx, c, keys...)
	}
}`,
		want: []string{
			`inter: SINTER ["<keys...>"] carried`,
			`f: SINTER (through inter at p.go:23) ["<keys...>"]`,
			`f: SINTER (through inter at p.go:23) ["<keys...>"] carried`,
		},
	},
	{
		// Origin: asynq, internal/rdb/rdb.go (runScript and RDB.forward):
		// the ARGV of a script the callers choose reach them, and a script
		// an unexported function runs with its own parameters as KEYS is
		// run at its callers, with their values.
		name: "script-args-and-keys-at-the-callers",
		src: `var del = redis.NewScript("return redis.call('DEL', ARGV[1] .. KEYS[1])")

func run(ctx context.Context, rdb *redis.Client, s *redis.Script, keys []string, args ...any) error {
	return s.Run(ctx, rdb, keys, args...).Err()
}

func fwd(ctx context.Context, rdb *redis.Client, src, prefix string) error {
	return del.Run(ctx, rdb, []string{src}, prefix).Err()
}

func f(ctx context.Context, rdb *redis.Client, q string) {
	run(ctx, rdb, del, []string{"q:{" + q + "}:g"}, "q:{"+q+"}:t:")
	fwd(ctx, rdb, "q:{"+q+"}:s", "q:{"+q+"}:t:")
}`,
		want: []string{
			`run: EVALSHA ["<keys...>"] carried`,
			`fwd: EVALSHA ["<src>"] script "return redis.call('DEL', ARGV[1] .. KEYS[1])" keys 1 args 1 carried`,
			`f: EVALSHA (through run at p.go:21) ["q:{<q>}:g"] script "return redis.call('DEL', ARGV[1] .. KEYS[1])" keys 1 args 1`,
			`f: EVALSHA (through fwd at p.go:25) ["q:{<q>}:s"] script "return redis.call('DEL', ARGV[1] .. KEYS[1])" keys 1 args 1`,
			`init: NewScript`,
		},
	},
}

func init() { engineCases = append(engineCases, guardCases...) }
