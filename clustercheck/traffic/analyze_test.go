package traffic

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/slot"
)

// analyze reads a capture and returns the report and the bad lines.
func analyze(t *testing.T, capture string, opt Options) (*Report, []string) {
	t.Helper()
	a := New(opt)
	var bad []string
	eachLine(t, []byte(capture), a.Feed, func(bl *BadLine) { bad = append(bad, bl.Error()) })
	return a.Report(), bad
}

func counts(r *Report) map[string]int64 {
	m := map[string]int64{}
	for _, f := range r.Findings {
		m[f.Kind] += f.Count
	}
	return m
}

// The capture of the issue that asked for slotcheck traffic, as a real
// redis-server 7.0 writes it, with more lines of each kind.
const capture = `OK
1796153228.765133 [0 127.0.0.1:39144] "MULTI"
1796153228.765200 [0 127.0.0.1:40000] "GET" "other:client"
1796153228.774141 [0 127.0.0.1:39144] "SET" "x:1" "v"
1796153228.774196 [0 127.0.0.1:39144] "SET" "x:2" "v"
1796153228.774204 [0 127.0.0.1:39144] "EXEC"
1796153228.774389 [0 127.0.0.1:39144] "EVAL" "redis.call('SET', KEYS[1], 1) return redis.call('GET', 'undeclared:key')" "1" "{s}:k"
1796153228.774483 [0 lua] "SET" "{s}:k" "1"
1796153228.774493 [0 lua] "GET" "undeclared:key"
1796153228.774614 [1 127.0.0.1:39144] "SELECT" "1"
1796153228.774700 [1 127.0.0.1:39144] "GET" "in:db1"
1796153228.774800 [0 127.0.0.1:39145] "SELECT" "0"
1796153228.774900 [0 127.0.0.1:39145] "MGET" "user:1:profile" "user:1:cart"
1796153228.775000 [0 127.0.0.1:39145] "MGET" "user:2:profile" "user:2:cart"
1796153228.775100 [0 127.0.0.1:39146] "MGET" "{user:3}:profile" "{user:3}:cart"
1796153228.775200 [0 10.0.0.7:5000] "KEYS" "session:*"
1796153228.775300 [0 10.0.0.7:5000] "SCAN" "0" "MATCH" "user:*" "COUNT" "100"
1796153228.775400 [0 10.0.0.7:5000] "RANDOMKEY"
1796153228.775500 [0 10.0.0.7:5001] "WATCH" "balance:7"
1796153228.775600 [0 10.0.0.7:5001] "GET" "balance:7"
1796153228.775700 [0 10.0.0.7:5001] "MULTI"
1796153228.775800 [0 10.0.0.7:5001] "INCRBY" "ledger:7" "5"
1796153228.775900 [0 10.0.0.7:5001] "EXEC"
1796153228.776000 [0 10.0.0.7:5002] "MULTI"
1796153228.776100 [0 10.0.0.7:5002] "DISCARD"
1796153228.776200 [0 10.0.0.7:5002] "SET" "a:1" "v"
1796153228.776300 [0 10.0.0.7:5002] "SET" "a:2" "v"
1796153228.776400 [0 10.0.0.7:5003] "MOVE" "job:9" "2"
1796153228.776500 [0 10.0.0.7:5003] "SWAPDB" "0" "1"
1796153228.776600 [0 10.0.0.7:5003] "COPY" "job:9" "job:9:bak" "DB" "3"
1796153228.776700 [0 10.0.0.7:5003] "COPY" "{job:9}" "{job:9}:bak" "DB" "0"
1796153228.776800 [0 10.0.0.7:5004] "FCALL" "f" "1" "k1"
1796153228.776900 [0 lua] "GET" "fk"
1796153228.777000 [0 10.0.0.7:5004] "EVALSHA" "e0e1f9fabfc9d4800c877a703b823ac0578ff8db" "2" "{a}:1" "{b}:2"
1796153228.777100 [2 10.0.0.9:6000] "GET" "old:db2"
1796153228.777200 [2 10.0.0.9:6000] "GET" "old:db2:again"
1796153228.777300 [0 lua] "GET" "stray"
`

