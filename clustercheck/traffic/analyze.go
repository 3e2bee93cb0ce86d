// Package traffic reads the MONITOR output of a standalone Redis server
// and finds the commands a Redis Cluster would refuse, or run on one node
// only: commands, transactions and scripts whose keys span slots, scripts
// that touch keys they were not given, databases other than 0, and
// commands that read the whole keyspace. It groups them by kind, command
// and key pattern, with examples and the fix.
//
// The keys of each command come from the key specs of slotlint's rules
// (package ruleset), and, when a server is at hand, from its COMMAND
// GETKEYS for the commands whose keys move (Options.ServerKeys). The
// package talks to no server itself: the caller feeds it lines, from a
// capture (Reader) or from a MONITOR connection.
package traffic

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck/internal/crossslot"
	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

// Kinds of finding, in the order a report lists them.
const (
	// KindCrossSlot is one command whose keys hash to different slots.
	KindCrossSlot = "cross-slot"
	// KindTransaction is a MULTI … EXEC of one client whose commands, with
	// the keys the client WATCHed, span slots.
	KindTransaction = "transaction"
	// KindScript is a script run (EVAL, EVALSHA, FCALL and their _RO
	// forms) that touched a key not in its KEYS, or whose KEYS span slots.
	KindScript = "script-undeclared"
	// KindMultiDB is a SELECT of a database other than 0, a MOVE, a
	// SWAPDB, or a COPY with DB other than 0: a cluster has database 0
	// only.
	KindMultiDB = "multi-db"
	// KindKeyspaceWide is a command that the commands table marks
	// keyspace-wide (KEYS, SCAN, RANDOMKEY, DBSIZE, FLUSHDB, FLUSHALL),
	// which reads or changes one node of a cluster.
	KindKeyspaceWide = "keyspace-wide"
)

// Kinds lists the kinds of finding in report order.
var Kinds = []string{KindCrossSlot, KindTransaction, KindScript, KindMultiDB, KindKeyspaceWide}

// KeysFunc asks a server for the keys of a command, argv[0] its name, as
// COMMAND GETKEYS does: nil and no error for a command without keys. An
// error wrapping ErrStopAsking stops the asking for good (the connection
// is gone, the user may not run COMMAND GETKEYS); any other error makes
// that one command fall back to the rules' key specs.
type KeysFunc func(argv []string) ([]string, error)

// ErrStopAsking, wrapped in a KeysFunc's error, stops the asking.
var ErrStopAsking = errors.New("stop asking the server for keys")

// Options configure an Analyzer.
type Options struct {
	// Rules are the key specs and key families; nil means slotlint's
	// built-in rules.
	Rules *ruleset.Rules
	// ServerKeys, when set, is asked for the keys of the commands whose
	// keys move (their key specs search for a keyword, or Redis flags them
	// movablekeys) and of the commands the rules do not know.
	ServerKeys KeysFunc
	// Ignore, when set, drops the lines of the clients it names: the
	// connection that asks ServerKeys, whose commands MONITOR shows too.
	Ignore func(client string) bool
}

// MaxExamples is the number of examples a Finding keeps.
const MaxExamples = 3

// trustAfter is the number of times the server must agree with the key
// specs on a command before the specs are trusted for it.
const trustAfter = 3

// An Analyzer follows MONITOR lines fed to it in order: each client's
// transaction, each script's commands, each client's database. It is not
// safe for concurrent use.
type Analyzer struct {
	opt   Options
	rules *ruleset.Rules
	subs  map[string]bool // commands the table has subcommands of
	info  map[string]*cmdInfo

	clients map[string]*clientState // clients in WATCH or MULTI
	dbs     map[string]int          // clients last seen in a database other than 0
	unseen  map[string]bool         // client and database of a SELECT not seen
	script  *scriptRun

	groups map[groupKey]*group
	order  []*group

	commands, scriptCommands, strayLua int64
	first, last                        int64
	server                             ServerStats
	kbuf                               []string
}

