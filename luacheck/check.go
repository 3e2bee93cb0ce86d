package luacheck

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
	"github.com/yuin/gopher-lua/ast"
)

// Finding categories, the names of the checks in package checks that luacheck
// reports. Each is a check that rules.yaml can set to error, warning or off.
const (
	// CategorySyntax: the script does not parse as Lua.
	CategorySyntax = checks.LuaSyntax
	// CategoryUndeclaredKey: the script touches a key it was not given in KEYS.
	CategoryUndeclaredKey = checks.UndeclaredKey
	// CategoryUndeclaredKeySameSlot: the script touches a key it was not
	// given in KEYS, and the key keeps the slot of a key in KEYS: Redis
	// Cluster runs it, cluster proxies do not.
	CategoryUndeclaredKeySameSlot = checks.UndeclaredKeySameSlot
	// CategoryArity: KEYS and ARGV do not match what the script reads: a
	// KEYS[i] past the keys passed, keys passed and never read (but for a
	// key that only routes the call, see checker.routes), a key passed in
	// ARGV, a value passed in KEYS (checker.valuesInKeys).
	CategoryArity = checks.ScriptArity
	// CategoryFlags: the shebang has what Redis 7 rejects, or flags that do
	// not fit the script or the client.
	CategoryFlags = checks.ScriptFlags
	// CategoryCrossSlot: the keys passed in KEYS hash to different slots.
	CategoryCrossSlot = checks.CrossSlot
	// CategoryMaybeCrossSlot: nothing proves the keys passed in KEYS share a
	// slot.
	CategoryMaybeCrossSlot = checks.MaybeCrossSlot
	// CategoryKeyspaceWide: the script calls KEYS, SCAN or another
	// keyspace-wide command (the commands table's keyspace-wide) and a
	// cluster client runs it: it sees the keys of its node only.
	CategoryKeyspaceWide = checks.KeyspaceWide
)

// A Call is what the caller knows about one run of the script.
type Call struct {
	// Keys are the keys passed in KEYS, as far as they are known: literal
	// keys at run time, symbolic ones for the analyzer. Keys[i] is
	// KEYS[i+1]. nil Keys with KnownKeyCount false means nothing is known.
	Keys []keyspace.Key
	// KnownKeyCount is true when len(Keys) is the number of keys passed.
	KnownKeyCount bool
	// Args are the arguments passed in ARGV, as far as they are known.
	Args []keyspace.Key
	// KnownArgCount is true when len(Args) is the number of arguments passed.
	KnownArgCount bool
	// Cluster is true when the client may talk to a Redis Cluster: a
	// ClusterClient, a UniversalClient, a Ring and the like. Only the check
	// of flags=no-cluster and that of keyspace-wide commands depend on it:
	// every other check holds the script to what Redis Cluster needs,
	// whatever client runs it.
	Cluster bool
	// ReadOnly is true when the script runs with EVAL_RO or EVALSHA_RO.
	ReadOnly bool
}

// CommandsFrom returns the command lookup that Check takes, over a rule
// set's commands table.
func CommandsFrom(r *ruleset.Rules) func(name string) *ruleset.Command {
	return func(name string) *ruleset.Command { return r.Command(name) }
}

// A Finding is one problem of a script, or of a call of it.
type Finding struct {
	Category string // one of the Category constants
	// Line and Col are the 1-based position in the script (Col counts
	// bytes), or 0 when the finding is about the call rather than a place
	// in the script.
	Line, Col int
	// Message is the full text: "script NAME line L: ..." when the finding
	// has a position in the script, "script NAME: ..." otherwise. It is one
	// line that starts in lower case and has no trailing period.
	Message string
}

// Check checks the script for one call of it. cmds returns the key specs of
// a raw Redis command by its lower-case name ("set", "object|encoding"), or
// nil for a command it does not know; CommandsFrom makes one of a rule
// set. Commands cmds does not know, and all of them when cmds is nil, are
// not checked for undeclared keys nor for writes.
//
// The findings come sorted: those about the call first, then by position.
func (s *Script) Check(cmds func(name string) *ruleset.Command, call Call) []Finding {
	c := &checker{s: s, cmds: cmds, call: &call}
	return c.check(func() {
		for _, st := range s.sites {
			c.site(st)
		}
	})
}

