package analyzer

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/keyspace"
	"golang.org/x/tools/go/analysis"
)

// The cross-slot family reads the key-flow model of each call: the
// colocation verdict over its keys (cross-slot, maybe-cross-slot) and the
// SORT patterns without a hashtag (cross-slot). A transaction's keys are those of every command it
// queues or runs: the watched keys of Watch, the commands its function
// sends through the *redis.Tx, and those it queues in TxPipelined or a
// TxPipeline. All must share one slot; go-redis before 9.11 split a
// cross-slot MULTI/EXEC into one transaction per slot, silently giving up
// atomicity, and newer versions fail at run time. A plain pipeline is not
// a transaction: its commands may go to any slots, and only each
// multi-key command in it is checked.
//
// What is reported is the engine's sound verdict read with two rules
// (reported): an empty string beside other values of one key is a
// placeholder, not a key, and maybe-cross-slot needs some literal text in
// both keys, since a key that is only an unknown value gives no evidence of
// its slot, unless the other key is constant text with no hashtag, whose
// slot only a key with that very text as its hashtag shares
// (literalBeside).

// crossSlot returns the cross-slot and maybe-cross-slot findings of one
// call.
func (c *checker) crossSlot(site *keyflow.Site) []diag {
	var out []diag
	if len(site.SortRefused) > 0 {
		out = append(out, sortDiag(site))
	}
	if d, ok := c.keysDiag(site); ok {
		out = append(out, d)
	} else if site.CallerKeys != nil {
		// One finding on the keys: a verdict on them says more.
		out = append(out, c.callerKeysDiag(site))
	}
	return out
}

// callerKeysDiag is the finding on a function that other modules call,
// which sends its callers' keys in one command (keyflow.Site.CallerKeys).
func (c *checker) callerKeysDiag(site *keyflow.Site) diag {
	var keys []string
	for _, v := range site.CallerKeys {
		if q := v.Key.Quote(); !slices.Contains(keys, q) {
			keys = append(keys, q)
		}
	}
	return diag{
		pos:      site.Call.Pos(),
		end:      site.Call.End(),
		category: checks.CallerKeys,
		message:  fmt.Sprintf("%s of the callers' keys %s: callers in other modules are not checked, and nothing here keeps the keys in one slot; have the callers pass keys with one hashtag (and say so in the doc), or send one command per slot", site.Name, strings.Join(keys, " and ")),
	}
}

// sortDiag is the finding on a SORT whose BY or GET options Redis
// Cluster refuses.
func sortDiag(site *keyflow.Site) diag {
	var opts []string
	for _, o := range site.SortRefused {
		opts = append(opts, o.Option+" "+o.Pattern.Key.Quote())
	}
	return diag{
		pos:      site.Call.Pos(),
		end:      site.Call.End(),
		category: checks.CrossSlot,
		message:  fmt.Sprintf("%s with %s fails on Redis Cluster: in cluster mode Redis 7.0 refuses GET, and BY with a '*' pattern, whatever their hashtag; sort in the client and read each element's fields with its own command", site.Command, strings.Join(opts, ", ")),
	}
}

