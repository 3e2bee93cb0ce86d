package luacheck

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sync"
	"testing"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

func TestSyntaxError(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"local x = = 1", 1, 11, `unexpected "="`},
		{"redis.call('GET', KEYS[1]\nreturn 1", 2, 1, `unexpected "return"`},
		{"if x then\n  y()\n", 2, 6, "unexpected end of script"},
		{"return 'a' ..   -- more to come\n", 1, 14, "unexpected end of script"},
		{"local t = {1, 2}\nreturn t[", 2, 10, "unexpected end of script"},
		{"local s = 'abc\nreturn s", 1, 11, "unterminated string"},
		{"local s = [[abc\n", 1, 11, "unterminated multiline string"},
		{"x = 1 @ 2", 1, 7, `invalid token "@"`},
		{"x ~ y", 1, 3, "invalid '~' token"},
		{"for i=1 do end", 1, 9, `unexpected "do"`},
		{"local function f(a,) end", 1, 20, `unexpected ")"`},
		{"return redis.call('GET', KEYS[1]))", 1, 34, `unexpected ")"`},
		{"local a = 1\n\tlocal b = 'x' 'y'\n", 2, 16, `unexpected string "y"`},
		{"#!lua flags=no-writes\nlocal = 1", 2, 7, `unexpected "="`},
		{"return 1 0.", 1, 10, `unexpected number "0."`},
	}
	for _, tt := range tests {
		s, err := Parse("badScript", tt.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: got error %v, want a *SyntaxError", tt.src, err)
			continue
		}
		if s == nil || s.Syntax != se {
			t.Errorf("%q: Parse did not return the Script with its error", tt.src)
			continue
		}
		if se.Line != tt.line || se.Col != tt.col || se.Msg != tt.msg {
			t.Errorf("%q: got line %d column %d %q, want line %d column %d %q", tt.src, se.Line, se.Col, se.Msg, tt.line, tt.col, tt.msg)
		}
		if want := fmt.Sprintf("script badScript line %d column %d: %s", tt.line, tt.col, tt.msg); se.Error() != want {
			t.Errorf("%q: Error() = %q, want %q", tt.src, se.Error(), want)
		}
		got := s.Check(lookupTest, keysCall("a"))
		checkInvariants(t, s, got)
		expectFindings(t, got, []want{{cat: CategorySyntax, line: tt.line, col: tt.col,
			exact: fmt.Sprintf("script badScript line %d: syntax error at column %d: %s", tt.line, tt.col, tt.msg)}})
	}
}

func TestSyntaxErrorKeepsCallChecks(t *testing.T) {
	s, err := Parse("s", "#!lua flags=no-cluster\nreturn redis.call('GET', KEYS[1]")
	if err == nil {
		t.Fatal("no syntax error")
	}
	expectFindings(t, s.Check(lookupTest, Call{Keys: lits("a", "b"), KnownKeyCount: true, Cluster: true}), []want{
		w(CategoryCrossSlot, 0, 0, `KEYS[1] and KEYS[2] must share a slot`),
		w(CategoryFlags, 1, 13, `flags=no-cluster`),
		w(CategorySyntax, 2, 33, `syntax error at column 33: unexpected end of script`),
	})
	if n, ok := s.MaxKeyIndex(); n != 0 || ok {
		t.Errorf("MaxKeyIndex of a script that does not parse = %d, %v", n, ok)
	}
}