// ServerStats says how the keys of commands were found.
type ServerStats struct {
	// Asked is the number of commands whose keys the server was asked.
	Asked int64
	// Differed is how many of its answers differed from the key specs.
	Differed int64
	// Failed is how many times it failed, and the key specs were used.
	Failed int64
	// Stopped says why the asking stopped, "" if it did not.
	Stopped string
	// Movable names the commands whose keys move that were seen, in
	// upper case, sorted; without a server their keys came from the key
	// specs alone.
	Movable []string
}

type cmdInfo struct {
	upper   string
	cmd     *ruleset.Command
	subs    bool
	movable bool
	agreed  int  // answers of the server that agreed with the key specs
	differs bool // an answer differed: ask every time
	noAsk   bool // the server does not know it, or it has no keys
	seen    bool
}

type clientState struct {
	watched []string
	multi   bool
	keys    []string // keys of the commands of the transaction
	line    int      // the MULTI's line
}

type scriptRun struct {
	name       string
	client     string
	line, db   int
	keys       []string // KEYS
	undeclared []undeclared
}

type undeclared struct{ key, command string }

type groupKey struct{ kind, command, pattern string }

type group struct {
	Finding
	hosts map[string]bool
	tries int // examples made, kept or not
}

// maxTries bounds the examples made for a group: the same keys again and
// again make one example.
const maxTries = 100

// exampleOf returns a func that returns ex.
func exampleOf(ex Example) func() Example { return func() Example { return ex } }

// A Finding is a group of faults of one kind, command and key pattern.
type Finding struct {
	Kind    string
	Command string // "MGET", "MULTI/EXEC", "EVAL", "SELECT"
	// Pattern is the key pattern: the key families' templates or the
	// keys' patterns (Pattern), sorted and joined by spaces; for SELECT
	// and SWAPDB the databases, for KEYS and SCAN the match pattern.
	Pattern string
	// Count is how many times it was seen: commands, transactions (EXEC)
	// or script runs.
	Count int64
	// Clients are the hosts that sent it: IP addresses, or "unix:PATH".
	Clients []string
	// Examples are up to MaxExamples occurrences with different keys.
	Examples []Example
	// Fix says what to change.
	Fix string
}

// An Example is one occurrence of a Finding.
type Example struct {
	Client string // the client's address, as MONITOR shows it
	Line   int    // its line in the capture, from 1; 0 when not known
	DB     int
	// Keys are the keys it rests on, each with its slot.
	Keys   []KeySlot
	Reason string
}

// A KeySlot is a key and its slot.
type KeySlot struct {
	Key  string
	Slot int
}

// A Report is what an Analyzer found.
type Report struct {
	// Commands is the number of commands read, without those that
	// scripts ran (ScriptCommands).
	Commands, ScriptCommands int64
	// StrayScriptCommands were run by a script whose EVAL or FCALL came
	// before the first line read; they are not checked.
	StrayScriptCommands int64
	// First and Last are the timestamps of the first and last commands, in
	// microseconds since the Unix epoch.
	First, Last int64
	Findings    []Finding
	Server      ServerStats
}

// Count returns the number of faults of a kind.
func (r *Report) Count(kind string) int64 {
	var n int64
	for _, f := range r.Findings {
		if f.Kind == kind {
			n += f.Count
		}
	}
	return n
}

// New returns an Analyzer.
func New(opt Options) *Analyzer {
	rules := opt.Rules
	if rules == nil {
		rules = slotlint.Builtin()
	}
	a := &Analyzer{
		opt: opt, rules: rules, subs: map[string]bool{}, info: map[string]*cmdInfo{},
		clients: map[string]*clientState{}, dbs: map[string]int{}, unseen: map[string]bool{},
		groups: map[groupKey]*group{},
	}
	for name := range rules.Commands {
		if parent, _, ok := strings.Cut(name, "|"); ok {
			a.subs[parent] = true
		}
	}
	return a
}

