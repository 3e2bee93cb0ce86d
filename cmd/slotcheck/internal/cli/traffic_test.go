package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/clustercheck/traffic"
	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

// trafficReport is slotcheck traffic --json, read back.
type trafficReport struct {
	Source         string
	Commands       int64
	ScriptCommands int64 `json:"script_commands"`
	BadLines       int   `json:"bad_lines"`
	GetKeys        struct {
		Asked    int64
		Differed int64
		Stopped  string
		Movable  []string
	}
	Findings []struct {
		Kind, Command, Pattern, Fix string
		Count                       int64
		Clients                     []string
		Examples                    []struct {
			Client string
			Line   int
			DB     int
			Keys   []struct {
				Key       string
				KeyBase64 string `json:"key_base64"`
				Slot      int
			}
			Reason string
		}
	}
}

func readTrafficJSON(t *testing.T, out string) *trafficReport {
	t.Helper()
	var r trafficReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	return &r
}

func (r *trafficReport) counts() map[string]int64 {
	m := map[string]int64{}
	for _, f := range r.Findings {
		m[f.Kind] += f.Count
	}
	return m
}

// groups lists the findings as "kind command pattern count".
func (r *trafficReport) groups() []string {
	var g []string
	for _, f := range r.Findings {
		g = append(g, fmt.Sprintf("%s %s %q %d", f.Kind, f.Command, f.Pattern, f.Count))
	}
	return g
}

