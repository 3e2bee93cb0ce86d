package luacheck

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

// summaryCalls are the calls a Summary is compared with Check on, besides
// each test case's own: nothing known, what the analyzer knows, and what
// the runtime hook sees (literal keys and arguments), with EVAL_RO and a
// cluster client or not, keys in one slot, in several, hashtags or none,
// arguments that look like key counts, keywords or keys.
var summaryCalls = func() []Call {
	calls := []Call{
		{},
		{Keys: lits("a"), Cluster: true, ReadOnly: true},
		{Keys: []keyspace.Key{sym("orders:{<id>}:pending")}, KnownKeyCount: true},
		{Keys: []keyspace.Key{sym("orders:{<id>}:pending"), sym("orders:{<id>}:active")}, KnownKeyCount: true},
		{Keys: []keyspace.Key{sym("orders:<id>"), sym("users:<id>")}, KnownKeyCount: true, Cluster: true},
		keysCall(ordersPending, ordersActive),
	}
	keySets := [][]string{nil, {"a"}, {"{a}x", "{a}y"}, {"a", "b"}, {"{q1}:job", "{q1}:pending", "{q1}:done"},
		{"x{q}", "y{q}", "z{r}", "{q}w"}, {"", "k"}, {ordersPending, ordersActive, "orders:{42}:done", "orders:{42}:x", "orders:{42}:y"}}
	argSets := [][]string{nil, {"1"}, {"2", "{a}z", "COUNT"}, {"{a}x", "STORE", "{a}y", "0", "1", "a", "b"}}
	for _, ks := range keySets {
		for _, as := range argSets {
			for _, ro := range []bool{false, true} {
				c := runtimeCall(ks, as...)
				c.ReadOnly, c.Cluster = ro, !ro
				calls = append(calls, c)
			}
		}
	}
	return calls
}()

// sameAsCheck checks that the script's Summary gives, for the call and for
// each of summaryCalls, exactly the findings of Check.
func sameAsCheck(t *testing.T, s *Script, cmds func(string) *ruleset.Command, call Call) {
	t.Helper()
	m := s.Summarize(cmds)
	for i, c := range append([]Call{call}, summaryCalls...) {
		want := s.Check(cmds, c)
		got := m.Check(c)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("call %d %s: Summary.Check differs from Check:\ngot  %s\nwant %s", i, describeCall(c), findingList(got), findingList(want))
		}
	}
}

func describeCall(c Call) string {
	return fmt.Sprintf("keys %v (%v) args %v (%v) cluster %v ro %v", c.Keys, c.KnownKeyCount, c.Args, c.KnownArgCount, c.Cluster, c.ReadOnly)
}

func findingList(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n\t%s %d:%d %s", f.Category, f.Line, f.Col, f.Message)
	}
	return b.String()
}

// TestSummaryMatchesCheck compares the Summary with Check on the scripts of
// the other tests that are not table cases (those compare in runCases).
func TestSummaryMatchesCheck(t *testing.T) {
	srcs := []string{enqueueBad, enqueueGood, claimBad, claimGood, completeBad, retryBad, archiveBad,
		listServersBad, listServersGood, "#!lua flags=no-cluster,bogus\nreturn 1", "#!", "#!lua", "local x = = 1",
		"#!lua flags=no-writes\nreturn redis.call('SET', KEYS[1], 'x')",
		"#!lua flags=allow-cross-slot-keys\nreturn redis.call('GET', 'other')",
		"#!lua\nredis.call('DEL', KEYS[1]) return redis.call('GET', KEYS[2])",
		"redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[2])",
		"return redis.call('ZUNIONSTORE', KEYS[1], ARGV[1], KEYS[2], KEYS[3])",
		"return redis.call('ZUNIONSTORE', KEYS[1], '2', KEYS[2], ARGV[1])",
		"return redis.call('SORT', KEYS[1], ARGV[1], ARGV[2])",
		"return redis.call('SORT', KEYS[1], 'STORE', ARGV[1])",
		"return redis.call('OBJECT', ARGV[1], KEYS[1])",
		"return redis.call(ARGV[1], KEYS[1], KEYS[2])",
		"local k = KEYS[1] .. ':x' return redis.call('GET', k)",
		"local k = KEYS[1] if ARGV[1] then k = 'lit' end return redis.call('GET', k)",
		"for i = 1, #KEYS do redis.call('DEL', KEYS[i] .. ':copy') end",
		"for i, k in ipairs(KEYS) do redis.call('SET', k .. ':x', ARGV[i]) end",
		"local function f(...) return redis.call('DEL', ...) end\nreturn f(unpack(KEYS))",
		"return redis.call('MSET', unpack(ARGV))",
		"return redis.call('DEL', unpack(KEYS, 2))",
		"return pcall(redis.call, unpack(ARGV))", "local t = {} t.x = t return redis.call('GET', t.x.x)",
		"return redis.call('GET', ('%s:%5s'):format(KEYS[1], ARGV[1]))",
		"local v = redis.call('GET', KEYS[1]) return redis.call('GET', v)",
		"if KEYS[3] then return redis.call('GET', KEYS[3]) end return redis.call('GET', KEYS[1])",
	}
	for i, src := range srcs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s, _ := Parse("summaryScript", src)
			sameAsCheck(t, s, lookupTest, Call{})
			sameAsCheck(t, s, nil, Call{})
		})
	}
}