func TestShebang(t *testing.T) {
	undeclared := `return redis.call('GET', KEYS[1]) .. redis.call('GET', 'emq:other')`
	runCases(t, []checkCase{
		{
			name: "no-cluster on a cluster client",
			src:  "#!lua flags=no-cluster\nreturn redis.call('GET', KEYS[1])",
			call: Call{Keys: lits("a"), Cluster: true},
			want: []want{{cat: CategoryFlags, line: 1, col: 13, exact: `script noClusterOnAClusterClientScript line 1: flags=no-cluster makes Redis 7 refuse the script on a cluster ("Can not run script on cluster, 'no-cluster' flag is set"), and a cluster client runs it; drop the flag`}},
		},
		{
			name: "no-cluster on a plain client",
			src:  "#!lua flags=no-cluster\nreturn redis.call('GET', KEYS[1])",
			call: Call{Keys: lits("a")},
		},
		{
			name: "misspelt flag",
			src:  "#!lua flags=allow-cross-slot\nreturn 1",
			want: []want{{cat: CategoryFlags, line: 1, col: 13, exact: `script misspeltFlagScript line 1: unknown shebang flag "allow-cross-slot", so Redis 7 rejects the script ("Unexpected flag in script shebang"); did you mean allow-cross-slot-keys?`}},
		},
		{
			name: "unknown flag after a known one",
			src:  "#!lua flags=no-writes,bogus\nreturn 1",
			want: []want{w(CategoryFlags, 1, 23, `unknown shebang flag "bogus"`, "the flags are no-writes, allow-oom, allow-stale, no-cluster, allow-cross-slot-keys")},
		},
		{
			name: "flag in upper case",
			src:  "#!lua flags=NO-WRITES\nreturn 1",
			want: []want{w(CategoryFlags, 1, 13, `unknown shebang flag "NO-WRITES"`, "did you mean no-writes?")},
		},
		{
			name: "other engine",
			src:  "#!python\nreturn 1",
			want: []want{w(CategoryFlags, 1, 1, `the shebang names the engine "python", so Redis 7 rejects the script ("Unexpected engine in script shebang"); start it with #!lua`)},
		},
		{
			name: "unknown option",
			src:  "#!lua name=mylib\nreturn 1",
			want: []want{w(CategoryFlags, 1, 7, `unknown shebang option "name=mylib"`)},
		},
		{
			name: "shebang without a line break",
			src:  "#!lua",
			want: []want{w(CategoryFlags, 1, 1, `the shebang line has no line break after it, so Redis 7 rejects the script ("Invalid script shebang")`)},
		},
		{
			name: "empty flags",
			src:  "#!lua flags=\nreturn redis.call('GET', KEYS[1])",
			call: Call{Keys: lits("a")},
		},
		{
			name: "crlf and spaces",
			src:  "#!lua  flags=no-writes  \r\nreturn redis.call('GET', KEYS[1])\r\n",
			call: keysCall("a"),
		},
		{
			name: "shebang makes cross slot keys fail",
			src:  "#!lua\n" + undeclared,
			call: Call{Keys: lits(ordersPending)},
			want: []want{w(CategoryUndeclaredKey, 2, 38, `it is wrong on Redis Cluster too (slot 11738 vs hashtag "{orders}" of KEYS[1]): with its shebang, Redis 7 fails the script on it; pass it in KEYS`)},
		},
		{
			name: "allow-cross-slot-keys",
			src:  "#!lua flags=allow-cross-slot-keys\n" + undeclared,
			call: Call{Keys: lits(ordersPending)},
			want: []want{w(CategoryUndeclaredKey, 2, 38, `it is wrong on Redis Cluster too (slot 11738 vs hashtag "{orders}" of KEYS[1]): flags=allow-cross-slot-keys lets Redis 7 run it only while both slots are on one node; pass it in KEYS`)},
		},
		{
			name: "no shebang",
			src:  undeclared,
			call: Call{Keys: lits(ordersPending)},
			want: []want{w(CategoryUndeclaredKey, 1, 38, `without a shebang, Redis 7 runs it only while both slots are on one node`)},
		},
		{
			name: "eval_ro of a script without no-writes",
			src:  "#!lua\nreturn redis.call('GET', KEYS[1])",
			call: Call{Keys: lits("a"), ReadOnly: true},
			want: []want{w(CategoryFlags, 1, 1, `the script runs with EVAL_RO, but its shebang lacks flags=no-writes, so Redis 7 refuses it ("Can not execute a script with write flag using *_ro command"); add no-writes to its flags, or run it with EVAL`)},
		},
		{
			name: "eval_ro of a no-writes script",
			src:  "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])",
			call: Call{Keys: lits("a"), ReadOnly: true},
		},
		{
			name: "eval_ro of a legacy script that writes",
			src:  "redis.call('SET', KEYS[1], 1)\nreturn redis.call('GET', KEYS[1])",
			call: Call{Keys: lits("a"), ReadOnly: true},
			want: []want{w(CategoryFlags, 1, 1, `redis.call("SET", KEYS[1], 1) writes, but the script runs with EVAL_RO, so Redis 7 fails it ("Write commands are not allowed from read-only scripts"); run it with EVAL or drop the write`)},
		},
		{
			name: "eval_ro of a legacy script that reads",
			src:  "return redis.call('GET', KEYS[1])",
			call: Call{Keys: lits("a"), ReadOnly: true},
		},
	})
}