// maxInfo bounds the command names remembered.
const maxInfo = 10000

// lookup returns what is known of a command name.
func (a *Analyzer) lookup(name string) *cmdInfo {
	if in, ok := a.info[name]; ok {
		return in
	}
	lower := strings.ToLower(name)
	in := &cmdInfo{upper: strings.ToUpper(name), cmd: a.rules.Commands[lower], subs: a.subs[lower]}
	if c := in.cmd; c != nil {
		in.movable = slices.Contains(c.Flags, "movablekeys")
		for _, ks := range c.Keys {
			in.movable = in.movable || ks.Keyword != ""
		}
	}
	if len(a.info) < maxInfo {
		a.info[strings.Clone(name)] = in
	}
	return in
}

// keys returns the keys of argv; the slice is valid until the next call.
func (a *Analyzer) keys(in *cmdInfo, argv []string) []string {
	cmd := in.cmd
	if in.subs && len(argv) > 1 {
		cmd = a.rules.Command(argv[0], argv[1])
	}
	if in.movable && !in.seen {
		in.seen = true
		a.server.Movable = append(a.server.Movable, in.upper)
	}
	var spec []string
	if cmd != nil {
		pos, _ := cmd.KeyPositions(argv)
		spec = a.kbuf[:0]
		for _, p := range pos {
			spec = append(spec, argv[p])
		}
		a.kbuf = spec
	}
	if !a.ask(in, cmd) {
		return spec
	}
	a.server.Asked++
	got, err := a.opt.ServerKeys(argv)
	switch {
	case errors.Is(err, ErrStopAsking):
		a.server.Stopped = err.Error()
		return spec
	case err != nil && cmd == nil:
		in.noAsk = true // the server does not know it either
		return spec
	case err != nil:
		a.server.Failed++
		return spec
	case cmd == nil && len(got) == 0:
		in.noAsk = true
		return nil
	case cmd == nil:
		return got
	case slices.Equal(got, spec):
		in.agreed++
		return spec
	}
	a.server.Differed++
	in.differs = true
	return got
}

// ask reports whether to ask the server for the keys of a command: one
// whose keys move, until the server has agreed with the key specs
// trustAfter times (every time once it has disagreed), and one the rules
// do not know, until the server says it does not know it either or that
// it has no keys. The asking is bounded: 1000 commands, and one in a
// hundred after that.
func (a *Analyzer) ask(in *cmdInfo, cmd *ruleset.Command) bool {
	if a.opt.ServerKeys == nil || a.server.Stopped != "" || in.noAsk {
		return false
	}
	if cmd != nil && (!in.movable || (in.agreed >= trustAfter && !in.differs)) {
		return false
	}
	return a.server.Asked < 1000+a.commands/100
}

// Commands returns the number of commands read so far, without those
// that scripts ran.
func (a *Analyzer) Commands() int64 { return a.commands }