func TestAnalyze(t *testing.T) {
	r, bad := analyze(t, capture, Options{})
	if len(bad) > 0 {
		t.Fatalf("bad lines: %q", bad)
	}
	want := map[string]int64{
		// the MGETs of user:1 and user:2; MOVE's and COPY's keys are fine
		KindCrossSlot: 2 + 1, // and COPY "job:9" "job:9:bak"
		// x:1 x:2; balance:7 WATCHed with ledger:7
		KindTransaction: 2,
		// undeclared:key; FCALL's fk; EVALSHA's KEYS span slots
		KindScript: 3,
		// SELECT 1, MOVE, SWAPDB, COPY DB 3, db 2 selected before
		KindMultiDB: 5,
		// KEYS, SCAN, RANDOMKEY
		KindKeyspaceWide: 3,
	}
	if got := counts(r); !maps.Equal(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	if r.Commands != 32 || r.ScriptCommands != 4 || r.StrayScriptCommands != 1 {
		t.Errorf("commands %d, script commands %d, stray %d", r.Commands, r.ScriptCommands, r.StrayScriptCommands)
	}
	if r.First != 1796153228765133 || r.Last != 1796153228777300 {
		t.Errorf("first %d last %d", r.First, r.Last)
	}
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s|%s|%s|%d|%s|%s\n", f.Kind, f.Command, f.Pattern, f.Count, strings.Join(f.Clients, ","), f.Fix)
		for _, e := range f.Examples {
			fmt.Fprintf(&b, "  %d %s %v: %s\n", e.Line, e.Client, e.Keys, e.Reason)
		}
	}
	ks := func(k string) string { return k + " " + slotStr(k) }
	sl := func(k string) string { return fmt.Sprintf("%q (slot %s)", k, slotStr(k)) }
	wantText := `cross-slot|MGET|user:<n>:cart user:<n>:profile|2|127.0.0.1|give the keys a common hashtag such as "{user:<n>}"
  13 127.0.0.1:39145 [{` + ks("user:1:profile") + `} {` + ks("user:1:cart") + `}]: keys ` + sl("user:1:profile") + ` and ` + sl("user:1:cart") + ` hash to different slots
  14 127.0.0.1:39145 [{` + ks("user:2:profile") + `} {` + ks("user:2:cart") + `}]: keys ` + sl("user:2:profile") + ` and ` + sl("user:2:cart") + ` hash to different slots
cross-slot|COPY|job:<n> job:<n>:bak|1|10.0.0.7|give the keys a common hashtag such as "{job:<n>}"
  30 10.0.0.7:5003 [{` + ks("job:9") + `} {` + ks("job:9:bak") + `}]: keys ` + sl("job:9") + ` and ` + sl("job:9:bak") + ` hash to different slots
`
	if !strings.HasPrefix(b.String(), wantText) {
		t.Errorf("report:\n%s\nwant it to start with\n%s", b.String(), wantText)
	}
	for _, want := range []string{
		"transaction|MULTI/EXEC|x:<n>|1|127.0.0.1|",
		"transaction|MULTI/EXEC|balance:<n> ledger:<n>|1|10.0.0.7|",
		`"balance:7" was WATCHed`,
		`script-undeclared|EVAL|undeclared:key {s}:k|1|127.0.0.1|pass every key the script touches in KEYS, and give them a common hashtag such as "{s}"`,
		`it touched GET "undeclared:key" (slot ` + slotStr("undeclared:key") + `), not in its KEYS, in another slot`,
		`script-undeclared|FCALL|fk k<n>|1|10.0.0.7|`,
		`script-undeclared|EVALSHA|{a}:<n> {b}:<n>|1|10.0.0.7|give the script's KEYS a common hashtag such as "{a}"`,
		"its KEYS span slots",
		"multi-db|SELECT|db 1|1|127.0.0.1|a cluster has database 0 only",
		"multi-db|SELECT|db 2|1|10.0.0.9|",
		"which it selected before the first line read",
		"multi-db|MOVE|job:<n> to db 2|1|",
		"multi-db|SWAPDB|db 0 and db 1|1|",
		"multi-db|COPY|job:<n> job:<n>:bak to db 3|1|",
		"keyspace-wide|KEYS|session:*|1|10.0.0.7|",
		"keyspace-wide|SCAN|user:*|1|",
		"keyspace-wide|RANDOMKEY||1|",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

func slotStr(k string) string { return fmt.Sprint(slot.Of(k)) }

// A WATCH or MULTI of one client is not mixed up with the commands of
// another, and DISCARD, UNWATCH and RESET end what they end.
func TestTransactionsPerClient(t *testing.T) {
	capture := `1.1 [0 c:1] "WATCH" "a:1"
1.2 [0 c:2] "MULTI"
1.3 [0 c:1] "UNWATCH"
1.4 [0 c:2] "SET" "a:2" "v"
1.5 [0 c:2] "EXEC"
1.6 [0 c:1] "MULTI"
1.7 [0 c:1] "SET" "a:2" "v"
1.8 [0 c:1] "EXEC"
1.9 [0 c:3] "WATCH" "b:1"
2.0 [0 c:3] "DISCARD"
2.1 [0 c:3] "MULTI"
2.2 [0 c:3] "SET" "b:2" "v"
2.3 [0 c:3] "EXEC"
2.4 [0 c:4] "WATCH" "d:1"
2.5 [0 c:4] "RESET"
2.6 [0 c:4] "MULTI"
2.7 [0 c:4] "SET" "d:2" "v"
2.8 [0 c:4] "EXEC"
2.9 [0 c:5] "WATCH" "e:1"
3.0 [0 c:5] "MULTI"
3.1 [0 c:5] "MGET" "e:2" "e:3"
3.2 [0 c:5] "SET" "{e:1}x" "v"
3.3 [0 c:5] "EXEC"
3.4 [0 c:6] "MULTI"
3.5 [0 c:6] "EVAL" "return 1" "2" "f:1" "f:2"
3.6 [0 c:6] "SET" "{f:1}x" "v"
3.7 [0 c:6] "EXEC"
`
	r, _ := analyze(t, capture, Options{})
	if got := counts(r); !maps.Equal(got, map[string]int64{KindCrossSlot: 1, KindScript: 1}) {
		t.Errorf("counts %v, want only the MGET's cross-slot and the EVAL's KEYS", got)
	}
}

// With a server, the keys of the commands whose keys move come from it
// until it has agreed with the key specs three times; the commands the
// rules do not know are asked until it says it has no keys for them.
func TestServerKeys(t *testing.T) {
	var asked []string
	opt := Options{ServerKeys: func(argv []string) ([]string, error) {
		asked = append(asked, strings.Join(argv, " "))
		switch strings.ToUpper(argv[0]) {
		case "MODULE.MSET":
			return []string{argv[1], argv[3]}, nil
		case "NOKEYS.CMD":
			return nil, nil
		}
		return New(Options{}).keys(New(Options{}).lookup(argv[0]), argv), nil
	}, Ignore: func(c string) bool { return c == "me:1" }}
	var b strings.Builder
	for i := range 5 {
		fmt.Fprintf(&b, "1.%d [0 c:1] \"ZUNIONSTORE\" \"{z}:out\" \"2\" \"{z}:a\" \"{z}:b\"\n", i)
		fmt.Fprintf(&b, "1.%d [0 me:1] \"COMMAND\" \"GETKEYS\" \"ZUNIONSTORE\"\n", i)
		fmt.Fprintf(&b, "1.%d [0 c:1] \"MODULE.MSET\" \"m:%d\" \"v\" \"n:%d\" \"v\"\n", i, i, i)
		fmt.Fprintf(&b, "1.%d [0 c:1] \"NOKEYS.CMD\" \"x\"\n", i)
		fmt.Fprintf(&b, "1.%d [0 c:1] \"GET\" \"x\"\n", i)
	}
	r, _ := analyze(t, b.String(), opt)
	if r.Commands != 20 {
		t.Errorf("commands %d, want 20 (the ignored client's not counted)", r.Commands)
	}
	var z, m, n int
	for _, a := range asked {
		switch {
		case strings.HasPrefix(a, "ZUNIONSTORE"):
			z++
		case strings.HasPrefix(a, "MODULE.MSET"):
			m++
		case strings.HasPrefix(a, "NOKEYS.CMD"):
			n++
		default:
			t.Errorf("asked for %q", a)
		}
	}
	if z != trustAfter || m != 5 || n != 1 {
		t.Errorf("asked ZUNIONSTORE %d times, MODULE.MSET %d, NOKEYS.CMD %d; want %d, 5, 1", z, m, n, trustAfter)
	}
	if got := counts(r); got[KindCrossSlot] != 5 {
		t.Errorf("counts %v, want 5 cross-slot MODULE.MSET from the server's keys", got)
	}
	if !slices.Equal(r.Server.Movable, []string{"ZUNIONSTORE"}) || r.Server.Asked != int64(len(asked)) {
		t.Errorf("server stats %+v", r.Server)
	}

	// An error that stops the asking: the key specs serve from then on.
	calls := 0
	stop := Options{ServerKeys: func([]string) ([]string, error) {
		calls++
		return nil, fmt.Errorf("NOPERM: %w", ErrStopAsking)
	}}
	r, _ = analyze(t, b.String(), stop)
	if calls != 1 || !strings.Contains(r.Server.Stopped, "NOPERM") {
		t.Errorf("%d calls, stopped %q", calls, r.Server.Stopped)
	}
}

func TestRulesFamilies(t *testing.T) {
	rules, err := slotlint.ParseRules("rules.yaml", []byte("version: 1\nfamilies:\n  profile: \"user:<uid>:profile\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := analyze(t, `1.1 [0 c:1] "MGET" "user:1:profile" "user:1:cart"`+"\n", Options{Rules: rules})
	if len(r.Findings) != 1 || r.Findings[0].Pattern != "user:<n>:cart user:<uid>:profile" {
		t.Errorf("findings %+v", r.Findings)
	}
}

// The kinds that need no keys follow the rules: keyspace-wide is every
// command the commands table marks so (FLUSHALL and DBSIZE too, not only
// KEYS, SCAN and RANDOMKEY), and a target whose cluster has databases
// (valkey-9) reports no database.
func TestReadinessFromRules(t *testing.T) {
	capture := `1.1 [0 c:1] "FLUSHALL"
1.2 [0 c:1] "DBSIZE"
1.3 [0 c:1] "SELECT" "3"
1.4 [3 c:1] "MOVE" "job:1" "0"
1.5 [3 c:2] "GET" "job:2"
`
	r, bad := analyze(t, capture, Options{})
	// SELECT 3, MOVE, and c:2 working in database 3, which it selected
	// before the capture began.
	if got, want := counts(r), map[string]int64{KindKeyspaceWide: 2, KindMultiDB: 3 + 1}; len(bad) > 0 || !maps.Equal(got, want) {
		t.Errorf("redis target: counts %v, bad lines %q; want %v", got, bad, want)
	}
	rules, err := slotlint.ParseRules("rules.yaml", []byte("version: 1\ntarget: valkey-9\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ = analyze(t, capture, Options{Rules: rules})
	if got, want := counts(r), map[string]int64{KindKeyspaceWide: 2}; !maps.Equal(got, want) {
		t.Errorf("valkey-9 target: counts %v, want %v", got, want)
	}
}

func TestGeneralize(t *testing.T) {
	for in, want := range map[string]string{
		"user:123:cache": "user:<n>:cache",
		"{user:42}:cart": "{user:<n>}:cart",
		"sess:550e8400-e29b-41d4-a716-446655440000": "sess:<uuid>",
		"obj:507f1f77bcf86cd799439011":              "obj:<hex>",
		"tok:Ab3dEf9hIj2kLm8n":                      "tok:<id>",
		"sku123":                                    "sku<n>",
		"plain:words":                               "plain:words",
		"date:2024-01-31":                           "date:<n>-<n>-<n>",
		"cafe:beef":                                 "cafe:beef",
		"bin\x00\xff:7":                             "bin\x00\xff:<n>",
		"":                                          "",
	} {
		if got := Generalize(in); got != want {
			t.Errorf("Generalize(%q) = %q, want %q", in, got, want)
		}
	}
}