// check runs the checks of one call, visiting the script's commands with
// sites.
func (c *checker) check(sites func()) []Finding {
	s := c.s
	c.flags()
	at := len(c.out)
	var values []int
	if s.Syntax != nil {
		c.add(CategorySyntax, s.Syntax.Line, s.Syntax.Col, "syntax error at column %d: %s", s.Syntax.Col, s.Syntax.Msg)
	} else {
		c.arity()
		sites()
		values = c.valuesInKeys()
	}
	// The keys' slots come right after the flags, though the values in
	// KEYS, which they leave out, are known only now.
	n := len(c.out)
	if c.crossSlot(values); len(c.out) > n {
		c.out = slices.Insert(c.out[:n], at, c.out[n])
	}
	c.sort()
	return c.out
}

// ValuesInKeys returns the indexes in call.Keys (0 for KEYS[1]) of the
// values passed in KEYS that Check reports (script-arity): the call's
// check of its keys' slots leaves them out, since the finding on each says
// to move it to ARGV.
func (s *Script) ValuesInKeys(cmds func(name string) *ruleset.Command, call Call) []int {
	if s.Syntax != nil {
		return nil
	}
	c := &checker{s: s, cmds: cmds, call: &call}
	for _, st := range s.sites {
		c.site(st)
	}
	return c.valuesInKeys()
}

