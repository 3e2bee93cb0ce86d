package keyflow_test

// reachCases are the assignments that do and do not reach a use (reach.go):
// a block that ends the function keeps its assignments to itself, and an
// assignment on every path to a use hides what the variable held before.
// They join engineCases, so TestEngine checks them.
var reachCases = []engineCase{
	{
		// Origin: centrifuge, broker_redis.go (RedisBroker.publish): var
		// streamKey channelID, set on both branches of if UseLists.
		name: "zero-value-hidden-by-if-else",
		src: `func f(ctx context.Context, rdb *redis.Client, lists bool, ch string) {
	var k string
	if lists {
		k = "history.list.{" + ch + "}"
	} else {
		k = "history.stream.{" + ch + "}"
	}
	rdb.Eval(ctx, "return 1", []string{k, "history.meta.{" + ch + "}"})
}`,
		want: []string{`f: EVAL ["history.list.{<ch>}"|"history.stream.{<ch>}"] ["history.meta.{<ch>}"] script "return 1" keys 2 args 0`},
	},
	{
		name: "zero-value-hidden-by-switch-with-default",
		src: `func f(ctx context.Context, rdb *redis.Client, kind int) {
	var k string
	switch kind {
	case 1:
		k = "{q}:a"
	case 2:
		k = "{q}:b"
	default:
		return
	}
	rdb.Rename(ctx, k, "{q}:c")
}`,
		want: []string{`f: RENAME ["{q}:a"|"{q}:b"] ["{q}:c"]`},
	},
	{
		// No default: the zero value reaches the call.
		name: "zero-value-kept-by-switch-without-default",
		src: `func f(ctx context.Context, rdb *redis.Client, kind int) {
	var k string
	switch kind {
	case 1:
		k = "{q}:a"
	}
	rdb.Rename(ctx, k, "{q}:c")
}`,
		want: []string{`f: RENAME [""|"{q}:a"] ["{q}:c"]`},
	},
	{
		// A break leaves the switch with k unset.
		name: "zero-value-kept-by-switch-that-breaks",
		src: `func f(ctx context.Context, rdb *redis.Client, kind int, skip bool) {
	var k string
	switch kind {
	case 1:
		if skip {
			break
		}
		k = "{q}:a"
	default:
		k = "{q}:b"
	}
	rdb.Rename(ctx, k, "{q}:c")
}`,
		want: []string{`f: RENAME [""|"{q}:a"|"{q}:b"] ["{q}:c"]`},
	},
	{
		name: "zero-value-kept-by-if-without-else",
		src: `func f(ctx context.Context, rdb *redis.Client, c bool) {
	var k string
	if c {
		k = "{q}:a"
	}
	rdb.Rename(ctx, k, "{q}:c")
}`,
		want: []string{`f: RENAME [""|"{q}:a"] ["{q}:c"]`},
	},
	{
		// The use sits in the branch that assigned it.
		name: "use-inside-the-assigning-branch",
		src: `func f(ctx context.Context, rdb *redis.Client, c bool) {
	k := "a"
	if c {
		k = "{q}:a"
		rdb.Rename(ctx, k, "{q}:c")
	}
	rdb.Rename(ctx, k, "{q}:d")
}`,
		want: []string{
			`f: RENAME ["{q}:a"] ["{q}:c"]`,
			`f: RENAME ["a"|"{q}:a"] ["{q}:d"]`,
		},
	},
	{
		// Origin: asynq, internal/rdb/rdb.go (RDB.Done): the unique key is
		// appended in a branch that returns.
		name: "append-in-a-branch-that-returns",
		src: `func f(ctx context.Context, rdb *redis.Client, q, unique string) error {
	keys := []string{"asynq:{" + q + "}:active", "asynq:{" + q + "}:lease"}
	if len(unique) > 0 {
		keys = append(keys, unique)
		return rdb.Eval(ctx, "return 2", keys).Err()
	}
	return rdb.Eval(ctx, "return 1", keys).Err()
}`,
		want: []string{
			`f: EVAL ["asynq:{<q>}:active"] ["asynq:{<q>}:lease"] ["<unique>"] script "return 2" keys 3 args 0 carried`,
			`f: EVAL ["asynq:{<q>}:active"] ["asynq:{<q>}:lease"] script "return 1" keys 2 args 0`,
		},
	},
	{
		name: "assignment-in-a-branch-that-panics",
		src: `func f(ctx context.Context, rdb *redis.Client, c bool) {
	k := "{q}:a"
	if c {
		k = "other"
		panic(k)
	}
	rdb.Rename(ctx, k, "{q}:c")
}`,
		want: []string{`f: RENAME ["{q}:a"] ["{q}:c"]`},
	},
	{
		// continue comes back around the loop: the assignment reaches.
		name: "assignment-in-a-branch-that-continues",
		src: `func f(ctx context.Context, rdb *redis.Client, ids []string) {
	k := "{q}:a"
	for _, id := range ids {
		rdb.Rename(ctx, k, "{q}:c")
		if id == "" {
			k = "other"
			continue
		}
	}
}`,
		want: []string{`f: RENAME ["{q}:a"|"other"] ["{q}:c"]`},
	},
	{
		// A key list declared in the loop's body: the branch that appends
		// and continues ends that list's life.
		name: "append-in-a-branch-that-continues-in-the-loop-of-the-list",
		src: `func f(ctx context.Context, rdb *redis.Client, ids []string, unique bool) {
	pipe := rdb.Pipeline()
	for _, id := range ids {
		keys := []string{"job:{" + id + "}:a", "job:{" + id + "}:b"}
		if unique {
			keys = append(keys, "other")
			pipe.Eval(ctx, "return 2", keys)
			continue
		}
		pipe.Eval(ctx, "return 1", keys)
	}
}`,
		want: []string{
			`f: Pipeline`,
			`f: EVAL ["job:{<id>}:a"] ["job:{<id>}:b"] ["other"] script "return 2" keys 3 args 0 piped @L1`,
			`f: EVAL ["job:{<id>}:a"] ["job:{<id>}:b"] script "return 1" keys 2 args 0 piped @L1`,
		},
	},
	{
		// break leaves the loop with the new value.
		name: "assignment-in-a-branch-that-breaks",
		src: `func f(ctx context.Context, rdb *redis.Client, ids []string) {
	k := "{q}:a"
	for _, id := range ids {
		if id == "" {
			k = "other"
			break
		}
	}
	rdb.Rename(ctx, k, "{q}:c")
}`,
		want: []string{`f: RENAME ["{q}:a"|"other"] ["{q}:c"]`},
	},
	{
		// A return in a closure ends the closure, not the function, and
		// the closure may run before the call.
		name: "assignment-in-a-closure-that-returns",
		src: `func f(ctx context.Context, rdb *redis.Client, run func(func())) {
	k := "{q}:a"
	run(func() {
		k = "other"
		return
	})
	rdb.Rename(ctx, k, "{q}:c")
}`,
		want: []string{`f: RENAME ["{q}:a"|"other"] ["{q}:c"]`},
	},
	{
		// An assignment after the use does not reach it, but the use after
		// it sees it alone; the two uses are different values.
		name: "reassigned-between-two-uses",
		src: `func f(ctx context.Context, rdb *redis.Client, a, b string) {
	k := "{" + a + "}:x"
	rdb.Rename(ctx, k, "{"+a+"}:y")
	k = "{" + b + "}:x"
	rdb.Rename(ctx, k, "{"+b+"}:y")
}`,
		want: []string{
			`f: RENAME ["{<a>}:x"] ["{<a>}:y"]`,
			`f: RENAME ["{<b>}:x"] ["{<b>}:y"]`,
		},
	},
	{
		// In a loop the later assignment comes back around.
		name: "reassigned-after-the-use-in-a-loop",
		src: `func f(ctx context.Context, rdb *redis.Client, n int) {
	k := "{q}:a"
	for i := 0; i < n; i++ {
		rdb.Rename(ctx, k, "{q}:c")
		k = "other"
	}
}`,
		want: []string{`f: RENAME ["{q}:a"|"other"] ["{q}:c"]`},
	},
	{
		// goto makes the order of the text no guide: every assignment
		// reaches.
		name: "goto-keeps-every-assignment",
		src: `func f(ctx context.Context, rdb *redis.Client, c bool) {
	k := "{q}:a"
again:
	rdb.Rename(ctx, k, "{q}:c")
	if c {
		k = "other"
		c = false
		goto again
	}
}`,
		want: []string{`f: RENAME ["{q}:a"|"other"] ["{q}:c"]`},
	},
	{
		// Origin: go-zero, core/stores/redis/redis.go (Redis.Pfmerge):
		// Pfmerge(dest, keys...) calls PfmergeCtx(ctx, dest, keys...); dest
		// is its caller's argument, not an unknown.
		name: "wrapper-argument-before-a-spread",
		src: `type R struct{ rdb *redis.Client }

func (s *R) mergeCtx(ctx context.Context, dest string, keys ...string) error {
	return s.rdb.PFMerge(ctx, dest, keys...).Err()
}

func (s *R) merge(dest string, keys ...string) error {
	return s.mergeCtx(context.Background(), dest, keys...)
}

func f(s *R) {
	s.merge("key1", "key2")
}`,
		want: []string{
			`mergeCtx: PFMERGE ["<dest>"] ["<keys...>"] carried`,
			`merge: PFMERGE (through mergeCtx at p.go:21) ["<dest>"] ["<keys...>"] carried`,
			`f: PFMERGE (through mergeCtx at p.go:21) (through merge at p.go:25) ["key1"] ["key2"]`,
		},
	},
}

func init() { engineCases = append(engineCases, reachCases...) }