// keysDiag is the finding on keys of one command, transaction or script
// that may not share a slot. Keys that are in doubt only because of the
// function's parameters are carried to its callers instead.
func (c *checker) keysDiag(site *keyflow.Site) (diag, bool) {
	if site.Chosen == nil || site.Col.Verdict == keyspace.Same || site.Carried || site.SplitAlone {
		return diag{}, false
	}
	keys := site.AllKeys()
	if values := c.valuesInKeys(site); values != nil {
		var rest []keyflow.Group
		for i, g := range keys {
			if !slices.Contains(values, i) {
				rest = append(rest, g)
			}
		}
		keys = rest
	}
	col, chosen := reported(keys, readRules{
		tagged:  c.flow.TaggedPrefix,
		objects: c.objects(site.Command),
		apart:   c.keysApart(site),
	})
	if col.Verdict == keyspace.Same {
		return diag{}, false
	}
	call := site.Call
	a, b := chosen[col.Pair[0]], chosen[col.Pair[1]]
	if col.Verdict == keyspace.Maybe && keyflow.Unique(a.Key) != keyflow.Unique(b.Key) {
		// A key in a slot of its own, a temporary one: a hashtag made of
		// its own value would not be the other keys'.
		u := a
		if keyflow.Unique(b.Key) {
			u = b
		}
		col.Fix = fmt.Sprintf("no other key is in the slot of %s, which has no hashtag and is named after a value of its own; give the other keys one hashtag and build it under that hashtag", u.Key.Quote())
	}
	if fix, ok := replyFix(a.Key, b.Key); ok && col.Verdict == keyspace.Maybe {
		col.Fix = fix
	}
	d := diag{
		pos:      call.Pos(),
		end:      call.End(),
		category: categoryOf(col.Verdict),
		message:  fmt.Sprintf("%s %s; %s", site.Name, reason(col, a.Key, b.Key), col.Fix),
	}
	for i, k := range []keyflow.Value{a, b} {
		if i == 1 && k.Pos == a.Pos && k.Key.Quote() == a.Key.Quote() {
			break // one key built in a loop, two of its values: one note
		}
		if k.Pos.IsValid() && (k.Pos < call.Pos() || k.Pos >= call.End()) {
			d.related = append(d.related, analysis.RelatedInformation{Pos: k.Pos, Message: fmt.Sprintf("key %s is built here", k.Key.Quote())})
		}
	}
	return d, true
}

// replyFix is the fix for keys of which one or both are wholly members of
// a reply (the keys an index set lists, read back): a hashtag made of the
// reply would not be theirs, which are whatever the code stored.
func replyFix(a, b keyspace.Key) (string, bool) {
	bare := keyflow.ReadBack
	switch {
	case bare(a) && bare(b):
		return "no common hashtag proves they share one; they are keys read from Redis, each what the code stored: write such keys under one hashtag, or send one command per key", true
	case bare(a):
		return fmt.Sprintf("no common hashtag proves they share one; %s is a key read from Redis, what the code stored: write such keys under one hashtag with the others, such as %q", a.Quote(), keyspace.SuggestTag(b)), true
	case bare(b):
		return fmt.Sprintf("no common hashtag proves they share one; %s is a key read from Redis, what the code stored: write such keys under one hashtag with the others, such as %q", b.Quote(), keyspace.SuggestTag(a)), true
	}
	return "", false
}

// oneAtEachCall keeps one finding of each check at each call: a call of a
// helper that sends the same command on two paths (COPY with REPLACE in
// one branch, without in the other; DEL and its retry) has one site per
// path. The others become related information of the one kept.
func oneAtEachCall(ds []diag) []diag {
	type at struct {
		pos      token.Pos
		category string
	}
	first := map[at]int{}
	var out []diag
	for _, d := range ds {
		k := at{d.pos, d.category}
		i, dup := first[k]
		if !dup {
			first[k] = len(out)
			out = append(out, d)
			continue
		}
		if d.message != out[i].message {
			msg, _, _ := strings.Cut(d.message, "; ")
			out[i].related = append(out[i].related, analysis.RelatedInformation{Pos: d.pos, Message: "also " + msg})
		}
	}
	return out
}