// sort puts the findings about the call first, then the others by position.
func (c *checker) sort() {
	if len(c.out) < 2 {
		return
	}
	sort.SliceStable(c.out, func(i, j int) bool {
		a, b := c.out[i], c.out[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

type checker struct {
	s       *Script
	cmds    func(string) *ruleset.Command
	call    *Call
	out     []Finding
	seen    map[string]bool
	argUsed map[int]bool
	// keyUse and valueUse are how the script's commands take each
	// KEYS[i]: as a key (or in a way the analysis cannot tell), and as
	// an argument that is no key, at the first such command.
	keyUse   map[int]bool
	valueUse map[int]*site
}

func (c *checker) add(category string, line, col int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	noun := "script"
	if c.s.fn != nil {
		noun, msg = "function", c.s.fn.rename(msg)
	}
	if line > 0 {
		msg = fmt.Sprintf("%s %s line %d: %s", noun, c.s.Name, line, msg)
	} else {
		msg = fmt.Sprintf("%s %s: %s", noun, c.s.Name, msg)
		col = 0
	}
	k := category + "\x00" + msg
	if c.seen[k] {
		return
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[k] = true
	c.out = append(c.out, Finding{Category: category, Line: line, Col: col, Message: msg})
}

// flags reports what Redis 7 rejects in the shebang, and flags that do not
// fit the client.
func (c *checker) flags() {
	sh := c.s.Shebang
	if sh == nil {
		return
	}
	if c.s.fn != nil {
		c.functionFlags()
		return
	}
	if c.call.ReadOnly && !sh.NoWrites() {
		c.add(CategoryFlags, sh.Line, 1, "the script runs with EVAL_RO, but its shebang lacks flags=no-writes, so Redis 7 refuses it (\"Can not execute a script with write flag using *_ro command\"); add no-writes to its flags, or run it with EVAL")
	}
	for _, p := range c.s.shebangProblems {
		c.add(CategoryFlags, sh.Line, p.col, "%s", p.msg)
	}
	if sh.NoCluster() && c.call.Cluster {
		c.add(CategoryFlags, sh.Line, sh.flagCol(FlagNoCluster),
			"flags=no-cluster makes Redis 7 refuse the script on a cluster (\"Can not run script on cluster, 'no-cluster' flag is set\"), and a cluster client runs it; drop the flag")
	}
}

// crossSlot checks that the keys passed in KEYS share a slot, but for the
// values passed in KEYS (their indexes in call.Keys).
func (c *checker) crossSlot(values []int) {
	keys, index := c.call.Keys, []int(nil)
	if len(values) > 0 {
		keys = nil
		for i, k := range c.call.Keys {
			if !slices.Contains(values, i) {
				keys, index = append(keys, k), append(index, i)
			}
		}
	}
	if len(keys) < 2 || sameSlotLiterals(keys) {
		return
	}
	col := keyspace.Colocate(keys...)
	if col.Verdict == keyspace.Same {
		return
	}
	if index != nil {
		col.Pair = [2]int{index[col.Pair[0]], index[col.Pair[1]]}
	}
	note := ""
	if c.s.Shebang.AllowCrossSlot() {
		note = " (" + c.flagName(FlagAllowCrossSlotKeys) + " does not change that)"
	}
	a, b := col.Pair[0]+1, col.Pair[1]+1
	if col.Verdict == keyspace.Different {
		c.add(CategoryCrossSlot, 0, 0, "KEYS[%d] and KEYS[%d] must share a slot, but %s, so Redis Cluster fails the call with CROSSSLOT%s; %s", a, b, col.Reason, note, col.Fix)
		return
	}
	c.add(CategoryMaybeCrossSlot, 0, 0, "KEYS[%d] and KEYS[%d] must share a slot, but %s, and Redis Cluster fails the call with CROSSSLOT if they do%s; %s", a, b, col.Reason, note, col.Fix)
}

// sameSlotLiterals reports whether the keys are all literal, not empty, and
// in one slot: Colocate's verdict is then Same, found without its work.
func sameSlotLiterals(keys []keyspace.Key) bool {
	first := -1
	for _, k := range keys {
		if len(k.Parts) != 1 || k.Parts[0].Unknown || k.Parts[0].Lit == "" {
			return false
		}
		n := slot.Of(k.Parts[0].Lit)
		if first >= 0 && n != first {
			return false
		}
		first = n
	}
	return true
}

// arity compares the KEYS the script reads with the keys the call passes.
func (c *checker) arity() {
	if !c.call.KnownKeyCount {
		return
	}
	n := len(c.call.Keys)
	if !c.s.keysLen {
		var reported map[int]bool
		for _, r := range c.s.keyReads {
			if r.idx <= n || r.guarded || reported[r.idx] {
				continue
			}
			if reported == nil {
				reported = map[int]bool{}
			}
			reported[r.idx] = true
			c.add(CategoryArity, r.line, r.col, "KEYS[%d] is nil: the call passes %s; pass the key in KEYS", r.idx, countKeys(n))
		}
	}
	if c.s.keysWhole || n == 0 {
		return
	}
	var unused []string
	for i := 1; i <= n; i++ {
		if !c.s.keysRead[i] && !c.routes(i) {
			unused = append(unused, c.keysLabel(i))
		}
	}
	if len(unused) == 0 {
		return
	}
	them := "it"
	if len(unused) > 1 {
		them = "them"
	}
	c.add(CategoryArity, 0, 0, "the call passes %s but the script never reads %s; drop %s from the call or use %s", countKeys(n), joinAnd(unused), them, them)
}

// keysLabel names KEYS[i] in a message, with the key the call passes
// there when it is known: KEYS[2] ("emq:{q}:active").
func (c *checker) keysLabel(i int) string {
	if i >= 1 && i <= len(c.call.Keys) {
		return fmt.Sprintf("KEYS[%d] (%s)", i, c.call.Keys[i-1].Quote())
	}
	return fmt.Sprintf("KEYS[%d]", i)
}

// routes reports whether KEYS[i], which the script does not read, is a
// key the caller passes to route the call: a key the script reads with a
// suffix appended, as centrifuge's idempotentRouteKey is the result key
// and ".route". Such a key is in the slot of the key it extends whenever
// that one has a hashtag; a second key that does not exist makes a node
// importing the slot answer TRYAGAIN rather than run the script while the
// slot migrates.
func (c *checker) routes(i int) bool {
	k := c.call.Keys[i-1]
	for j, r := range c.call.Keys {
		if j != i-1 && c.s.keysRead[j+1] && extends(k, r) {
			return true
		}
	}
	return false
}

// extends reports whether key k is key r followed by a separator and more
// text (".route", ":lock"): r's parts, the same unknowns and literal text,
// then a separator that no letter or digit of r's last part runs into.
func extends(k, r keyspace.Key) bool {
	if len(r.Parts) == 0 || len(k.Parts) < len(r.Parts) {
		return false
	}
	last := len(r.Parts) - 1
	var rest string // what k has past r's text, in the part that holds it
	for i, p := range r.Parts {
		q := k.Parts[i]
		switch {
		case p.Unknown != q.Unknown:
			return false
		case p.Unknown && (p.ID == "" || p.ID != q.ID):
			return false
		case !p.Unknown && i < last && p.Lit != q.Lit:
			return false
		case !p.Unknown && i == last:
			if !strings.HasPrefix(q.Lit, p.Lit) {
				return false
			}
			rest = q.Lit[len(p.Lit):]
		}
	}
	if rest == "" && len(k.Parts) > len(r.Parts) && !k.Parts[len(r.Parts)].Unknown {
		rest = k.Parts[len(r.Parts)].Lit
	}
	return rest != "" && strings.ContainsRune(".:-_|/#", rune(rest[0]))
}

func countKeys(n int) string {
	switch n {
	case 0:
		return "no keys"
	case 1:
		return "1 key"
	}
	return strconv.Itoa(n) + " keys"
}

// A slot is one argument of a command call in the script.
type argSlot struct {
	vals   vset
	expr   ast.Expr // the argument as written; for a spread, the spread
	spread bool
}

func (c *checker) site(st *site) {
	names := st.commandNames()
	if len(names) < len(st.cmd) {
		c.note(st, usesOf(st, nil, nil)) // a command the script computes
	}
	for _, name := range names {
		cmd := c.lookup(name, st)
		if cmd == nil {
			c.note(st, usesOf(st, nil, nil))
			continue
		}
		switch {
		case !cmd.IsWrite():
		case c.s.Shebang.NoWrites() && c.s.fn != nil:
			c.add(CategoryFlags, st.line, st.col, "%s writes, but the function is registered with the flag no-writes, so Redis 7 fails it (\"Write commands are not allowed from read-only scripts\"); drop no-writes or the write", st.text)
		case c.s.Shebang.NoWrites():
			c.add(CategoryFlags, st.line, st.col, "%s writes, but the shebang has flags=no-writes, so Redis 7 fails it (\"Write commands are not allowed from read-only scripts\"); drop no-writes or the write", st.text)
		case c.call.ReadOnly && c.s.Shebang == nil:
			c.add(CategoryFlags, st.line, st.col, "%s writes, but the script runs with EVAL_RO, so Redis 7 fails it (\"Write commands are not allowed from read-only scripts\"); run it with EVAL or drop the write", st.text)
		}
		if cmd.KeyspaceWide && c.call.Cluster {
			verb := "reads"
			if cmd.IsWrite() {
				verb = "changes"
			}
			c.add(CategoryKeyspaceWide, st.line, st.col, "%s %s the keys of one node: on a cluster the script runs on the node of its KEYS and sees only that node's keys, with no error; keep the keys it needs in a set under the hashtag of its KEYS and pass the set in KEYS, or run %s on every master from the client", st.text, verb, strings.ToUpper(name))
		}
		slots := c.expand(st)
		argv := make([]string, len(slots)+1)
		argv[0] = name
		for i, sl := range slots {
			argv[i+1] = c.literal(sl.vals)
		}
		pos, ok := cmd.KeyPositions(argv)
		for _, p := range pos {
			if p >= 1 && p <= len(slots) {
				c.key(st, slots[p-1])
			}
		}
		if _, known := c.tailCount(st); !ok || !known || isPubSub(cmd) {
			slots = nil
		}
		c.note(st, usesOf(st, slots, pos))
	}
}

// keyUses are how one command of a script takes the KEYS[i] among its
// arguments: keys as a key (0 for a KEYS[i] whose i is not a constant, or
// for any the command may take as a key), values as an argument that is no
// key.
type keyUses struct{ keys, values []int }

// usesOf returns how the command of a site takes the KEYS[i] among its
// arguments: as a key at the positions pos, as an argument that is no key
// elsewhere. nil slots stand for a command whose keys are not known: it
// may take any KEYS[i] of the site as a key.
func usesOf(st *site, slots []argSlot, pos []int) keyUses {
	var u keyUses
	all := slots
	if all == nil {
		for _, v := range st.args {
			all = append(all, argSlot{vals: v})
		}
		if st.tail != nil {
			all = append(all, argSlot{vals: st.tail.asElems()})
		}
	}
	for i, sl := range all {
		isKey := slots == nil || slices.Contains(pos, i+1)
		for _, v := range sl.vals {
			switch {
			case v.kind == kKey && v.idx > 0 && !isKey:
				u.values = append(u.values, v.idx)
			case v.kind == kKey:
				u.keys = append(u.keys, v.idx)
			default:
				// KEYS[i] in a key built of it, or a value made of it:
				// the undeclared-key check speaks of those.
				u.keys = append(u.keys, keysIn(v)...)
			}
		}
	}
	return u
}

// isPubSub reports whether the command is one of publish/subscribe: a
// channel that a script is given in KEYS is put in the slot of the keys on
// purpose (Redisson's locks publish on a channel under the lock's
// hashtag), and is taken as a key.
func isPubSub(cmd *ruleset.Command) bool {
	return slices.Contains(cmd.Flags, "pubsub")
}

// note keeps the uses of a site's command for valuesInKeys.
func (c *checker) note(st *site, u keyUses) {
	if c.keyUse == nil {
		c.keyUse, c.valueUse = map[int]bool{}, map[int]*site{}
	}
	for _, i := range u.keys {
		c.keyUse[i] = true
	}
	for _, i := range u.values {
		if c.valueUse[i] == nil {
			c.valueUse[i] = st
		}
	}
}

// keysIn returns the i of the KEYS[i] that a value is made of.
func keysIn(v *value) []int {
	var out []int
	var walk func(v *value, depth int)
	walk = func(v *value, depth int) {
		if depth > 8 {
			return
		}
		switch v.kind {
		case kKey:
			out = append(out, v.idx)
		case kConcat:
			for _, p := range v.parts {
				walk(p, depth+1)
			}
		case kDerived:
			for _, p := range v.from {
				walk(p, depth+1)
			}
		}
	}
	walk(v, 0)
	return out
}

// valuesInKeys reports a KEYS[i] that no command takes as a key, which a
// command takes as an argument or tonumber reads: the caller passes a
// value in KEYS (a time, a count), and on Redis Cluster every element of
// KEYS must hash to the slot of the others. A value that is the only
// element of KEYS routes the call and harms nothing; keys the call passes
// that share a slot anyway are left alone. It returns the indexes in
// call.Keys (0 for KEYS[1]) of the values it reports.
func (c *checker) valuesInKeys() []int {
	if c.s.keysWhole || c.keyUse[0] {
		return nil
	}
	if len(c.call.Keys) >= 2 && keyspace.Colocate(c.call.Keys...).Verdict == keyspace.Same {
		return nil
	}
	others := func(i int) bool {
		if len(c.call.Keys) >= 2 {
			return true
		}
		for j := range c.keyUse {
			if j != i {
				return true
			}
		}
		return false
	}
	// One finding for each place, naming every KEYS[i] it reads so.
	type place struct {
		line, col int
		text      string
		num       bool
	}
	var order []place
	at := map[place][]int{}
	note := func(p place, i int) {
		if c.keyUse[i] || !others(i) || slices.ContainsFunc(order, func(q place) bool { return slices.Contains(at[q], i) }) {
			return
		}
		if at[p] == nil {
			order = append(order, p)
		}
		at[p] = append(at[p], i)
	}
	for _, r := range c.s.numReads {
		note(place{r.line, r.col, r.text, true}, r.idx)
	}
	for _, i := range slices.Sorted(maps.Keys(c.valueUse)) {
		st := c.valueUse[i]
		note(place{st.line, st.col, st.text, false}, i)
	}
	var values []int
	for _, p := range order {
		idx := at[p]
		for _, i := range idx {
			if i >= 1 && i <= len(c.call.Keys) {
				values = append(values, i-1)
			}
		}
		var names []string
		for j, i := range idx {
			if j == 3 && len(idx) > 4 {
				names = append(names, fmt.Sprintf("%d more", len(idx)-3))
				break
			}
			names = append(names, c.keysLabel(i))
		}
		// One KEYS[i] or several: "is ... a value ... it", "are ...
		// values ... them".
		is, read, arg, key, value, it := "is", "a number", "an argument", "it as a key", "a value", "it"
		if len(idx) > 1 {
			is, read, arg, key, value, it = "are", "numbers", "arguments", "them as keys", "values", "them"
		}
		use := fmt.Sprintf("%s %s of %s, and no command takes %s", is, arg, p.text, key)
		if p.num {
			use = fmt.Sprintf("%s read as %s by %s", is, read, p.text)
		}
		c.add(CategoryArity, p.line, p.col, "%s %s: the caller passes %s in KEYS, which on Redis Cluster must hash to the slot of the other keys; pass %s in ARGV", joinAnd(names), use, value, it)
	}
	return values
}

// lookup finds the command's key specs, a subcommand's first.
func (c *checker) lookup(name string, st *site) *ruleset.Command {
	if c.cmds == nil {
		return nil
	}
	if len(st.args) > 0 && len(st.args[0]) == 1 && st.args[0][0].kind == kLit {
		if cmd := c.cmds(name + "|" + strings.ToLower(st.args[0][0].text)); cmd != nil {
			return cmd
		}
	}
	return c.cmds(name)
}

// expand lists a site's arguments after the command name, a spread of KEYS
// or ARGV expanded to as many elements as the call passes.
func (c *checker) expand(st *site) []argSlot {
	slots := make([]argSlot, 0, len(st.args)+1)
	for i, v := range st.args {
		sl := argSlot{vals: v}
		if i < len(st.argExprs) {
			sl.expr = st.argExprs[i]
		}
		slots = append(slots, sl)
	}
	if st.tail == nil {
		return slots
	}
	var expr ast.Expr
	if len(st.argExprs) > 0 {
		expr = st.argExprs[len(st.argExprs)-1]
	}
	n, known := c.tailCount(st)
	for i := 0; i < n; i++ {
		vals := st.tail.elem(i)
		if st.tail.from != nil && !known {
			vals = st.tail.asElems()
		}
		slots = append(slots, argSlot{vals: vals, expr: expr, spread: true})
	}
	return slots
}

// tailCount returns how many arguments the spread that ends a site's
// arguments stands for, and whether the call tells: a spread of KEYS or
// ARGV whose count the call gives. Otherwise it stands for one argument,
// with the values of all. A site that ends in no spread has none.
func (c *checker) tailCount(st *site) (n int, known bool) {
	switch {
	case st.tail == nil:
		return 0, true
	case st.tail.from == keysTableValue && c.call.KnownKeyCount:
		return max(len(c.call.Keys)-st.tail.start+1, 0), true
	case st.tail.from == argvTableValue && c.call.KnownArgCount:
		return max(len(c.call.Args)-st.tail.start+1, 0), true
	}
	return 1, false
}

// literal returns an argument's text when the call fixes it, else "".
func (c *checker) literal(vals vset) string {
	if len(vals) != 1 || !vals[0].stringish() {
		return ""
	}
	s, ok := keyOf(vals[0], c.call).Literal()
	if !ok {
		return ""
	}
	return s
}

// declared is a key the script was given, with its name in messages.
type declared struct {
	label string
	key   keyspace.Key
}

// declaredKeys returns the keys that an undeclared key is compared with:
// the keys the call passes, or else the KEYS[i] the script reads.
func (c *checker) declaredKeys() []declared {
	var out []declared
	if len(c.call.Keys) > 0 {
		for i, k := range c.call.Keys {
			out = append(out, declared{fmt.Sprintf("KEYS[%d]", i+1), k})
		}
		return out
	}
	if c.call.KnownKeyCount {
		return nil
	}
	seen := map[int]bool{}
	var idx []int
	for _, r := range c.s.keyReads {
		if r.idx > 0 && !seen[r.idx] {
			seen[r.idx] = true
			idx = append(idx, r.idx)
		}
	}
	sort.Ints(idx)
	for _, i := range idx {
		out = append(out, declared{fmt.Sprintf("KEYS[%d]", i), keyOf(keyValue(i), c.call)})
	}
	if len(out) == 0 && c.s.keysWhole {
		out = append(out, declared{"KEYS", keyOf(keyValue(0), c.call)})
	}
	return out
}

// key checks one key argument of a command call.
//
// The empty string among other values of an argument is not taken for a
// key: scripts use the empty string for "no key" (a KEYS element the
// caller leaves empty, a variable set to it when a key is off) and test for
// it before they touch the key; where the test is of a flag set under it,
// the analysis, which narrows a variable only by tests of the variable
// itself (see refine), still sees it. An argument that can only be "" is
// reported: the script then does touch the key "", which is in slot 0.
func (c *checker) key(st *site, sl argSlot) {
	var bad []*value
	for _, v := range sl.vals {
		if v.kind == kLit && v.text == "" && len(sl.vals) > 1 {
			continue
		}
		if v.kind != kKey && v.stringish() {
			bad = append(bad, v)
		}
	}
	if len(bad) == 0 {
		return
	}
	v := bad[0]
	from := origin(v)
	if v.kind == kOpaque {
		from += "; its value is not traced to KEYS"
	}
	switch {
	case sl.spread && sl.expr != nil:
		from = render(sl.expr) + " passes " + from
	case isIdent(sl.expr) && len(sl.vals) > 1:
		from = render(sl.expr) + " may hold " + from
	case isIdent(sl.expr):
		from = render(sl.expr) + " holds " + from
	case len(sl.vals) > 1:
		from += ", among other values"
	}
	fix := "pass it in KEYS"
	switch {
	case v.kind == kArg:
		fix = "pass it in KEYS, not in ARGV"
	case v.fromRedis():
		fix = "pass it in KEYS (read it in an earlier call if need be)"
	case v.kind == kConcat && v.hasKey():
		fix = "pass the whole key in KEYS"
	}
	verdict, same := c.verdict(v)
	cat := CategoryUndeclaredKey
	if same {
		cat = CategoryUndeclaredKeySameSlot
	}
	c.add(cat, st.line, st.col, "%s touches a key not declared in KEYS: %s; %s; %s", st.text, from, verdict, fix)
	for _, v := range bad {
		if v.kind == kArg {
			c.argvKey(st, v)
		}
	}
}

func isIdent(e ast.Expr) bool {
	_, ok := e.(*ast.IdentExpr)
	return ok
}

// verdict says whether an undeclared key shares the slot of the declared
// keys, and what Redis 7 makes of it; same is true when the key keeps the
// slot of a declared key.
func (c *checker) verdict(v *value) (msg string, same bool) {
	decl := c.declaredKeys()
	if len(decl) == 0 {
		if c.call.KnownKeyCount {
			return "the call passes no keys, so a cluster client sends the script to any node: it is wrong on Redis Cluster too", false
		}
		return "the script reads no KEYS, so nothing ties the key to the node that runs the script: it is wrong on Redis Cluster too", false
	}
	// A key built from KEYS[i] with a variable i is as good as the worst
	// of the keys the call passes.
	worst := keyspace.Verdict(-1)
	var wv *value
	var wk keyspace.Key
	var wd declared
	for _, x := range c.variants(v) {
		k := keyOf(x, c.call)
		verdict, d := compare(k, decl)
		if verdict > worst {
			worst, wv, wk, wd = verdict, x, k, d
		}
	}
	works := "so it works on Redis Cluster but breaks cluster proxies and the rule that every key is declared"
	switch worst {
	case keyspace.Same:
		if s := wd.key.Subject(); s.Kind == keyspace.SubjectTag {
			return fmt.Sprintf("it keeps the hashtag %s of %s, %s", tagText(s), wd.label, works), true
		}
		return fmt.Sprintf("it is in the slot of %s, %s", wd.label, works), true
	case keyspace.Different:
		return fmt.Sprintf("it is wrong on Redis Cluster too (%s vs %s of %s): %s", subjectText(wk), subjectText(wd.key), wd.label, c.crossSlotRule(false)), false
	}
	if wv.kind == kConcat && wv.parts[0].kind == kKey && wv.parts[0].idx > 0 {
		if keyOf(wv.parts[0], c.call).Subject().Kind == keyspace.SubjectUnknown {
			first := exprOf(wv.parts[0])
			return fmt.Sprintf("it stays in the slot of %s only if %s has a hashtag: %s", first, first, c.crossSlotRule(true)), false
		}
	}
	why := ""
	if wk.Subject().Kind != keyspace.SubjectUnknown || wd.key.Subject().Kind != keyspace.SubjectUnknown {
		why = fmt.Sprintf(" (%s vs %s of %s)", subjectText(wk), subjectText(wd.key), wd.label)
	}
	return fmt.Sprintf("it may be in another slot than %s%s, which is wrong on Redis Cluster too: %s", wd.label, why, c.crossSlotRule(true)), false
}

// compare returns the best verdict of a key against the declared keys, and
// the declared key it is about.
func compare(k keyspace.Key, decl []declared) (keyspace.Verdict, declared) {
	best := keyspace.Different + 1
	var bestD declared
	for _, d := range decl {
		if col := keyspace.Colocate(d.key, k); col.Verdict < best {
			best, bestD = col.Verdict, d
		}
		if best == keyspace.Same {
			break
		}
	}
	return best, bestD
}

// maxVariants bounds the keys passed that a KEYS[i] with a variable i is
// tried with.
const maxVariants = 64

// variants returns the value with each KEYS[i] of a variable i replaced by
// each of the keys the call passes, when the call tells them.
func (c *checker) variants(v *value) []*value {
	n := len(c.call.Keys)
	if !c.call.KnownKeyCount || n == 0 || n > maxVariants || !hasAnyKey(v) {
		return []*value{v}
	}
	out := make([]*value, n)
	for i := range out {
		out[i] = substituteKey(v, i+1)
	}
	return out
}

func hasAnyKey(v *value) bool {
	switch v.kind {
	case kKey:
		return v.idx == 0
	case kConcat:
		for _, p := range v.parts {
			if hasAnyKey(p) {
				return true
			}
		}
	}
	return false
}

func substituteKey(v *value, idx int) *value {
	switch v.kind {
	case kKey:
		if v.idx == 0 {
			return keyValue(idx)
		}
	case kConcat:
		parts := make([]*value, len(v.parts))
		for i, p := range v.parts {
			parts[i] = substituteKey(p, idx)
		}
		return concatValue(parts...)
	}
	return v
}

// crossSlotRule says what Redis 7 does with a script that touches a key in
// another slot than its declared keys.
func (c *checker) crossSlotRule(maybe bool) string {
	sh := c.s.Shebang
	switch {
	case c.s.fn != nil && !sh.AllowCrossSlot():
		if maybe {
			return "Redis 7 fails the function if it does, unless it is registered with the flag allow-cross-slot-keys"
		}
		return "Redis 7 fails the function on it, unless it is registered with the flag allow-cross-slot-keys"
	case c.s.fn != nil:
		return "the flag allow-cross-slot-keys lets Redis 7 run it only while both slots are on one node"
	case sh != nil && !sh.AllowCrossSlot():
		if maybe {
			return "with its shebang, Redis 7 fails the script if it does"
		}
		return "with its shebang, Redis 7 fails the script on it"
	case sh != nil:
		return "flags=allow-cross-slot-keys lets Redis 7 run it only while both slots are on one node"
	}
	return "without a shebang, Redis 7 runs it only while both slots are on one node"
}

func tagText(s keyspace.Subject) string {
	return strconv.Quote("{" + keyspace.Key{Parts: s.Parts}.String() + "}")
}

// subjectText says what decides a key's slot: "slot 1234", "hashtag
// "{orders}"", "no hashtag", "unknown hashtag".
func subjectText(k keyspace.Key) string {
	s := k.Subject()
	switch s.Kind {
	case keyspace.SubjectTag:
		return "hashtag " + tagText(s)
	case keyspace.SubjectWhole:
		if n, ok := s.Slot(); ok {
			return "slot " + strconv.Itoa(n)
		}
		return "no hashtag"
	}
	return "unknown hashtag"
}

// argvKey reports an ARGV element used as a key: the caller passes a key in
// ARGV.
func (c *checker) argvKey(st *site, v *value) {
	if c.argUsed == nil {
		c.argUsed = map[int]bool{}
	}
	if c.argUsed[v.idx] {
		return
	}
	c.argUsed[v.idx] = true
	if v.idx == 0 {
		c.add(CategoryArity, st.line, st.col, "an element of ARGV is used as a key by %s, so the caller passes keys in ARGV; pass them in KEYS", st.text)
		return
	}
	what := exprOf(v)
	if v.idx <= len(c.call.Args) {
		what += " (" + c.call.Args[v.idx-1].Quote() + ")"
	}
	c.add(CategoryArity, st.line, st.col, "%s is used as a key by %s, so the caller passes a key in ARGV; pass it in KEYS", what, st.text)
}
