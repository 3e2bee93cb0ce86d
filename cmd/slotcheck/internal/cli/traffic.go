package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck/traffic"
)

const trafficHelp = `slotcheck traffic: find, in a server's traffic, what a Redis Cluster would refuse.

Usage:
  slotcheck traffic --addr HOST:PORT [--duration D] [--sample N] [--rules FILE] [--json]
  slotcheck traffic --from FILE|- [--addr HOST:PORT] [--rules FILE] [--json]
                    [--fail-on KIND,...]

traffic reads MONITOR output: live from a server (--addr; it stops after
--duration, after --sample commands, or at Ctrl-C, and then reports), or
from a capture saved with "redis-cli monitor > FILE" (--from FILE, or - for
standard input). Every client's commands are there, whatever its language,
and the commands each script ran. It reports, grouped by kind, command and
key pattern, with the clients, examples and the fix:
  cross-slot         a command whose keys hash to different slots
  transaction        a MULTI ... EXEC of one client whose commands, with the
                     keys the client WATCHed, span slots
  script-undeclared  a script (EVAL, EVALSHA, FCALL) that touched a key not
                     in its KEYS, or whose KEYS span slots
  multi-db           SELECT of a database other than 0, MOVE, SWAPDB, COPY
                     with DB: a cluster has database 0 only
  keyspace-wide      KEYS, SCAN, RANDOMKEY, DBSIZE, FLUSHDB, FLUSHALL (the
                     rules' keyspace-wide commands): a cluster runs them on
                     one node
A key pattern is the template of the rules' key family that builds the key
(--rules), or else the key with its numbers, UUIDs, hex and ids replaced.

The keys of each command come from the key specs of the rules; with a
server (--addr), COMMAND GETKEYS confirms them for the commands whose keys
move, and finds those of commands the rules do not know.

It sends only AUTH, MONITOR and COMMAND GETKEYS: it never writes. While
MONITOR runs, the server spends more CPU on every command (see
docs/runtime.md): keep a live watch short with --duration or --sample.

traffic exits with status 0 whatever it finds, unless --fail-on names kinds
(or "all") that make it exit with status 1 when found, for CI. Lines that
are not MONITOR output are skipped, each named on stderr with its line;
a capture with no MONITOR line at all exits with status 2.

Examples:
  slotcheck traffic --addr 127.0.0.1:6379 --duration 30s
  slotcheck traffic --addr 127.0.0.1:6379 --sample 100000 --json > traffic.json
  redis-cli monitor > capture.txt     # Ctrl-C when enough is recorded
  slotcheck traffic --from capture.txt --rules slotlint.yaml --fail-on all
`

// ACLTraffic is for "slotcheck traffic": MONITOR, and COMMAND GETKEYS for
// the commands whose keys move.
const ACLTraffic = "-@all +monitor +command|getkeys"

// maxBadShown is the number of bad lines named on stderr.
const maxBadShown = 10

