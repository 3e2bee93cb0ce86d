package clustercheck_test

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/redis/go-redis/v9"
	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/luacheck"
)

// TestHookScriptSummary checks that the hook, which checks a script call
// against the script's summary made once, reports exactly what luacheck's
// full Check of the call reports, for calls with new keys and arguments
// each time, repeated calls, and scripts with and without findings, run
// with EVALSHA and with EVALSHA_RO (whose read-only checks count). The
// next hook answers every command: no server is needed.
func TestHookScriptSummary(t *testing.T) {
	ctx := context.Background()
	srcs := []string{
		`redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[2])`,
		`return redis.call('GET', 'config:' .. ARGV[1])`,
		`return redis.call('GET', KEYS[1] .. ':x')`,
		`for i = 1, #KEYS do redis.call('DEL', KEYS[i] .. ':copy') end`,
		`return redis.call('ZUNIONSTORE', KEYS[1], ARGV[1], KEYS[2], ARGV[2])`,
		`return redis.call('SORT', KEYS[1], 'STORE', ARGV[1])`,
		"#!lua flags=no-writes\nreturn redis.call('SET', KEYS[1], 'x')",
		"#!lua flags=no-cluster\nreturn redis.call('GET', KEYS[1])",
		`local v = redis.call('GET', KEYS[1]) return redis.call('GET', v)`,
		`return redis.call('GET', KEYS[3])`,
		`return redis.call('MSET', unpack(ARGV))`,
		`return redis.call('ZRANGEBYSCORE', KEYS[1], 0, KEYS[2])`,
		`return redis.call('ZADD', KEYS[1], tonumber(KEYS[2]), ARGV[1])`,
		`return redis.call(`,
	}
	rules := slotlint.Builtin()
	noop := func(context.Context, redis.Cmder) error { return nil }
	reported := 0
	for i, src := range srcs {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			h := clustercheck.NewHook(clustercheck.LocalSpecs(), clustercheck.WithScripts(src))
			process := h.ProcessHook(noop)
			sha := redis.NewScript(src).Hash()
			s, _ := luacheck.Parse(sha[:12], src)
			for round := range 2 { // the second round repeats the calls
				for j := range 40 {
					tag := "{t" + strconv.Itoa(j%20) + "}"
					keys := []string{tag + "a", tag + "b", tag + "c"}[:j%4]
					args := [][]any{nil, {"1"}, {tag + "z"}, {"2", tag + "y"}, {"x", "y", tag + "q", "w"}}[j%5]
					for _, name := range []string{"evalsha", "evalsha_ro"} {
						cmdArgs := []any{name, sha, len(keys)}
						for _, k := range keys {
							cmdArgs = append(cmdArgs, k)
						}
						cmdArgs = append(cmdArgs, args...)
						err := process(ctx, redis.NewCmd(ctx, cmdArgs...))
						var got []luacheck.Finding
						var e *clustercheck.CrossSlotError
						if errors.As(err, &e) {
							got = e.Script
						} else if err != nil {
							t.Fatalf("%v: %v", cmdArgs, err)
						}
						call := luacheck.Call{Keys: litKeys(keys), KnownKeyCount: true, Args: litKeys(args), KnownArgCount: true, Cluster: true, ReadOnly: name == "evalsha_ro"}
						var want []luacheck.Finding
						for _, f := range s.Check(luacheck.CommandsFrom(rules), call) {
							switch f.Category {
							case luacheck.CategoryCrossSlot, luacheck.CategoryUndeclaredKey, luacheck.CategoryFlags:
								want = append(want, f)
							}
						}
						reported += len(got)
						if !reflect.DeepEqual(got, want) {
							t.Errorf("round %d %v:\ngot  %+v\nwant %+v", round, cmdArgs, got, want)
						}
					}
				}
			}
		})
	}
	if reported == 0 {
		t.Error("no script call was reported: the test compares nothing")
	}
	t.Logf("%d findings compared", reported)
}

func litKeys[T any](xs []T) []keyspace.Key {
	out := make([]keyspace.Key, len(xs))
	for i, x := range xs {
		out[i] = keyspace.Lit(any(x).(string))
	}
	return out
}