func TestShebangFields(t *testing.T) {
	s, err := Parse("s", "#!lua flags=no-writes,allow-stale,no-cluster,allow-cross-slot-keys,allow-oom\nreturn 1\n")
	if err != nil {
		t.Fatal(err)
	}
	sh := s.Shebang
	if sh == nil || sh.Engine != "lua" || sh.Line != 1 || sh.Text != "#!lua flags=no-writes,allow-stale,no-cluster,allow-cross-slot-keys,allow-oom" {
		t.Fatalf("Shebang = %+v", sh)
	}
	if !reflect.DeepEqual(sh.Flags, []string{"no-writes", "allow-stale", "no-cluster", "allow-cross-slot-keys", "allow-oom"}) {
		t.Errorf("Flags = %q", sh.Flags)
	}
	if !sh.NoWrites() || !sh.NoCluster() || !sh.AllowCrossSlot() || !sh.Has(FlagAllowOOM) || sh.Has("x") {
		t.Errorf("flag helpers disagree with %q", sh.Flags)
	}
	plain, _ := Parse("s", "return 1")
	if plain.Shebang != nil || plain.Shebang.NoWrites() || plain.Shebang.NoCluster() || plain.Shebang.AllowCrossSlot() {
		t.Errorf("a script without shebang has %+v", plain.Shebang)
	}
	// The shebang line stays in the line count, as Redis keeps it.
	s, _ = Parse("s", "#!lua\nreturn redis.call('GET', 'x')")
	if got := s.Check(lookupTest, Call{Keys: lits("a")}); len(got) != 1 || got[0].Line != 2 {
		t.Errorf("findings %v, want one on line 2", got)
	}
}