func runTraffic(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("traffic", trafficHelp+aclHelp(ACLTraffic), stdout)
	var cf connFlags
	cf.register(fs, "")
	fs.MarkHidden("cluster") // traffic watches the one server at --addr
	from := fs.String("from", "", `read a capture of "redis-cli monitor" from FILE ("-" for standard input) instead of watching --addr`)
	duration := fs.Duration("duration", 0, "stop a live watch after this long (0: at Ctrl-C or --sample)")
	sample := fs.Int64("sample", 0, "stop after N commands (0: no limit)")
	rulesFile := fs.String("rules", "", "rules file merged over the built-in rules, for the key families and key specs")
	asJSON := fs.Bool("json", false, "write JSON")
	failOn := fs.StringSlice("fail-on", nil, "exit 1 when these kinds are found: "+strings.Join(traffic.Kinds, ", ")+", or all (comma-separated)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	live := *from == ""
	switch {
	case live && cf.addr == "":
		return usagef("give --addr HOST:PORT to watch a server, or --from FILE to read a capture")
	case *duration < 0:
		return usagef("--duration %v: it must be 0 or more", *duration)
	case *duration > 0 && !live:
		return usagef("--duration is for a live watch; --from reads the whole capture")
	case *sample < 0:
		return usagef("--sample %d: it must be 0 (no limit) or more", *sample)
	}
	for _, f := range *failOn {
		if f != "all" && !slices.Contains(traffic.Kinds, f) {
			return usagef("--fail-on %q: the kinds are %s, or all", f, strings.Join(traffic.Kinds, ", "))
		}
	}
	if cf.addr != "" {
		if err := cf.check(); err != nil {
			return err
		}
		if _, err := cf.tlsConfig(); err != nil {
			return err
		}
	}
	rules, err := slotlint.LoadRules(*rulesFile)
	if err != nil {
		return &inputError{err}
	}
	var input io.Reader
	source := cf.addr
	if !live {
		source = *from
		if *from == "-" {
			input, source = os.Stdin, "standard input"
		} else {
			f, err := os.Open(*from)
			if err != nil {
				return &inputError{fmt.Errorf("--from: %w", err)}
			}
			defer f.Close()
			input = f
		}
	}

	opt := traffic.Options{Rules: rules}
	var gk *respConn
	if cf.addr != "" {
		gk, err = cf.dialRESP(ctx)
		if err != nil {
			return err
		}
		defer gk.Close()
		opt.ServerKeys = getKeys(gk, cf.addr)
		own := gk.localAddr()
		opt.Ignore = func(c string) bool { return c == own }
	}
	t := &trafficRun{a: traffic.New(opt), sample: *sample, source: source, stderr: stderr}
	if live {
		err = t.watch(ctx, &cf, *duration)
	} else {
		err = t.read(ctx, input)
	}
	if err != nil && t.a.Commands() == 0 {
		return err
	}
	r := t.a.Report()
	if t.bad > maxBadShown {
		fmt.Fprintf(stderr, "slotcheck traffic: %s: %d more lines that are not MONITOR output, skipped\n", source, t.bad-maxBadShown)
	}
	if *asJSON {
		if werr := writeTrafficJSON(stdout, source, r, t.bad); werr != nil {
			return werr
		}
	} else {
		writeTrafficText(stdout, source, r, t.stopped, cf.addr != "")
	}
	if err != nil {
		return err // the report of what was read is out; the error follows
	}
	return trafficFailures(r, *failOn)
}

// getKeys asks COMMAND GETKEYS on its own connection.
func getKeys(rc *respConn, addr string) traffic.KeysFunc {
	return func(argv []string) ([]string, error) {
		reply, err := rc.do(append([]string{"COMMAND", "GETKEYS"}, argv...)...)
		var re replyError
		switch {
		case errors.As(err, &re) && strings.Contains(string(re), "no key arguments"):
			return nil, nil
		case errors.As(err, &re) && strings.HasPrefix(string(re), "NOPERM"):
			return nil, fmt.Errorf("%s refused COMMAND GETKEYS (%s): give the user +command|getkeys; %w", addr, re, traffic.ErrStopAsking)
		case errors.As(err, &re):
			return nil, err
		case err != nil:
			return nil, fmt.Errorf("COMMAND GETKEYS on %s failed (%v); %w", addr, err, traffic.ErrStopAsking)
		}
		list, _ := reply.([]any)
		keys := make([]string, 0, len(list))
		for _, v := range list {
			if s, ok := v.(string); ok {
				keys = append(keys, s)
			}
		}
		return keys, nil
	}
}

// A trafficRun feeds an Analyzer from a capture or a MONITOR stream.
type trafficRun struct {
	a       *traffic.Analyzer
	sample  int64
	source  string
	stderr  io.Writer
	bad     int
	stopped string // why a live watch stopped
}

// feed reads lines until the end, a sample's worth of commands, an error,
// or stop, which it asks every 1024 lines; numbered gives the analyzer
// the line numbers, which a live stream has not.
func (t *trafficRun) feed(r *traffic.Reader, numbered bool, stop func() bool) error {
	var l traffic.Line
	for i := 0; t.sample == 0 || t.a.Commands() < t.sample; i++ {
		if i%1024 == 1023 && stop() {
			return errStopped
		}
		err := r.Next(&l)
		var bl *traffic.BadLine
		switch {
		case errors.As(err, &bl):
			t.bad++
			if t.bad <= maxBadShown {
				fmt.Fprintf(t.stderr, "slotcheck traffic: %s\n", bl.At(t.source))
			}
			continue
		case err != nil:
			return err
		}
		n := 0
		if numbered {
			n = r.LineNumber()
		}
		t.a.Feed(&l, n)
	}
	return nil
}

// errStopped ends feed when it is told to stop.
var errStopped = errors.New("stopped")

// read reads a capture; Ctrl-C ends it as its end would, and the report
// is of what was read. (On standard input, "redis-cli monitor | slotcheck
// traffic --from -", Ctrl-C ends redis-cli too, and so the input.)
func (t *trafficRun) read(ctx context.Context, in io.Reader) error {
	err := t.feed(traffic.NewReader(in), true, func() bool { return ctx.Err() != nil })
	switch {
	case errors.Is(err, errStopped):
		t.stopped = "Ctrl-C"
		err = nil
	case err == nil && t.sample > 0:
		t.stopped = fmt.Sprintf("--sample %d", t.sample)
	case errors.Is(err, io.EOF):
		err = nil
	}
	if err != nil {
		return &inputError{fmt.Errorf("%s: %w", t.source, err)}
	}
	if t.a.Commands() == 0 && t.bad > 0 {
		return &inputError{fmt.Errorf("%s: no MONITOR line in it; give a capture written by redis-cli monitor > FILE", t.source)}
	}
	return nil
}

// watch runs MONITOR on the server until the duration, the sample, Ctrl-C
// or the end of the connection.
func (t *trafficRun) watch(ctx context.Context, cf *connFlags, d time.Duration) error {
	rc, err := cf.dialRESP(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	if _, err := rc.do("MONITOR"); err != nil {
		return monitorError(cf, err)
	}
	var mu sync.Mutex
	stop := func(why string) {
		mu.Lock()
		if t.stopped == "" {
			t.stopped = why
		}
		mu.Unlock()
		rc.Close()
	}
	defer context.AfterFunc(ctx, func() { stop("Ctrl-C") })()
	if d > 0 {
		timer := time.AfterFunc(d, func() { stop("--duration " + d.String()) })
		defer timer.Stop()
	}
	err = t.feed(traffic.NewReader(rc.r), false, func() bool { return false })
	mu.Lock()
	defer mu.Unlock()
	switch {
	case err == nil:
		t.stopped = fmt.Sprintf("--sample %d", t.sample)
		return nil
	case t.stopped != "":
		return nil
	case errors.Is(err, io.EOF):
		return connError(cf.addr, errors.New("the server closed the MONITOR connection (a restart, CLIENT KILL, or its client-output-buffer-limit for normal clients?)"))
	}
	return connError(cf.addr, fmt.Errorf("reading MONITOR: %w", err))
}

// monitorError explains a refused MONITOR.
func monitorError(cf *connFlags, err error) error {
	var re replyError
	if errors.As(err, &re) && strings.HasPrefix(string(re), "NOPERM") {
		user := cf.user
		if user == "" {
			user = "default"
		}
		return connError(cf.addr, fmt.Errorf("the ACL user %q may not run MONITOR (%s): give it the +monitor permission, e.g. ACL SETUSER %s +monitor (MONITOR is in the @admin and @dangerous categories)", user, re, user))
	}
	return connError(cf.addr, fmt.Errorf("MONITOR: %w", err))
}

// trafficFailures returns a mismatchError naming the kinds found that
// --fail-on names, or nil.
func trafficFailures(r *traffic.Report, failOn []string) error {
	var found []string
	for _, k := range traffic.Kinds {
		if n := r.Count(k); n > 0 && (slices.Contains(failOn, k) || slices.Contains(failOn, "all")) {
			found = append(found, fmt.Sprintf("%s %s", k, thousands(n)))
		}
	}
	if len(found) == 0 {
		return nil
	}
	return &mismatchError{"found " + strings.Join(found, ", ") + " (--fail-on)"}
}

// units names what a kind counts.
var units = map[string]string{
	traffic.KindCrossSlot:    "command",
	traffic.KindTransaction:  "transaction",
	traffic.KindScript:       "script run",
	traffic.KindMultiDB:      "command",
	traffic.KindKeyspaceWide: "command",
}

// count writes n things: "1 command", "1,200 commands".
func count(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return thousands(n) + " " + thing + "s"
}

func times(n int64) string {
	if n == 1 {
		return "once"
	}
	return thousands(n) + " times"
}

func span(r *traffic.Report) time.Duration {
	return time.Duration(r.Last-r.First) * time.Microsecond
}

func writeTrafficText(w io.Writer, source string, r *traffic.Report, stopped string, server bool) {
	head := fmt.Sprintf("traffic of %s: %s", source, count(r.Commands, "command"))
	if r.ScriptCommands > 0 {
		head += fmt.Sprintf(" and %s run by scripts", thousands(r.ScriptCommands))
	}
	if r.Commands > 0 {
		head += fmt.Sprintf(", over %s", span(r).Round(time.Millisecond))
	}
	if stopped != "" {
		head += "; stopped by " + stopped
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, keysNote(r, server))
	if r.StrayScriptCommands > 0 {
		fmt.Fprintf(w, "%s commands of a script that began before the first line were not checked\n", thousands(r.StrayScriptCommands))
	}
	if len(r.Findings) == 0 {
		fmt.Fprintln(w, "\nnothing that a Redis Cluster would refuse")
		return
	}
	var summary []string
	for _, kind := range traffic.Kinds {
		n := r.Count(kind)
		if n == 0 {
			continue
		}
		summary = append(summary, fmt.Sprintf("%s %s", kind, thousands(n)))
		fmt.Fprintf(w, "\n%s: %s\n", kind, count(n, units[kind]))
		for _, f := range r.Findings {
			if f.Kind != kind {
				continue
			}
			pat := ""
			if f.Pattern != "" {
				pat = " " + strconv.QuoteToGraphic(f.Pattern)
			}
			fmt.Fprintf(w, "  %s%s: %s, from %s\n", f.Command, pat, times(f.Count), clientList(f.Clients))
			for _, e := range f.Examples {
				where := e.Client
				if e.Line > 0 {
					where = fmt.Sprintf("line %d, %s", e.Line, e.Client)
				}
				if e.DB != 0 {
					where += fmt.Sprintf(", db %d", e.DB)
				}
				fmt.Fprintf(w, "    e.g. %s: %s\n", where, e.Reason)
			}
			fmt.Fprintf(w, "    fix: %s\n", f.Fix)
		}
	}
	fmt.Fprintf(w, "\nfound %s\n", strings.Join(summary, ", "))
}

func clientList(c []string) string {
	if len(c) > 5 {
		return strings.Join(c[:5], ", ") + fmt.Sprintf(" and %d more", len(c)-5)
	}
	return strings.Join(c, ", ")
}

// keysNote says where the keys of commands came from.
func keysNote(r *traffic.Report, server bool) string {
	s := r.Server
	moving := ""
	if len(s.Movable) > 0 {
		moving = " (" + strings.Join(s.Movable, ", ") + ")"
	}
	switch {
	case !server && len(s.Movable) > 0:
		return "keys: from the built-in key specs alone; with no server (--addr), COMMAND GETKEYS did not confirm those of the commands whose keys move" + moving
	case !server:
		return "keys: from the built-in key specs"
	case s.Stopped != "":
		return fmt.Sprintf("keys: from the key specs, and COMMAND GETKEYS for %s commands until it stopped: %s", thousands(s.Asked), s.Stopped)
	}
	note := fmt.Sprintf("keys: from the key specs, confirmed by COMMAND GETKEYS for %s commands whose keys move or that the rules do not know%s", thousands(s.Asked), moving)
	if s.Differed > 0 {
		note += fmt.Sprintf("; the server's keys, which differed from the key specs %s times, were used", thousands(s.Differed))
	}
	return note
}

// The JSON schema of slotcheck traffic --json; docs/runtime.md documents it and
// TestTrafficJSONSchema pins it.
type trafficJSON struct {
	KeyEncoding    string        `json:"key_encoding"`
	Source         string        `json:"source"`
	Commands       int64         `json:"commands"`
	ScriptCommands int64         `json:"script_commands"`
	Seconds        float64       `json:"seconds"`
	BadLines       int           `json:"bad_lines"`
	GetKeys        getKeysJSON   `json:"getkeys"`
	Findings       []findingJSON `json:"findings"`
}

type getKeysJSON struct {
	Asked    int64    `json:"asked"`
	Differed int64    `json:"differed"`
	Stopped  string   `json:"stopped"`
	Movable  []string `json:"movable"`
}

type findingJSON struct {
	Kind     string        `json:"kind"`
	Command  string        `json:"command"`
	Pattern  string        `json:"pattern"`
	Count    int64         `json:"count"`
	Clients  []string      `json:"clients"`
	Examples []exampleJSON `json:"examples"`
	Fix      string        `json:"fix"`
}

type exampleJSON struct {
	Client string        `json:"client"`
	Line   int           `json:"line"`
	DB     int           `json:"db"`
	Keys   []keySlotJSON `json:"keys"`
	Reason string        `json:"reason"`
}

type keySlotJSON struct {
	Key, KeyBase64 string
	Slot           int
}

func writeTrafficJSON(w io.Writer, source string, r *traffic.Report, bad int) error {
	out := trafficJSON{
		KeyEncoding: keyEncoding, Source: source,
		Commands: r.Commands, ScriptCommands: r.ScriptCommands,
		Seconds: span(r).Seconds(), BadLines: bad,
		GetKeys: getKeysJSON{
			Asked: r.Server.Asked, Differed: r.Server.Differed, Stopped: r.Server.Stopped,
			Movable: append([]string{}, r.Server.Movable...),
		},
		Findings: []findingJSON{},
	}
	for _, f := range r.Findings {
		fj := findingJSON{
			Kind: f.Kind, Command: f.Command, Pattern: f.Pattern, Count: f.Count,
			Clients: append([]string{}, f.Clients...), Examples: []exampleJSON{}, Fix: f.Fix,
		}
		for _, e := range f.Examples {
			ej := exampleJSON{Client: e.Client, Line: e.Line, DB: e.DB, Keys: []keySlotJSON{}, Reason: e.Reason}
			for _, k := range e.Keys {
				text, b64 := keyFields(k.Key)
				ej.Keys = append(ej.Keys, keySlotJSON{Key: text, KeyBase64: b64, Slot: k.Slot})
			}
			fj.Examples = append(fj.Examples, ej)
		}
		out.Findings = append(out.Findings, fj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// MarshalJSON writes {"key": ..., "slot": N} for a key that is valid
// UTF-8, {"key_base64": ..., "slot": N} for any other.
func (k keySlotJSON) MarshalJSON() ([]byte, error) {
	if k.KeyBase64 == "" {
		return json.Marshal(struct {
			Key  string `json:"key"`
			Slot int    `json:"slot"`
		}{k.Key, k.Slot})
	}
	return json.Marshal(struct {
		Key  string `json:"key_base64"`
		Slot int    `json:"slot"`
	}{k.KeyBase64, k.Slot})
}
