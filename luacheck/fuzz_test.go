package luacheck

import (
	"reflect"
	"testing"
)

// FuzzParseCheck feeds arbitrary scripts to Parse and Check: neither may
// panic or hang, and every finding keeps the promises of Finding.
func FuzzParseCheck(f *testing.F) {
	for _, src := range []string{enqueueBad, enqueueGood, claimBad, claimGood, completeBad, retryBad, archiveBad,
		listServersBad, listServersGood, "#!lua flags=no-cluster,bogus\nreturn 1", "#!", "#!lua", "local x = = 1",
		"for i, k in ipairs(KEYS) do redis.call('SET', k .. ':x', ARGV[i]) end",
		"local function f(...) return redis.call('DEL', ...) end\nreturn f(unpack(KEYS))",
		"::a:: goto a", "return pcall(redis.call, unpack(ARGV))", "local t = {} t.x = t return redis.call('GET', t.x.x)",
		"return redis.call('GET', ('%s:%5s'):format(KEYS[1], ARGV[1]))"} {
		f.Add(src)
	}
	calls := []Call{{}, keysCall(ordersPending, ordersActive), runtimeCall([]string{"a", "{a}b"}, "1", "x"),
		{Keys: lits("a"), Cluster: true, ReadOnly: true}}
	f.Fuzz(func(t *testing.T, src string) {
		s, _ := Parse("fuzz", src)
		s.MaxKeyIndex()
		s.Commands()
		m := s.Summarize(lookupTest)
		for _, c := range calls {
			got := s.Check(lookupTest, c)
			checkInvariants(t, s, got)
			if sum := m.Check(c); !reflect.DeepEqual(sum, got) {
				t.Errorf("Summary.Check differs from Check for %s:\ngot  %s\nwant %s", describeCall(c), findingList(sum), findingList(got))
			}
		}
	})
}