// Feed analyses one line; n is its line number in a capture, 0 if none.
// Lines come in the order the server wrote them.
func (a *Analyzer) Feed(l *Line, n int) {
	if len(l.Args) == 0 || (a.opt.Ignore != nil && a.opt.Ignore(l.Client)) {
		return
	}
	if a.first == 0 {
		a.first = l.Time
	}
	a.last = l.Time
	in := a.lookup(l.Args[0])
	if l.Lua() {
		a.lua(in, l, n)
		return
	}
	a.endScript()
	a.commands++
	name := in.upper
	a.trackDB(name, l, n)
	st := a.clients[l.Client]
	switch name {
	case "MULTI":
		if st = a.state(st, l.Client); st != nil {
			st.multi, st.keys, st.line = true, nil, n
		}
		return
	case "EXEC":
		if st != nil && st.multi {
			a.endTransaction(st, l, n)
		}
		a.forget(l.Client)
		return
	case "DISCARD", "RESET":
		a.forget(l.Client)
		return
	case "UNWATCH":
		if st != nil {
			st.watched = nil
			if !st.multi {
				delete(a.clients, l.Client)
			}
		}
		return
	}
	a.special(in.cmd, name, l.Args, l.Client, l.DB, n)
	keys := a.keys(in, l.Args)
	i, j, split := spans(keys)
	switch {
	case isScript(name):
		// Its KEYS are checked with what it touches, at its end.
		a.script = &scriptRun{name: name, client: strings.Clone(l.Client), line: n, db: l.DB, keys: cloneAll(keys)}
	case split:
		ki, kj := keys[i], keys[j]
		a.add(KindCrossSlot, name, l.Client, func() Example {
			c := keyspace.Colocate(keyspace.Lit(ki), keyspace.Lit(kj))
			return Example{
				Client: l.Client, Line: n, DB: l.DB,
				Keys:   []KeySlot{{ki, slot.Of(ki)}, {kj, slot.Of(kj)}},
				Reason: c.Reason,
			}
		}, keys, func() string { return hashtagFix(ki, kj) })
	}
	if split {
		return // a cluster refuses it: it joins no transaction
	}
	switch {
	case name == "WATCH":
		if st = a.state(st, l.Client); st != nil {
			st.watched = append(st.watched, cloneAll(keys)...)
		}
	case st != nil && st.multi:
		st.keys = append(st.keys, cloneAll(keys)...)
	}
}

func (a *Analyzer) forget(client string) { delete(a.clients, client) }

// maxClients bounds the clients followed in WATCH or MULTI at once: the
// state of a client that went away in between is never dropped.
const maxClients = 100000

// state returns st, or a new state for client when st is nil, or nil when
// maxClients are followed already.
func (a *Analyzer) state(st *clientState, client string) *clientState {
	if st != nil || len(a.clients) >= maxClients {
		return st
	}
	st = &clientState{}
	a.clients[strings.Clone(client)] = st
	return st
}

func isScript(name string) bool {
	switch name {
	case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO":
		return true
	}
	return false
}

// pair returns the first key and the first key in another slot.
func pair(slots []int) (int, int) {
	for j, s := range slots {
		if s != slots[0] {
			return 0, j
		}
	}
	return 0, 0
}

// spans reports whether keys span slots, with the first key and the
// first in another slot; it costs no allocation.
func spans(keys []string) (i, j int, ok bool) {
	if len(keys) < 2 {
		return 0, 0, false
	}
	first := slot.Of(keys[0])
	for j := 1; j < len(keys); j++ {
		if slot.Of(keys[j]) != first {
			return 0, j, true
		}
	}
	return 0, 0, false
}

func cloneAll(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.Clone(k)
	}
	return out
}

// hashtagFix suggests a common hashtag for two keys, with its varying
// parts shown as in patterns.
func hashtagFix(a, b string) string {
	return "give the keys a common hashtag such as " + showTag(keyspace.SuggestTag(litKeys(a, b)...))
}

// showTag quotes a suggested hashtag with its varying parts shown as in
// patterns, "{user:<n>}" for "{user:42}", unless nothing but varying
// parts would be left: "{7}" stays.
func showTag(tag string) string {
	g := Generalize(tag)
	if !strings.ContainsFunc(strings.NewReplacer("<n>", "", "<uuid>", "", "<hex>", "", "<id>", "").Replace(g), func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}) {
		g = tag
	}
	return strconv.Quote(g)
}