// reported is the verdict that keysDiag reports over a site's key groups,
// the engine's verdict (keyflow.Colocate, which is sound) read with two
// rules that keep guesses out of the findings:
//
//   - An empty string among other values of one key is a placeholder, not
//     a key: the zero value of a variable that some path leaves unset, or
//     a reset to "" (if skip { k = "" }), which code passes where a script
//     checks for it (if KEYS[3] ~= "") or a cluster branch replaces it by a
//     key in the right slot. Such "" values are left out; a key whose only
//     value is "" stays.
//   - Keys that may differ (maybe-cross-slot) are reported only when both
//     have some literal text, or are all literal as "" is. A key that is
//     nothing but an unknown value (a parameter's field, a call slotlint
//     cannot follow) shows nothing of its slot: a warning about it would
//     be a guess. Keys that a listing command's reply holds (SCAN, KEYS,
//     the members of an index set: keyflow.Listed) are the exception:
//     they are different keys the server holds, which may span slots
//     whatever their text. So are keys of one template with no literal
//     text, one value joined to others (keyflow.Prefixed): s.ns + code
//     and s.ns + refresh are two keys of the namespace, as "ns:" + code
//     and "ns:" + refresh are. So is a key that is one named value when
//     another key is made from that value with text (keyflow.Derived): k
//     and k + "_version_set" share a slot only if k holds a hashtag,
//     k and "channel:{" + k + "}" only if it holds none. So is the same
//     field of two values (keyflow.Sibling): h.key and g.key of two
//     sketches merged by one script are each one's own key. So is a
//     number (keyflow.Number): its text has no hashtag.
//     A command whose keys are different objects by its nature (keys of
//     two key specs: the source and destination of RENAME, SMOVE or
//     LMOVE, the destination and sources of SUNIONSTORE, BITOP or
//     PFMERGE: rules.objects) is the other exception: two different
//     values that the code names there (parameters, fields, variables;
//     not the results of calls slotlint does not follow) are two keys,
//     whatever their text. So are the keys of a script that reads each
//     of them apart, by a constant index (KEYS[1] a queue, KEYS[2] its
//     ack set: checker.keysApart), when none has literal text: two
//     fields a caller sets, q.Name and q.AckName, are two keys.
//   - A key in a slot of its own (keyflow.Unique: no hashtag, and named
//     after a value equal to nothing else, the time a temporary key is
//     made) is reported beside any other key, whatever that one shows:
//     no other key is in its slot.
//   - Keys that are all under one configured prefix (a field or a
//     setting, keyflow.UnderOnePrefix) are not reported in a package
//     that builds its key prefixes with a hashtag (rules.tagged): the
//     prefix it is configured with is taken to be one of those, whose
//     hashtag puts every key under it in one slot.
//
// Keys that provably differ (cross-slot) are reported whatever they are
// built from.
func reported(groups []keyflow.Group, rules readRules) (keyspace.Colocation, []keyflow.Value) {
	groups = keyflow.WithoutPlaceholders(groups)
	if len(groups) < 2 {
		return keyspace.Colocation{Verdict: keyspace.Same}, nil
	}
	col, chosen := keyflow.Colocate(groups)
	if col.Verdict != keyspace.Maybe {
		return col, chosen
	}
	if keyflow.UnderOnePrefix(groups) && rules.tagged() {
		return keyspace.Colocation{Verdict: keyspace.Same}, nil
	}
	if rules.objects && named(groups) || rules.apart && named(groups) && !shaped(groups) {
		return col, chosen
	}
	var shaped []keyflow.Group
	for _, g := range groups {
		var alts keyflow.Group
		for _, v := range g {
			if keyflow.HasShape(v.Key) || keyflow.Listed(v.Key) || keyflow.Prefixed(v.Key) || keyflow.Derived(v.Key, groups) || keyflow.Sibling(v.Key, groups) || keyflow.Number(v.Key) {
				alts = append(alts, v)
			}
		}
		if len(alts) > 0 {
			shaped = append(shaped, alts)
		}
	}
	if len(shaped) < 2 {
		if col, chosen := uniqueBeside(groups); col.Verdict != keyspace.Same {
			return col, chosen
		}
		return literalBeside(groups)
	}
	return keyflow.Colocate(shaped)
}

// literalBeside is the verdict on a constant key with no hashtag beside
// keys that are named values: such a key's slot is that of its whole
// text, which another key shares only by a hashtag of that very text, so
// the value, whatever it holds, is in another slot.
func literalBeside(groups []keyflow.Group) (keyspace.Colocation, []keyflow.Value) {
	for i, g := range groups {
		if !wholeLiterals(g) {
			continue
		}
		for j, other := range groups {
			if j == i || !named([]keyflow.Group{other}) {
				continue
			}
			if col, chosen := keyflow.Colocate([]keyflow.Group{g, other}); col.Verdict != keyspace.Same {
				return col, chosen
			}
		}
	}
	return keyspace.Colocation{Verdict: keyspace.Same}, nil
}