func TestMaxKeyIndex(t *testing.T) {
	tests := []struct {
		src string
		n   int
		ok  bool
	}{
		{"return 1", 0, true},
		{"return redis.call('GET', KEYS[2]) .. KEYS[1]", 2, true},
		{"local i = 3\nreturn KEYS[i]", 3, true},
		{"return KEYS[1], #KEYS", 1, false},
		{"for _, k in ipairs(KEYS) do end", 0, false},
		{"for i = 1, 2 do redis.call('DEL', KEYS[i]) end", 0, false},
		{"return redis.call('DEL', unpack(KEYS))", 0, false},
		{"local k = KEYS\nreturn k[4]", 0, false},
		{"local function f(k) return KEYS[5] end\nreturn 1", 5, true},
	}
	for _, tt := range tests {
		s, err := Parse("s", tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := s.MaxKeyIndex(); n != tt.n || ok != tt.ok {
			t.Errorf("%q: MaxKeyIndex() = %d, %v, want %d, %v", tt.src, n, ok, tt.n, tt.ok)
		}
	}
}

func TestCommandsList(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{enqueueBad, []string{"hset", "lpush", "sadd"}},
		{archiveBad, []string{"hset", "lrem", "zadd"}},
		{"local c = ARGV[1] == 'l' and 'LPUSH' or 'RPUSH'\nreturn redis.call(c, KEYS[1], 1)", []string{"lpush", "rpush"}},
		{"local ok = pcall(redis.call, 'Set', KEYS[1], 1)\nreturn redis.pcall(ARGV[1])", []string{"set"}},
		{"local function f() return server.call('TIME') end", []string{"time"}},
		{"return 1", nil},
	}
	for _, tt := range tests {
		s, err := Parse("s", tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Commands(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: Commands() = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestRulesTable checks the scripts against rules.yaml's generated commands
// table: it must give the findings the hand-written table gives.
func TestRulesTable(t *testing.T) {
	data, err := os.ReadFile("../rules.yaml")
	if err != nil {
		t.Skipf("no rules.yaml: %v", err)
	}
	rules, err := ruleset.ParseRules("rules.yaml", data)
	if err != nil {
		t.Fatalf("rules.yaml: %v", err)
	}
	real := CommandsFrom(rules)
	for name := range testCommands {
		if real(name) == nil {
			t.Errorf("rules.yaml has no command %q", name)
		}
	}
	scripts := []string{enqueueBad, enqueueGood, claimBad, claimGood, completeBad, completeGood, retryBad, retryGood,
		archiveBad, archiveGood, listServersBad, listServersGood,
		`redis.call('XREAD', 'COUNT', 10, 'STREAMS', KEYS[1], 'emq:x', '0', '0')
redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[2], 'emq:other')
redis.call('OBJECT', 'ENCODING', 'emq:other')
return redis.call('DEL', unpack(ARGV))`,
	}
	calls := []Call{
		{},
		keysCall(ordersPending, ordersActive, ordersLeases),
		runtimeCall([]string{ordersJob, ordersActive, "emq:{orders}:dead"}, "42", "emq:x", "emq:{orders}:y", "1"),
	}
	for i, src := range scripts {
		s, _ := Parse(fmt.Sprintf("script%d", i), src)
		for _, call := range calls {
			want := s.Check(lookupTest, call)
			got := s.Check(real, call)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("script %d, call %+v:\nwith rules.yaml: %v\nhand-written:    %v", i, call, got, want)
			}
		}
	}
}

// TestConcurrentCheck runs Check on one Script from many goroutines; run it
// with -race.
func TestConcurrentCheck(t *testing.T) {
	s, err := Parse("enqueueScript", enqueueBad[:len(enqueueBad)-len("return 1\n")]+listServersBad[len("#!lua flags=no-writes,allow-stale\n"):])
	if err != nil {
		t.Fatal(err)
	}
	calls := []Call{
		{},
		keysCall(ordersPending),
		keysCall("emq:servers"),
		runtimeCall([]string{ordersPending, ordersActive}, "1", "2"),
		{Keys: []keyspace.Key{sym("emq:{<queue>}:pending")}, KnownKeyCount: true, Cluster: true},
	}
	want := make([][]Finding, len(calls))
	for i, c := range calls {
		want[i] = s.Check(lookupTest, c)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(calls))
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 20; n++ {
				i := (g + n) % len(calls)
				if got := s.Check(lookupTest, calls[i]); !reflect.DeepEqual(got, want[i]) {
					errs <- fmt.Sprintf("call %d: got %v, want %v", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestCheckLeavesCallAlone(t *testing.T) {
	s, _ := Parse("s", enqueueBad)
	keys := lits(ordersPending)
	args := lits("1", "2")
	s.Check(lookupTest, Call{Keys: keys, Args: args, KnownKeyCount: true, KnownArgCount: true})
	if !reflect.DeepEqual(keys, lits(ordersPending)) || !reflect.DeepEqual(args, lits("1", "2")) {
		t.Errorf("Check changed the call's keys or args: %v %v", keys, args)
	}
}

// TestAnalysisBounds feeds scripts that make the walk work hard: it must end
// quickly, and still report what it saw.
func TestAnalysisBounds(t *testing.T) {
	// Each level calls the next twice: 2^20 paths if the walk followed them all.
	src := "local function f0(k) return redis.call('GET', k) end\n"
	for i := 1; i <= 20; i++ {
		src += fmt.Sprintf("local function f%d(k) f%d(k) return f%d(k) end\n", i, i-1, i-1)
	}
	src += "f20(KEYS[1])\nreturn redis.call('GET', 'emq:other')\n"
	s, err := Parse("deep", src)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Check(lookupTest, Call{Keys: lits(ordersPending)})
	if len(got) == 0 || got[len(got)-1].Line != 23 {
		t.Errorf("findings %v, want the literal key on line 23", got)
	}
	// A loop that keeps growing a key.
	s, _ = Parse("grow", "local k = KEYS[1]\nfor i = 1, 100 do k = k .. ':x' end\nreturn redis.call('GET', k)")
	got = s.Check(lookupTest, Call{Keys: lits(ordersPending)})
	if len(got) != 1 || got[0].Category != CategoryUndeclaredKeySameSlot {
		t.Errorf("grow: %v", got)
	}
}

func BenchmarkCheck(b *testing.B) {
	s, err := Parse("enqueueScript", enqueueBad)
	if err != nil {
		b.Fatal(err)
	}
	call := runtimeCall([]string{ordersPending}, "42", "payload")
	b.ReportAllocs()
	for b.Loop() {
		s.Check(lookupTest, call)
	}
}

// BenchmarkCheckClean is the runtime hook's usual case: a script whose
// keys are all declared and in one slot.
func BenchmarkCheckClean(b *testing.B) {
	s, err := Parse("claimScript", claimGood)
	if err != nil {
		b.Fatal(err)
	}
	call := runtimeCall([]string{ordersPending, ordersActive, ordersLeases, "emq:{orders}:jobs"}, "1700000000")
	b.ReportAllocs()
	for b.Loop() {
		if len(s.Check(lookupTest, call)) != 0 {
			b.Fatal("findings")
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("claimScript", claimBad); err != nil {
			b.Fatal(err)
		}
	}
}