// monitors counts the MONITOR clients of a server. CLIENT LIST is an
// admin command, which MONITOR does not show.
func monitors(t *testing.T, c *redis.Conn) int {
	t.Helper()
	list, err := c.ClientList(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(list, "cmd=monitor")
}

func waitMonitors(t *testing.T, c *redis.Conn, n int) {
	t.Helper()
	for monitors(t, c) < n {
		time.Sleep(5 * time.Millisecond)
	}
}

// redisCLI returns the path of redis-cli, or skips the test as
// redistest.Require does.
func redisCLI(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("redis-cli")
	if err != nil {
		if os.Getenv(redistest.RequireEnv) == "1" {
			t.Fatalf("%s=1: redis-cli is not on PATH", redistest.RequireEnv)
		}
		t.Skip("redis-cli is not on PATH; install redis-tools (Debian) or redis (brew)")
	}
	return p
}

// TestTrafficLive drives a known mix of commands against a real
// standalone redis-server while slotcheck traffic watches it live and
// redis-cli monitor records it to a file; both reports, live and --from
// the capture, give exactly the expected counts per kind, and no others.
func TestTrafficLive(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "redis.sock")
	s := redistest.StartStandalone(t, redistest.WithConfig("unixsocket "+sock, "unixsocketperm 700"))
	cli := redisCLI(t)
	ctx := context.Background()
	rdb := s.Client(t)
	mix := rdb.Conn()
	defer mix.Close()
	adm := rdb.Conn()
	defer adm.Close()
	uopt := s.Options()
	uopt.Network, uopt.Addr = "unix", sock
	unix := redis.NewClient(uopt).Conn()
	defer unix.Close()
	for _, c := range []*redis.Conn{mix, adm, unix} {
		if err := c.Ping(ctx).Err(); err != nil { // the connections are made before the watch
			t.Fatal(err)
		}
	}
	mixAddr, admAddr := clientAddr(t, mix), clientAddr(t, adm)

	if err := mix.FunctionLoad(ctx, "#!lua name=trafficlib\nredis.register_function('touch', function(keys, args) return redis.call('GET', 'fn:undeclared') end)").Err(); err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]string{{"x:1", "x:2"}, {"x:3", "x:4"}, {"a:1", "a:2"}, {"t:1", "t:2"}, {"w:1", "w:2"}, {"{s}:k", "undeclared:key"}, {"f:1", "fn:undeclared"}} {
		if slot.Of(p[0]) == slot.Of(p[1]) {
			t.Fatalf("%q and %q share a slot; the mix needs keys in different slots", p[0], p[1])
		}
	}

	// The recorder, as a user records a capture.
	capPath := filepath.Join(t.TempDir(), "capture.txt")
	capFile, err := os.Create(capPath)
	if err != nil {
		t.Fatal(err)
	}
	rec := exec.Command(cli, "-h", "127.0.0.1", "-p", strconv.Itoa(port(t, s.Addr)), "monitor")
	rec.Stdout = capFile
	if err := rec.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Process.Kill(); rec.Wait() })
	waitMonitors(t, adm, 1)

	// The mix; sent counts the commands MONITOR shows.
	sent := 0
	do := func(c *redis.Conn, args ...any) {
		t.Helper()
		if err := c.Do(ctx, args...).Err(); err != nil && err != redis.Nil {
			t.Fatalf("%v: %v", args, err)
		}
		sent++
	}
	var mixCommands []func()
	// Many commands that a cluster runs.
	for i := range 40 {
		u := "{u" + strconv.Itoa(i) + "}"
		mixCommands = append(mixCommands, func() {
			do(mix, "SET", u+":a", "v")
			do(mix, "GET", u+":a")
			do(mix, "HSET", u+":h", "f", "v")
			do(mix, "MGET", u+":a", u+":b")
			do(mix, "INCR", "counter:"+strconv.Itoa(i))
		})
	}
	// Cross-slot: 3.
	mixCommands = append(mixCommands, func() {
		do(mix, "MGET", "x:1", "x:2")
		do(mix, "MGET", "x:3", "x:4")
		do(mix, "DEL", "a:1", "a:2")
	})
	// Transactions across slots: 2, one of them through a WATCHed key.
	mixCommands = append(mixCommands, func() {
		if _, err := mix.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "t:1", "v", 0)
			p.Set(ctx, "t:2", "v", 0)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		sent += 4 // MULTI, SET, SET, EXEC
		do(mix, "WATCH", "w:1")
		if _, err := mix.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "w:2", "v", 0)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		sent += 3
		// A transaction in one slot, whose queued command MONITOR shows
		// at EXEC: after the PING sent between.
		do(mix, "MULTI")
		do(mix, "SET", "{h}:1", "v") // queued: MONITOR shows it at EXEC
		do(adm, "PING", "between")
		do(mix, "SET", "{h}:2", "v")
		do(mix, "EXEC")
		// A DISCARDed transaction: MONITOR never shows its commands.
		do(mix, "WATCH", "d:0")
		do(mix, "MULTI")
		for _, k := range []string{"d:1", "d:2"} {
			if err := mix.Do(ctx, "SET", k, "v").Err(); err != nil {
				t.Fatal(err)
			}
		}
		do(mix, "DISCARD")
	})
	// Scripts: one touches an undeclared key; the function touches one.
	mixCommands = append(mixCommands, func() {
		do(mix, "EVAL", "redis.call('SET', KEYS[1], 1) return redis.call('GET', 'undeclared:key')", "1", "{s}:k")
		do(mix, "EVAL", "return redis.call('GET', KEYS[1])", "1", "{s}:k")
		do(mix, "FCALL", "touch", "1", "f:1")
	})
	// Databases: SELECT 1 on TCP, SELECT 2 on the unix socket; SELECT 0
	// is fine.
	mixCommands = append(mixCommands, func() {
		do(mix, "SELECT", "1")
		do(mix, "GET", "in:db1")
		do(mix, "SELECT", "0")
		do(unix, "SELECT", "2")
		do(unix, "SELECT", "0")
	})
	// Keyspace-wide: 1.
	mixCommands = append(mixCommands, func() { do(mix, "KEYS", "{u1}:*") })

	// The number of commands of the mix that MONITOR shows, which the
	// watcher is told to read; the mix checks it as it goes.
	const want = 40*5 + 3 + (4 + 1 + 3 + 5 + 3) + 3 + 5 + 1
	liveDone := make(chan [3]string, 1)
	go func() {
		code, out, errs := run(t, "traffic", "--addr", s.Addr, "--sample", strconv.Itoa(want), "--json")
		liveDone <- [3]string{strconv.Itoa(code), out, errs}
	}()
	waitMonitors(t, adm, 2)
	// What a MONITOR client has not read waits in the server's memory,
	// without limit by default. CONFIG, an admin command, is not shown:
	// the counts below hold with it.
	if limit := adm.ConfigGet(ctx, "client-output-buffer-limit").Val()["client-output-buffer-limit"]; !strings.HasPrefix(limit, "normal 0 0 0 ") {
		t.Errorf("client-output-buffer-limit %q", limit)
	}
	for _, f := range mixCommands {
		f()
	}
	if sent != want {
		t.Fatalf("the mix sent %d commands, the test counts %d", sent, want)
	}
	live := <-liveDone
	do(adm, "PING", "end-of-mix")
	for {
		b, _ := os.ReadFile(capPath)
		if bytes.Contains(b, []byte(`"end-of-mix"`)) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	rec.Process.Kill()
	rec.Wait()
	capFile.Close()

	wantCounts := map[string]int64{
		traffic.KindCrossSlot:    3,
		traffic.KindTransaction:  2,
		traffic.KindScript:       2,
		traffic.KindMultiDB:      2,
		traffic.KindKeyspaceWide: 1,
	}
	if live[0] != "0" {
		t.Fatalf("live: exit %s, stderr %q", live[0], live[2])
	}
	lr := readTrafficJSON(t, live[1])
	if got := lr.counts(); !maps.Equal(got, wantCounts) {
		t.Errorf("live counts %v, want %v\n%s", got, wantCounts, live[1])
	}
	if lr.Commands != int64(want) || lr.ScriptCommands != 4 {
		t.Errorf("live: %d commands, %d by scripts; want %d and 4", lr.Commands, lr.ScriptCommands, want)
	}
	if lr.GetKeys.Asked == 0 || lr.GetKeys.Differed != 0 || lr.GetKeys.Stopped != "" {
		t.Errorf("live COMMAND GETKEYS: %+v", lr.GetKeys)
	}

	code, out, errs := run(t, "traffic", "--from", capPath, "--json")
	if code != ExitOK || errs != "" {
		t.Fatalf("--from: exit %d, stderr %q", code, errs)
	}
	fr := readTrafficJSON(t, out)
	if got := fr.counts(); !maps.Equal(got, wantCounts) {
		t.Errorf("--from counts %v, want %v\n%s", got, wantCounts, out)
	}
	if !slices.Equal(fr.groups(), lr.groups()) {
		t.Errorf("groups differ:\nlive  %q\n--from %q", lr.groups(), fr.groups())
	}
	// --from with a server: COMMAND GETKEYS confirms the keys that move.
	code, out, errs = run(t, "traffic", "--from", capPath, "--addr", s.Addr, "--json")
	if code != ExitOK || errs != "" {
		t.Fatalf("--from --addr: exit %d, stderr %q", code, errs)
	}
	if sr := readTrafficJSON(t, out); !slices.Equal(sr.groups(), fr.groups()) || sr.GetKeys.Asked == 0 || sr.GetKeys.Differed != 0 {
		t.Errorf("--from --addr: %q, COMMAND GETKEYS %+v", sr.groups(), sr.GetKeys)
	}

	if keep := os.Getenv("SLOTLINT_TRAFFIC_KEEP"); keep != "" {
		os.WriteFile(keep, capture0(t, capPath), 0o600)
	}
	// What MONITOR shows: the capture holds the mix, the PINGs, and the
	// live watcher's COMMAND GETKEYS, and nothing else: the watcher wrote
	// nothing. The queued SET came after the PING sent between, at EXEC;
	// the DISCARDed SETs never came; the unix socket client is
	// "unix:PATH".
	capture, err := os.ReadFile(capPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(capture)
	getkeys := strings.Count(text, `"COMMAND" "GETKEYS"`)
	if int64(getkeys) != lr.GetKeys.Asked || fr.Commands != int64(want+1+getkeys) {
		t.Errorf("capture: %d commands, %d COMMAND GETKEYS (live asked %d), want %d commands", fr.Commands, getkeys, lr.GetKeys.Asked, want+1+getkeys)
	}
	if !strings.HasPrefix(text, "OK\n") {
		t.Errorf("redis-cli monitor's capture does not start with OK: %q", text[:min(len(text), 40)])
	}
	between := strings.Index(text, `"PING" "between"`)
	queued := strings.Index(text, `"SET" "{h}:1"`)
	if between < 0 || queued < between {
		t.Errorf("the queued SET is not after the PING sent before EXEC")
	}
	var tx []string
	for line := range strings.Lines(text[strings.LastIndexByte(text[:queued], '\n')+1:]) {
		if len(tx) == 3 {
			break
		}
		var l traffic.Line
		if err := traffic.ParseLine([]byte(strings.TrimSpace(line)), &l); err != nil {
			t.Fatal(err)
		}
		tx = append(tx, strings.Join(l.Args, " "))
	}
	if want := []string{"SET {h}:1 v", "SET {h}:2 v", "EXEC"}; !slices.Equal(tx, want) {
		t.Errorf("the queued commands and EXEC: %q, want %q", tx, want)
	}
	if strings.Contains(text, `"d:1"`) || !strings.Contains(text, `"DISCARD"`) {
		t.Errorf("a DISCARDed command shows in MONITOR")
	}
	if !strings.Contains(text, " unix:"+sock+`] "SELECT" "2"`) || !strings.Contains(text, `[2 unix:`) {
		t.Errorf("no [2 unix:%s] SELECT line", sock)
	}
	for _, f := range fr.Findings {
		if f.Kind == traffic.KindMultiDB && f.Pattern == "db 2" && !slices.Equal(f.Clients, []string{"unix:" + sock}) {
			t.Errorf("SELECT 2 from %q", f.Clients)
		}
		if f.Kind == traffic.KindScript && f.Command == "FCALL" && !strings.Contains(f.Examples[0].Reason, `GET "fn:undeclared"`) {
			t.Errorf("FCALL finding %+v", f)
		}
	}
	ours := map[string]bool{"lua": true, mixAddr: true, admAddr: true}
	for line := range strings.Lines(text) {
		var l traffic.Line
		if traffic.ParseLine([]byte(strings.TrimSpace(line)), &l) != nil || ours[l.Client] || strings.HasPrefix(l.Client, "unix:") {
			continue
		}
		if len(l.Args) < 2 || l.Args[0] != "COMMAND" || l.Args[1] != "GETKEYS" {
			t.Errorf("the watcher sent %q", l.Args)
		}
	}
}

// clientAddr returns a connection's address as the server sees it.
func clientAddr(t *testing.T, c *redis.Conn) string {
	t.Helper()
	info, err := c.ClientInfo(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	return info.Addr
}

func capture0(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// port returns the port of HOST:PORT.
func port(t *testing.T, addr string) int {
	t.Helper()
	i := strings.LastIndexByte(addr, ':')
	p, err := strconv.Atoi(addr[i+1:])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// badCapture holds every kind of bad input: the OK that redis-cli writes
// first, lines of another tool, binary keys and escapes, an escape MONITOR
// does not write, and a last line cut short.
const badCapture = `OK
Error: Server closed the connection
1796156185.900074 [0 127.0.0.1:38696] "MGET" "bin\x00key\xff" "other\"key\\"
1796156185.900075 [0 127.0.0.1:38696] "SET" "k\q" "v"
(error) NOPERM this user has no permissions to run the 'monitor' command
1796156185.900076 [0 127.0.0.1:38696] "GET" "fine"
1796156185.900077 [0 127.0.0.1:38696] "MGET" "x:1" "x:2"
1796156185.900078 [0 127.0.0.1:38696] "SET" "x:3" "cut in the mid`

// TestTrafficBadInput feeds a capture with every bad input: each bad line
// gets one line on stderr, naming it, and the rest is read.
func TestTrafficBadInput(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(p, []byte(badCapture), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "traffic", "--from", p, "--json")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	want := []string{
		p + `:2:1: does not start with a timestamp such as 1700000000.123456 (not MONITOR output: a line from another tool?): "Error: Server closed the connection"`,
		p + `:4:47: has an escape "\\q" that MONITOR does not write (not MONITOR output: a line from another tool?)`,
		p + `:5:1: does not start with a timestamp`,
		p + `:8:66: ends inside argument 3, which has no closing quote (the line is cut short: a capture cut mid-line?)`,
	}
	if len(lines) != len(want) {
		t.Fatalf("stderr has %d lines, want %d: %q", len(lines), len(want), errs)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], "slotcheck traffic: "+w) {
			t.Errorf("stderr line %d %q, want it to start with %q", i+1, lines[i], w)
		}
	}
	r := readTrafficJSON(t, out)
	if r.Commands != 3 || r.BadLines != 4 || r.counts()[traffic.KindCrossSlot] != 2 {
		t.Fatalf("report %+v", r)
	}
	bin := r.Findings[0].Examples[0].Keys
	if r.Findings[0].Command != "MGET" || len(bin) != 2 || bin[0].KeyBase64 != "YmluAGtlef8=" || bin[0].Slot != slot.Of("bin\x00key\xff") || bin[1].Key != `other"key\` {
		t.Errorf("binary keys: %+v", r.Findings[0])
	}
	code, out, _ = run(t, "traffic", "--from", p)
	if code != ExitOK || !strings.Contains(out, `e.g. line 3, 127.0.0.1:38696: keys "bin\x00key\xff" (slot `) {
		t.Errorf("text: %d %q", code, out)
	}

	// Nothing but another tool's output: one line, status 2.
	junk := filepath.Join(dir, "junk.txt")
	if err := os.WriteFile(junk, []byte("# Server\r\nredis_version:7.0.15\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "traffic", "--from", junk)
	if code != ExitUsage || !strings.HasSuffix(errs, "slotcheck traffic: "+junk+": no MONITOR line in it; give a capture written by redis-cli monitor > FILE\n") {
		t.Errorf("junk: %d %q", code, errs)
	}
	// More bad lines than are named: the rest are counted.
	var many strings.Builder
	for range 25 {
		many.WriteString("garbage\n")
	}
	many.WriteString(`1.5 [0 c:1] "GET" "k"` + "\n")
	mp := filepath.Join(dir, "many.txt")
	os.WriteFile(mp, []byte(many.String()), 0o600)
	code, _, errs = run(t, "traffic", "--from", mp)
	if code != ExitOK || strings.Count(errs, "\n") != maxBadShown+1 || !strings.Contains(errs, "15 more lines that are not MONITOR output") {
		t.Errorf("many: %d %q", code, errs)
	}
	// An empty capture, a missing one.
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, nil, 0o600)
	code, out, _ = run(t, "traffic", "--from", empty)
	if code != ExitOK || !strings.Contains(out, "0 commands") || !strings.Contains(out, "nothing that a Redis Cluster would refuse") {
		t.Errorf("empty: %d %q", code, out)
	}
	code, _, errs = run(t, "traffic", "--from", filepath.Join(dir, "missing.txt"))
	wantOneLine(t, errs, "--from", "no such file")
	if code != ExitUsage {
		t.Errorf("missing: %d", code)
	}
}

// TestTrafficUsage checks the flags and --fail-on.
func TestTrafficUsage(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.txt")
	os.WriteFile(p, []byte(`1.5 [0 c:1] "MGET" "x:1" "x:2"`+"\n"+`1.6 [0 c:1] "KEYS" "*"`+"\n"), 0o600)
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"traffic"}, ExitUsage, "give --addr HOST:PORT to watch a server, or --from FILE"},
		{[]string{"traffic", "--from", p, "--duration", "1s"}, ExitUsage, "--duration is for a live watch"},
		{[]string{"traffic", "--from", p, "--sample", "-1"}, ExitUsage, "--sample -1"},
		{[]string{"traffic", "--from", p, "--fail-on", "orphans"}, ExitUsage, `--fail-on "orphans": the kinds are cross-slot, transaction, script-undeclared, multi-db, keyspace-wide, or all`},
		{[]string{"traffic", "--from", p, "--fail-on", "transaction,multi-db"}, ExitOK, ""},
		{[]string{"traffic", "--from", p, "--fail-on", "cross-slot"}, ExitMismatch, "found cross-slot 1 (--fail-on)"},
		{[]string{"traffic", "--from", p, "--fail-on", "all"}, ExitMismatch, "found cross-slot 1, keyspace-wide 1 (--fail-on)"},
		{[]string{"traffic", "--from", p, "--sample", "1", "--fail-on", "all"}, ExitMismatch, "found cross-slot 1 (--fail-on)"},
		{[]string{"traffic", "--addr", "nohost"}, ExitUsage, `--addr "nohost" is not HOST:PORT`},
		{[]string{"traffic", "--from", p, "--rules", p}, ExitUsage, p},
	} {
		code, _, errs := run(t, tc.args...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d (%q)", tc.args, code, tc.code, errs)
		}
		if tc.err == "" && errs != "" || tc.err != "" && !strings.Contains(errs, tc.err) {
			t.Errorf("%q: stderr %q, want %q", tc.args, errs, tc.err)
		}
	}
	code, out, _ := run(t, "traffic", "--help")
	if code != ExitOK || !strings.Contains(out, "ACL SETUSER NAME on >PASSWORD "+ACLTraffic) {
		t.Errorf("help: %d %q", code, out)
	}
}

// TestTrafficJSONSchema pins the fields of slotcheck traffic --json, which
// README.md documents.
func TestTrafficJSONSchema(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.txt")
	os.WriteFile(p, []byte(`1.5 [0 c:1] "MGET" "x:1" "bin\xff"`+"\n"), 0o600)
	_, out, _ := run(t, "traffic", "--from", p, "--json")
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	fields := func(raw json.RawMessage) []string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	first := func(raw json.RawMessage) json.RawMessage {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil || len(list) == 0 {
			t.Fatalf("%s: %v", raw, err)
		}
		return list[0]
	}
	var findings map[string]json.RawMessage
	json.Unmarshal(first(top["findings"]), &findings)
	var example map[string]json.RawMessage
	json.Unmarshal(first(findings["examples"]), &example)
	var keys []json.RawMessage
	json.Unmarshal(example["keys"], &keys)
	for _, tc := range []struct {
		what string
		got  []string
		want string
	}{
		{"top", fields([]byte(out)), "bad_lines commands findings getkeys key_encoding script_commands seconds source"},
		{"getkeys", fields(top["getkeys"]), "asked differed movable stopped"},
		{"finding", fields(first(top["findings"])), "clients command count examples fix kind pattern"},
		{"example", fields(first(findings["examples"])), "client db keys line reason"},
		{"key", fields(keys[0]), "key slot"},
		{"binary key", fields(keys[1]), "key_base64 slot"},
	} {
		if strings.Join(tc.got, " ") != tc.want {
			t.Errorf("%s fields %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	readme, err := os.ReadFile("../../../../docs/runtime.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields("bad_lines commands findings getkeys key_encoding script_commands seconds source asked differed movable stopped clients command count examples fix kind pattern client db keys line reason key_base64 slot") {
		if !bytes.Contains(readme, []byte("`"+f+"`")) {
			t.Errorf("docs/runtime.md does not document the JSON field %q", f)
		}
	}
}

// TestTrafficACL runs a live watch as a user with exactly ACLTraffic, and
// as one without +monitor, whose refusal names the permission.
func TestTrafficACL(t *testing.T) {
	s := redistest.StartStandalone(t, redistest.WithConfig(
		"user watcher on >pw1 "+ACLTraffic,
		"user nomonitor on >pw2 -@all +command|getkeys",
		"user nogetkeys on >pw3 -@all +monitor",
	))
	ctx := context.Background()
	adm := s.Client(t).Conn()
	defer adm.Close()
	readme, err := os.ReadFile("../../../../docs/runtime.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte(ACLTraffic)) {
		t.Errorf("docs/runtime.md does not show the ACL rules %q", ACLTraffic)
	}

	// MONITOR is in the @admin and @dangerous categories.
	info, err := adm.Do(ctx, "COMMAND", "INFO", "MONITOR").Slice()
	if err != nil || !strings.Contains(fmt.Sprint(info), "@admin") || !strings.Contains(fmt.Sprint(info), "@dangerous") {
		t.Errorf("COMMAND INFO MONITOR: %v %v", info, err)
	}

	watch := func(user, pw string) (int, *trafficReport, string) {
		t.Setenv(PasswordEnv, pw)
		done := make(chan [3]string, 1)
		go func() {
			code, out, errs := run(t, "traffic", "--addr", s.Addr, "--user", user, "--sample", "2", "--json")
			done <- [3]string{strconv.Itoa(code), out, errs}
		}()
		var res [3]string
	wait:
		for {
			select {
			case res = <-done:
				break wait
			default:
			}
			if monitors(t, adm) > 0 {
				adm.Do(ctx, "EVAL", "return redis.call('GET', 'k')", "0")
				adm.Do(ctx, "MGET", "x:1", "x:2")
				res = <-done
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		code, _ := strconv.Atoi(res[0])
		if code != ExitOK {
			return code, nil, res[2]
		}
		return code, readTrafficJSON(t, res[1]), res[2]
	}
	code, r, errs := watch("watcher", "pw1")
	if code != ExitOK || r.Commands != 2 || r.counts()[traffic.KindCrossSlot] != 1 || r.counts()[traffic.KindScript] != 1 || r.GetKeys.Asked == 0 || r.GetKeys.Stopped != "" {
		t.Errorf("watcher: %d %+v %q", code, r, errs)
	}
	code, _, errs = watch("nomonitor", "pw2")
	if code != ExitError {
		t.Errorf("nomonitor: exit %d", code)
	}
	wantOneLine(t, errs, s.Addr, `the ACL user "nomonitor" may not run MONITOR`, "NOPERM", "+monitor", "@admin", "@dangerous")
	// Without +command|getkeys, the key specs serve, and the report says why.
	code, r, errs = watch("nogetkeys", "pw3")
	if code != ExitOK || !strings.Contains(r.GetKeys.Stopped, "give the user +command|getkeys") || r.counts()[traffic.KindCrossSlot] != 1 {
		t.Errorf("nogetkeys: %d %+v %q", code, r, errs)
	}
	// The user with the documented rules was denied nothing.
	entries, err := adm.Do(ctx, "ACL", "LOG").Slice()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if s := fmt.Sprint(e); strings.Contains(s, "watcher") {
			t.Errorf("watcher denied: %s", s)
		}
	}
	t.Setenv(PasswordEnv, "wrong")
	code, _, errs = run(t, "traffic", "--addr", s.Addr, "--user", "watcher", "--sample", "1")
	if code != ExitError {
		t.Errorf("wrong password: exit %d", code)
	}
	wantOneLine(t, errs, "authentication failed", "WRONGPASS")
}

// TestTrafficSIGINT interrupts a live watch of the slotcheck binary with
// SIGINT: it reports what it saw, says it stopped, and exits with 0.
func TestTrafficSIGINT(t *testing.T) {
	s := redistest.StartStandalone(t)
	ctx := context.Background()
	adm := s.Client(t).Conn()
	defer adm.Close()
	bin := buildSlotcheck(t)
	cmd := exec.Command(bin, "traffic", "--addr", s.Addr)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitMonitors(t, adm, 1)
	adm.Do(ctx, "KEYS", "*")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if code := cmd.ProcessState.ExitCode(); code != ExitOK || stderr.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "stopped by Ctrl-C") {
		t.Errorf("stdout %q", stdout.String())
	}
}

// TestTrafficEnds ends live watches by --duration, and by the server
// closing the MONITOR connection (CLIENT KILL), which exits with status 3
// and one line.
func TestTrafficEnds(t *testing.T) {
	s := redistest.StartStandalone(t)
	ctx := context.Background()
	adm := s.Client(t).Conn()
	defer adm.Close()
	code, out, errs := run(t, "traffic", "--addr", s.Addr, "--duration", "50ms")
	if code != ExitOK || errs != "" || !strings.Contains(out, "stopped by --duration 50ms") {
		t.Errorf("--duration: %d %q %q", code, out, errs)
	}

	done := make(chan [3]string, 1)
	go func() {
		code, out, errs := run(t, "traffic", "--addr", s.Addr)
		done <- [3]string{strconv.Itoa(code), out, errs}
	}()
	waitMonitors(t, adm, 1)
	list := adm.ClientList(ctx).Val()
	for line := range strings.Lines(list) {
		if strings.Contains(line, "cmd=monitor") {
			id := strings.TrimPrefix(strings.Fields(line)[0], "id=")
			if err := adm.Do(ctx, "CLIENT", "KILL", "ID", id).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	res := <-done
	if res[0] != strconv.Itoa(ExitError) {
		t.Errorf("killed: exit %s", res[0])
	}
	wantOneLine(t, res[2], s.Addr, "the server closed the MONITOR connection")
}

// TestTrafficClusterRefuses checks, on a real cluster, what the README
// says a cluster does with the multi-db and keyspace-wide commands: KEYS,
// SCAN and RANDOMKEY answer from the node they are sent to, and a node
// refuses SELECT of another database, MOVE, SWAPDB and COPY with DB.
func TestTrafficClusterRefuses(t *testing.T) {
	cl := redistest.Shared(t)
	cc := cl.Client(t)
	ctx := context.Background()
	var keys []string
	for i := range 30 {
		k := "trafficclaims:" + strconv.Itoa(i)
		keys = append(keys, k)
		if err := cc.Set(ctx, k, "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, k := range keys {
			cc.Del(ctx, k)
		}
	})
	node := cl.Nodes[0]
	nc := node.Client(t)
	var mine []string
	for _, k := range keys {
		if o, err := cl.Owner(slot.Of(k)); err != nil {
			t.Fatal(err)
		} else if o == node {
			mine = append(mine, k)
		}
	}
	if len(mine) == 0 || len(mine) == len(keys) {
		t.Fatalf("%d of %d keys on node 0; the test needs some elsewhere", len(mine), len(keys))
	}
	got, err := nc.Keys(ctx, "trafficclaims:*").Result()
	slices.Sort(got)
	slices.Sort(mine)
	if err != nil || !slices.Equal(got, mine) {
		t.Errorf("KEYS on one node: %q %v, want that node's %q", got, err, mine)
	}
	var scanned []string
	iter := nc.Scan(ctx, 0, "trafficclaims:*", 1000).Iterator()
	for iter.Next(ctx) {
		scanned = append(scanned, iter.Val())
	}
	slices.Sort(scanned)
	if iter.Err() != nil || !slices.Equal(scanned, mine) {
		t.Errorf("SCAN on one node: %q %v, want %q", scanned, iter.Err(), mine)
	}
	for range 20 {
		k, err := nc.RandomKey(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		if o, _ := cl.Owner(slot.Of(k)); o != node {
			t.Errorf("RANDOMKEY on node 0 gave %q, of another node", k)
		}
	}
	for _, args := range [][]any{
		{"SELECT", "1"},
		{"MOVE", mine[0], "1"},
		{"SWAPDB", "0", "1"},
		{"COPY", "{" + mine[0] + "}", "{" + mine[0] + "}:copy", "DB", "1"},
	} {
		err := nc.Do(ctx, args...).Err()
		if err == nil || !strings.Contains(err.Error(), "cluster mode") {
			t.Errorf("%q on a cluster node: %v", args, err)
		}
	}
}