// uniqueBeside is the verdict on a key in a slot of its own
// (keyflow.Unique) beside keys that show nothing of theirs: whatever they
// are, they are other keys, in other slots.
func uniqueBeside(groups []keyflow.Group) (keyspace.Colocation, []keyflow.Value) {
	for i, g := range groups {
		if !g.Unique() {
			continue
		}
		for j, other := range groups {
			if j == i {
				continue
			}
			pair := []keyflow.Group{g, other}
			if col, chosen := keyflow.Colocate(pair); col.Verdict != keyspace.Same {
				return col, chosen
			}
		}
	}
	return keyspace.Colocation{Verdict: keyspace.Same}, nil
}

// wholeLiterals reports whether each of a group's keys is constant text
// with no hashtag.
func wholeLiterals(g keyflow.Group) bool {
	g = g.WithoutPlaceholders()
	return len(g) > 0 && !slices.ContainsFunc(g, func(v keyflow.Value) bool {
		return !v.Key.IsLiteral() || v.Key.Subject().Kind != keyspace.SubjectWhole
	})
}

// readRules are what reported reads a verdict with, besides the keys.
type readRules struct {
	// tagged reports whether the package builds its key prefixes with a
	// hashtag (keyflow.Engine.TaggedPrefix), asked only when it matters.
	tagged func() bool
	// objects is true for a command whose keys are different objects by
	// its nature (checker.objects).
	objects bool
	// apart is true for a script that reads each of its keys apart
	// (checker.keysApart).
	apart bool
}

// objects reports whether the keys of a command are different objects by
// its nature: the command table gives it two key specs or more, a source
// and a destination (RENAME, COPY, SMOVE, LMOVE, RPOPLPUSH) or a
// destination and sources (SUNIONSTORE, ZINTERSTORE, BITOP, PFMERGE).
// MGET, DEL, MSET and scripts have one, whose keys may be one object
// passed twice or keys of one family.
func (c *checker) objects(command string) bool {
	if command == "" {
		return false
	}
	cmd := c.rules.Command(strings.ToLower(command))
	return cmd != nil && len(cmd.Keys) >= 2
}

// keysApart reports whether a script's keys are different objects by the
// script's own reading: it reads two KEYS or more, each by a constant
// index (KEYS[1] a queue, KEYS[2] its ack set), never as a whole (a loop
// over KEYS, unpack(KEYS), #KEYS), where keys of one family would be.
func (c *checker) keysApart(site *keyflow.Site) bool {
	run := site.Script
	if run == nil || run.Function != "" {
		return false
	}
	for _, ref := range append([]keyflow.ScriptRef{run.Ref}, run.Alts...) {
		if n, ok := c.parse(ref).MaxKeyIndex(); !ok || n < 2 {
			return false
		}
	}
	return true
}

// named reports whether every key of the groups is named
// (keyflow.Named): a value with no identity is the result of a call
// slotlint does not follow, which may well build a hashtag.
func named(groups []keyflow.Group) bool {
	for _, g := range groups {
		for _, v := range g {
			if !keyflow.Named(v.Key) {
				return false
			}
		}
	}
	return true
}

// shaped reports whether a key of the groups has literal text.
func shaped(groups []keyflow.Group) bool {
	for _, g := range groups {
		for _, v := range g {
			if keyflow.HasShape(v.Key) {
				return true
			}
		}
	}
	return false
}

// reason is the colocation's reason, worded for two keys that look the same
// because a loop built them from different values.
func reason(col keyspace.Colocation, a, b keyspace.Key) string {
	if a.String() != b.String() {
		return col.Reason
	}
	verb := "may hash to different slots"
	if col.Verdict == keyspace.Different {
		verb = "hash to different slots"
	}
	return fmt.Sprintf("keys built as %s from different values %s", a.Quote(), verb)
}

func categoryOf(v keyspace.Verdict) string {
	if v == keyspace.Different {
		return checks.CrossSlot
	}
	return checks.MaybeCrossSlot
}