// endTransaction checks the keys of a transaction at its EXEC, with those
// its client WATCHed.
func (a *Analyzer) endTransaction(st *clientState, l *Line, n int) {
	all := append(append([]string(nil), st.watched...), st.keys...)
	slots, reason, _, split := crossslot.Split(all)
	if !split {
		return
	}
	i, j := pair(slots)
	for _, k := range []string{all[i], all[j]} {
		if slices.Contains(st.watched, k) {
			reason += "; " + strconv.Quote(k) + " was WATCHed"
		}
	}
	line := n
	if st.line > 0 {
		line = st.line
	}
	a.add(KindTransaction, "MULTI/EXEC", l.Client, func() Example {
		return Example{
			Client: l.Client, Line: line, DB: l.DB,
			Keys:   []KeySlot{{all[i], slots[i]}, {all[j], slots[j]}},
			Reason: reason,
		}
	}, all, func() string { return hashtagFix(all[i], all[j]) })
}

// lua follows a command run by a script.
func (a *Analyzer) lua(in *cmdInfo, l *Line, n int) {
	a.scriptCommands++
	run := a.script
	if run == nil {
		a.strayLua++
		return
	}
	a.special(in.cmd, in.upper, l.Args, run.client, l.DB, n)
	for _, k := range a.keys(in, l.Args) {
		if slices.Contains(run.keys, k) || len(run.undeclared) >= 8 || slices.ContainsFunc(run.undeclared, func(u undeclared) bool { return u.key == k }) {
			continue
		}
		run.undeclared = append(run.undeclared, undeclared{strings.Clone(k), in.upper})
	}
}

// endScript checks the script run that ends: its KEYS, and the keys its
// commands touched.
func (a *Analyzer) endScript() {
	run := a.script
	if run == nil {
		return
	}
	a.script = nil
	slots, reason, _, split := crossslot.Split(run.keys)
	if !split && len(run.undeclared) == 0 {
		return
	}
	all := slices.Clone(run.keys)
	var ex []KeySlot
	var why []string
	if split {
		i, j := pair(slots)
		ex = append(ex, KeySlot{run.keys[i], slots[i]}, KeySlot{run.keys[j], slots[j]})
		why = append(why, "its KEYS span slots: "+reason)
	} else if len(run.keys) > 0 {
		ex = append(ex, KeySlot{run.keys[0], slot.Of(run.keys[0])})
	}
	var und []string
	for _, u := range run.undeclared {
		all = append(all, u.key)
		s := slot.Of(u.key)
		if len(ex) < MaxExamples {
			ex = append(ex, KeySlot{u.key, s})
		}
		where := "with no KEYS"
		if len(run.keys) > 0 {
			where = "not in its KEYS"
			if s != slot.Of(run.keys[0]) {
				where += ", in another slot"
			}
		}
		und = append(und, fmt.Sprintf("%s %q (slot %d), %s", u.command, u.key, s, where))
	}
	if len(und) > 0 {
		why = append(why, "it touched "+strings.Join(und, "; "))
	}
	a.add(KindScript, run.name, run.client, func() Example {
		return Example{Client: run.client, Line: run.line, DB: run.db, Keys: ex, Reason: strings.Join(why, "; ")}
	}, all, func() string {
		tag := showTag(keyspace.SuggestTag(litKeys(all...)...))
		_, _, _, spans := crossslot.Split(all)
		switch {
		case len(run.undeclared) == 0:
			return "give the script's KEYS a common hashtag such as " + tag
		case spans:
			return "pass every key the script touches in KEYS, and give them a common hashtag such as " + tag
		}
		return "pass every key the script touches in KEYS"
	})
}

// litKeys returns keys as literal keyspace keys for SuggestTag, each cut
// to maxTagKey bytes: the suggestion compares the keys' segments, and a
// hashtag is seldom that far in.
func litKeys(keys ...string) []keyspace.Key {
	out := make([]keyspace.Key, len(keys))
	for i, k := range keys {
		out[i] = keyspace.Lit(k[:min(len(k), maxTagKey)])
	}
	return out
}

// maxTagKey bounds the bytes of a key that SuggestTag looks at.
const maxTagKey = 512