// TestSameSlotLiterals checks the short cut of crossSlot against Colocate.
func TestSameSlotLiterals(t *testing.T) {
	keys := []string{"a", "b", "{a}x", "{a}y", "{}a", "{}b", "a{", "}{a}", "{a", "x{a}y{b}", ordersPending, ordersActive}
	for _, a := range keys {
		for _, b := range keys {
			for _, c := range []string{a, "{a}z", "{b}"} {
				ks := lits(a, b, c)
				got := sameSlotLiterals(ks)
				same := slot.Of(a) == slot.Of(b) && slot.Of(b) == slot.Of(c)
				if got != same || got && keyspace.Colocate(ks...).Verdict != keyspace.Same {
					t.Errorf("sameSlotLiterals(%q, %q, %q) = %v, Colocate %v", a, b, c, got, keyspace.Colocate(ks...).Verdict)
				}
			}
		}
	}
	if sameSlotLiterals(lits("", "")) || sameSlotLiterals([]keyspace.Key{sym("a:<id>"), sym("a:<id>")}) {
		t.Error("sameSlotLiterals holds for empty or symbolic keys")
	}
}

// TestSummaryQuietSites checks that the Summary leaves out of a call's check
// the command calls whose findings cannot depend on the call, and only
// those.
func TestSummaryQuietSites(t *testing.T) {
	for _, tc := range []struct {
		src       string
		quiet, ro []bool
	}{
		{"redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[2])", []bool{false, true}, []bool{true, false}},
		{"#!lua\nredis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[2])", []bool{true, true}, []bool{false, false}},
		{"#!lua flags=no-writes\nredis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[2])", []bool{false, true}, []bool{false, false}},
		{"return redis.call('GET', 'other')", []bool{false}, []bool{false}},
		{"return redis.call('ZUNIONSTORE', KEYS[1], ARGV[1], KEYS[2], KEYS[3])", []bool{false}, []bool{false}},
		// A key count read from the arguments: checked at each call while
		// any argument depends on the call, even one the count does not
		// read.
		{"#!lua\nreturn redis.call('ZUNIONSTORE', KEYS[1], '2', KEYS[2], KEYS[3])", []bool{false}, []bool{false}},
		{"#!lua\nreturn redis.call('ZUNIONSTORE', 'dst', '2', 'a', 'b')", []bool{false}, []bool{false}},
		{"#!lua\nreturn redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[2], KEYS[3], 'WEIGHTS', 1, 2)", []bool{false}, []bool{false}},
		{"#!lua\nreturn redis.call('DEL', unpack(KEYS))", []bool{false}, []bool{false}},
	} {
		s, err := Parse("quietScript", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		m := s.Summarize(lookupTest)
		if len(m.sites) != len(tc.quiet) {
			t.Fatalf("%s: %d sites, want %d", tc.src, len(m.sites), len(tc.quiet))
		}
		for i, ss := range m.sites {
			if ss.quiet != tc.quiet[i] || ss.roOnly != tc.ro[i] {
				t.Errorf("%s: site %d quiet %v roOnly %v, want %v %v", tc.src, i, ss.quiet, ss.roOnly, tc.quiet[i], tc.ro[i])
			}
		}
	}
}

// BenchmarkSummaryCheck times a call's check through the Summary against
// the full Check, in the same run, on the script of the runtime hook's
// EVALSHA benchmark, with new keys at each call.
func BenchmarkSummaryCheck(b *testing.B) {
	s, err := Parse("bench", `redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[2])`)
	if err != nil {
		b.Fatal(err)
	}
	calls := make([]Call, 4096)
	for i := range calls {
		tag := "{k" + fmt.Sprint(i) + "}"
		calls[i] = runtimeCall([]string{tag + "1", tag + "2"}, "a")
		calls[i].Cluster = true
	}
	b.Run("Check", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			s.Check(lookupTest, calls[i%len(calls)])
		}
	})
	b.Run("Summary", func(b *testing.B) {
		b.ReportAllocs()
		m := s.Summarize(lookupTest)
		for i := range b.N {
			m.Check(calls[i%len(calls)])
		}
	})
}