// trackDB notes the database of a client's command: one other than 0
// that no SELECT seen here chose was selected before the first line.
func (a *Analyzer) trackDB(name string, l *Line, n int) {
	prev := a.dbs[l.Client]
	if l.DB != prev && l.DB != 0 && name != "SELECT" && name != "SWAPDB" && !a.rules.ClusterHasDatabases() {
		k := l.Client + " " + strconv.Itoa(l.DB)
		if !a.unseen[k] && len(a.unseen) < 100000 {
			a.unseen[k] = true
			a.addPattern(KindMultiDB, "SELECT", "db "+strconv.Itoa(l.DB), l.Client, exampleOf(Example{
				Client: l.Client, Line: n, DB: l.DB,
				Reason: fmt.Sprintf("the client runs %s in database %d, which it selected before the first line read", name, l.DB),
			}), func() string { return multiDBFix })
		}
	}
	switch {
	case l.DB == prev:
	case l.DB == 0:
		delete(a.dbs, l.Client)
	case len(a.dbs) < 100000:
		a.dbs[strings.Clone(l.Client)] = l.DB
	}
}

const multiDBFix = "a cluster has database 0 only: keep the data in database 0, under a key prefix of its own instead of a database number"

// special checks what a cluster refuses, or runs on one node, whatever
// the slots of the keys: a database other than 0, found as the hooks find
// it (crossslot.Database) and silent under a target whose cluster has
// databases, and the commands that the commands table marks keyspace-wide
// (KEYS, SCAN, RANDOMKEY, FLUSHDB, ...). cmd is the command's entry in the
// table, or nil.
func (a *Analyzer) special(cmd *ruleset.Command, name string, argv []string, client string, db, n int) {
	ex := Example{Client: client, Line: n, DB: db}
	if to, ok := crossslot.Database(name, argv[1:]); ok && !a.rules.ClusterHasDatabases() {
		pat, fix := "db "+to, multiDBFix
		switch name {
		case "SELECT":
			ex.Reason = "SELECT " + to
		case "SWAPDB":
			ex.Reason = "SWAPDB " + argv[1] + " " + argv[2]
			pat = "db " + argv[1] + " and db " + argv[2]
		case "MOVE":
			ex.Keys = []KeySlot{{argv[1], slot.Of(argv[1])}}
			ex.Reason = fmt.Sprintf("MOVE %q to database %s", argv[1], to)
			pat = Pattern(a.rules, argv[1]) + " to db " + to
		case "COPY":
			ex.Keys = []KeySlot{{argv[1], slot.Of(argv[1])}, {argv[2], slot.Of(argv[2])}}
			ex.Reason = fmt.Sprintf("COPY %q to %q in database %s", argv[1], argv[2], to)
			pat = Pattern(a.rules, argv[1]) + " " + Pattern(a.rules, argv[2]) + " to db " + to
			fix = "copy within database 0 (a cluster has no other): COPY without DB, to a key in the source's slot"
		}
		a.addPattern(KindMultiDB, name, pat, client, exampleOf(ex), func() string { return fix })
	}
	if cmd == nil || !cmd.KeyspaceWide {
		return
	}
	pat := ""
	ex.Reason = name
	switch {
	case name == "KEYS" && len(argv) == 2:
		pat = Generalize(argv[1])
		ex.Reason = "KEYS " + strconv.Quote(argv[1])
	case name == "SCAN":
		match := "*"
		for i := 2; i+1 < len(argv); i++ {
			if strings.EqualFold(argv[i], "MATCH") {
				match = argv[i+1]
			}
		}
		pat = Generalize(match)
		ex.Reason = "SCAN MATCH " + strconv.Quote(match)
	}
	fix, ok := keyspaceFixes[name]
	if !ok {
		fix = "a cluster runs it on one node only: run it on every master (go-redis ForEachMaster, redis-cli --cluster call)"
	}
	a.addPattern(KindKeyspaceWide, name, pat, client, exampleOf(ex), func() string { return fix })
}

// keyspaceFixes are the fixes of the keyspace-wide commands that have one
// of their own; the others get the general one.
var keyspaceFixes = map[string]string{
	"KEYS":      "a cluster answers KEYS from one node: keep the keys in a set (with a hashtag) and read that, or SCAN every master",
	"SCAN":      "a cluster SCANs one node: SCAN every master (go-redis ForEachMaster, redis-cli --cluster call), or keep the keys in a set with a hashtag",
	"RANDOMKEY": "a cluster picks a key from one node: pick a node first, or keep the keys in a set and use SRANDMEMBER",
}

// add counts an occurrence in the group of its kind, command and the
// pattern of keys; fix is called once, for a new group.
func (a *Analyzer) add(kind, command, client string, ex func() Example, keys []string, fix func() string) {
	pats := make([]string, 0, len(keys))
	for _, k := range keys {
		p := Pattern(a.rules, k)
		if !slices.Contains(pats, p) {
			pats = append(pats, p)
		}
	}
	slices.Sort(pats)
	a.addPattern(kind, command, strings.Join(pats, " "), client, ex, fix)
}

// addPattern is add with the pattern given.
func (a *Analyzer) addPattern(kind, command, pattern, client string, example func() Example, fix func() string) {
	gk := groupKey{kind, command, pattern}
	g := a.groups[gk]
	if g == nil {
		g = &group{Finding: Finding{Kind: kind, Command: command, Pattern: pattern, Fix: fix()}, hosts: map[string]bool{}}
		a.groups[gk] = g
		a.order = append(a.order, g)
	}
	g.Count++
	if h := host(client); !g.hosts[h] && len(g.hosts) < 1000 {
		g.hosts[strings.Clone(h)] = true
	}
	if len(g.Examples) >= MaxExamples || g.tries >= maxTries {
		return
	}
	g.tries++
	ex := example()
	if !slices.ContainsFunc(g.Examples, func(e Example) bool { return slices.Equal(e.Keys, ex.Keys) && e.Reason == ex.Reason }) {
		ex.Client = strings.Clone(ex.Client)
		ex.Keys = slices.Clone(ex.Keys)
		for i := range ex.Keys {
			ex.Keys[i].Key = strings.Clone(ex.Keys[i].Key)
		}
		ex.Reason = strings.Clone(ex.Reason)
		g.Examples = append(g.Examples, ex)
	}
}

// host returns the host of a client address: "127.0.0.1" of
// "127.0.0.1:39144", "::1" of "[::1]:5000"; a unix socket's address as it
// is.
func host(client string) string {
	if strings.HasPrefix(client, "unix:") {
		return client
	}
	if i := strings.LastIndexByte(client, ':'); i > 0 {
		return strings.TrimSuffix(strings.TrimPrefix(client[:i], "["), "]")
	}
	return client
}

// Report ends the script run in progress and returns what was found, the
// findings in the order of Kinds, then by count, most first.
func (a *Analyzer) Report() *Report {
	a.endScript()
	r := &Report{
		Commands: a.commands, ScriptCommands: a.scriptCommands, StrayScriptCommands: a.strayLua,
		First: a.first, Last: a.last, Server: a.server,
	}
	r.Server.Movable = slices.Clone(a.server.Movable)
	slices.Sort(r.Server.Movable)
	r.Server.Movable = slices.Compact(r.Server.Movable)
	for _, g := range a.order {
		f := g.Finding
		f.Examples = slices.Clone(f.Examples)
		for h := range g.hosts {
			f.Clients = append(f.Clients, h)
		}
		slices.Sort(f.Clients)
		r.Findings = append(r.Findings, f)
	}
	slices.SortStableFunc(r.Findings, func(x, y Finding) int {
		return cmp.Or(
			cmp.Compare(slices.Index(Kinds, x.Kind), slices.Index(Kinds, y.Kind)),
			cmp.Compare(y.Count, x.Count),
			cmp.Compare(x.Command, y.Command),
			cmp.Compare(x.Pattern, y.Pattern),
		)
	})
	return r
}
