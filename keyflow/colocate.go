package keyflow

import (
	"go/token"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// A Group is one key argument: its possible values.
type Group []Value

// WithoutPlaceholders returns the group without the empty strings that
// stand beside other values: code passes "" for a key it does not use (the
// zero value of a variable some path leaves unset, a reset to "" that a
// script tests for, a placeholder a cluster branch replaces). A group whose
// only value is "" is returned whole: that key is really "".
func (g Group) WithoutPlaceholders() Group {
	var keep Group
	for _, v := range g {
		if s, ok := v.Key.Literal(); !ok || s != "" {
			keep = append(keep, v)
		}
	}
	if len(keep) == 0 {
		return g
	}
	return keep
}

// WithoutPlaceholders leaves out of each group the empty strings that
// stand beside other values.
func WithoutPlaceholders(groups []Group) []Group {
	out := make([]Group, len(groups))
	for i, g := range groups {
		out[i] = g.WithoutPlaceholders()
	}
	return out
}

// maxCombos bounds the combinations of alternatives that Colocate tries.
const maxCombos = 64

// combos calls yield with each combination of one alternative from each
// list, odometer style, the first list turning fastest, until yield
// returns false or limit combinations were made. An empty list takes no
// part: its place in the combination holds the zero value. It is the one
// cartesian expansion of the package: keys concatenated from alternatives,
// templates applied to them, summaries' parameters put in place, and the
// colocation verdict over a command's keys all go through it.
func combos[T any](lists [][]T, limit int, yield func([]T) bool) {
	idx := make([]int, len(lists))
	for n := 0; n < limit; n++ {
		combo := make([]T, len(lists))
		for i, l := range lists {
			if len(l) > 0 {
				combo[i] = l[idx[i]]
			}
		}
		if !yield(combo) {
			return
		}
		i := 0
		for ; i < len(lists); i++ {
			idx[i]++
			if idx[i] < len(lists[i]) {
				break
			}
			idx[i] = 0
		}
		if i == len(lists) {
			return
		}
	}
}

// count is the number of combinations of lists, empty lists counting once,
// or limit+1 when there are more than limit.
func count[T any](lists [][]T, limit int) int {
	n := 1
	for _, l := range lists {
		n *= max(len(l), 1)
		if n > limit {
			return limit + 1
		}
	}
	return n
}

// Colocate gives the verdict on groups of alternatives: the worst over
// their combinations (at most 64 are tried) that one run may send, and the
// combination that has it. Keys built from different values of one
// variable (a configured prefix in one, its default in the other) are not
// a combination any run sends.
func Colocate(groups []Group) (keyspace.Colocation, []Value) {
	var worst keyspace.Colocation
	var worstKeys []Value
	lists := make([][]Value, len(groups))
	limit, tried := maxCombos, 0
	for i, g := range groups {
		lists[i] = g
		for _, v := range g {
			if len(v.Key.Choices) > 0 {
				// Most combinations of keys built from choices are
				// not consistent: look further for those that are.
				limit = maxCombos * maxCombos
			}
		}
	}
	combos(lists, limit, func(chosen []Value) bool {
		keys := keysOf(chosen)
		if !keyspace.Consistent(keys...) {
			return true
		}
		if tried++; tried > maxCombos {
			return false
		}
		col := keyspace.Colocate(keys...)
		if worstKeys == nil || col.Verdict > worst.Verdict {
			worst, worstKeys = col, chosen
		}
		return worst.Verdict != keyspace.Different
	})
	if worstKeys == nil {
		// Past the combinations tried, or none consistent: the first.
		combos(lists, 1, func(chosen []Value) bool {
			worst, worstKeys = keyspace.Colocate(keysOf(chosen)...), chosen
			return false
		})
	}
	return worst, worstKeys
}

// sameGroup reports whether two groups are the same alternatives, each
// built at the same place, or each built of the same values the code
// names: rds.KeyPeriodicPolicy(ns) called twice is "<ns>:period:policies"
// or "<ns>period:policies" as ns ends in ':' or not, the same one both
// times. Alternatives that are only literal text, built at two places,
// may be chosen apart.
func sameGroup(a, b Group) bool {
	if len(a) != len(b) || len(a) < 2 {
		return false
	}
	for i := range a {
		if !a[i].Key.Equal(b[i].Key) || a[i].Pos != b[i].Pos && (a[i].Key.IsLiteral() || !Named(a[i].Key)) {
			return false
		}
	}
	return true
}

// Named reports whether every unknown part of a key is a value with an
// identity of its own (a parameter, a field, a variable), not the result
// of a call slotlint does not follow.
func Named(k keyspace.Key) bool {
	for _, p := range k.Parts {
		if p.Unknown && p.ID == "" {
			return false
		}
	}
	return true
}

// sharedChoices is k, one of two equal keys built from other choices,
// built from the choices both share only: either may stand for it.
func sharedChoices(k, other keyspace.Key) keyspace.Key {
	var cs []keyspace.Choice
	for _, c := range k.Choices {
		if slices.ContainsFunc(other.Choices, func(o keyspace.Choice) bool { return o.ID() == c.ID() && o.Alt == c.Alt }) {
			cs = append(cs, c)
		}
	}
	k.Choices = cs
	return k
}

// concatAlts is every a followed by every b, built at pos, but for those
// built of different values of one variable.
func concatAlts(a, b []Value, pos token.Pos) []Value {
	out := make([]Value, 0, len(a)*len(b))
	combos([][]Value{b, a}, len(a)*len(b), func(c []Value) bool {
		if keyspace.Consistent(c[1].Key, c[0].Key) {
			out = append(out, Value{keyspace.Concat(c[1].Key, c[0].Key), pos})
		}
		return true
	})
	return out
}

// HasShape reports whether a key holds some literal text, or is all
// literal (the empty key "" is, and hashes to slot 0). A key that is only
// an unknown value shows nothing of its slot: maybe-cross-slot is reported
// only between keys that have a shape.
func HasShape(k keyspace.Key) bool {
	if k.IsLiteral() {
		return true
	}
	for _, p := range k.Parts {
		if !p.Unknown && p.Lit != "" {
			return true
		}
	}
	return false
}

// Unique reports whether a key is in a slot that no other key is known to
// share: it has literal text and no hashtag (no '{' in its text, and no
// unknown of it that may hold one: numbers), and one of its values is
// equal to nothing else: the result of a call that slotlint does not
// follow, with no identity but that of the variable it is assigned to,
// such as the time a temporary key is named after ("dist_users:tmp:" +
// time.Now().UnixNano()). Its slot is that of its own text, which no
// other key has.
func Unique(k keyspace.Key) bool {
	if !HasShape(k) {
		return false
	}
	fresh := false
	for _, p := range k.Parts {
		switch {
		case !p.Unknown:
			if strings.ContainsRune(p.Lit, '{') {
				return false
			}
		case !p.NoBraces && !p.NoOpen:
			return false
		case (p.ID == "" || anonID(p.ID)) && strings.Contains(p.Name, "("):
			// The result of a call slotlint does not follow, made here.
			fresh = true
		}
	}
	return fresh
}

// Unique reports whether every value of the group, placeholders aside, is
// a key in a slot of its own (Unique), and it has one.
func (g Group) Unique() bool {
	g = g.WithoutPlaceholders()
	return len(g) > 0 && !slices.ContainsFunc(g, func(v Value) bool { return !Unique(v.Key) })
}

// anonID reports whether id is the identity that a value equal to nothing
// else takes from the variable it is assigned to ("tmpKey@356#0":
// evaluator.identify): a value the function computes from something it
// does not follow.
func anonID(id string) bool {
	name, rest, ok := strings.Cut(id, "@")
	if !ok || name == "" || strings.ContainsAny(name, ".$:[]()^") {
		return false
	}
	pos, n, ok := strings.Cut(rest, "#")
	return ok && allDigits(pos) && allDigits(n)
}

// Prefixed reports whether a key with no literal text is one value
// followed by others: a namespace, a prefix or a field that the code
// names (an unknown with an identity of its own, not a piece of a value
// the function computes, "v@pos#n"), joined to an id, as s.ns + code.
// Two such keys of one prefix are keys of one template, whose varying
// part may put them in different slots.
func Prefixed(k keyspace.Key) bool {
	if len(k.Parts) < 2 || !k.Parts[0].Unknown {
		return false
	}
	id := k.Parts[0].ID
	return id != "" && !isParamID(id) && !strings.Contains(id, "@")
}

// Derived reports whether a key that is nothing but one named value (a
// field, a variable, a local value the function reads from a call it does
// not follow) is also part of another key of the groups, the value with
// text around it: d.recordType and d.recordType + "_version_set" are a key
// and one made from it, two keys that share a slot only when the value
// holds a hashtag, as are a request's user id and userID + "-" + topic;
// m.Name and "redisson_lock__channel:{" + m.Name + "}" share one only when
// it holds none, which a name the callers give may. A local value beside a
// key whose hashtag it is, key and "{" + key + "}.foo", is not reported:
// code that wraps its own value in braces takes it to hold none.
func Derived(k keyspace.Key, groups []Group) bool {
	if len(k.Parts) != 1 || !k.Parts[0].Unknown || k.Parts[0].ID == "" {
		return false
	}
	for _, g := range groups {
		for _, v := range g {
			p := v.Key.Parts
			if len(p) < 2 || !HasShape(v.Key) || !slices.ContainsFunc(p, func(q keyspace.Part) bool { return (keyspace.Key{Parts: []keyspace.Part{q}}).Equal(k) }) {
				continue
			}
			if s := v.Key.Subject(); strings.Contains(k.Parts[0].ID, "@") && s.Kind == keyspace.SubjectTag && (keyspace.Key{Parts: s.Parts}).Equal(k) {
				// "{" + key + "}.foo" beside key, a value the function
				// reads itself: the value is the other key's hashtag, the
				// slot of the value itself unless it holds a brace, which
				// code that wraps it in braces does not expect. A name
				// the callers give may hold one (a user's "lock:{u1}").
				continue
			}
			return true
		}
	}
	return false
}

// Sibling reports whether a key that is nothing but a field of a value
// (h.key, "$recv.key") is the same field of another value in another key
// of the groups (g.key, "$1.key"): one field of two objects, each
// object's own key, as two sketches' keys merged by one script are. They
// share a slot only when the field's values carry one hashtag; a field
// whose writes show their text is read as that text, not as the field.
// The field of one value at two turns of a loop (v.Key, v.Key') is the
// callers' elements' field, which caller-keys reports.
func Sibling(k keyspace.Key, groups []Group) bool {
	base, path, ok := fieldOfValue(k)
	if !ok {
		return false
	}
	for _, g := range groups {
		for _, v := range g {
			if b, p, ok := fieldOfValue(v.Key); ok && p == path && b != base {
				return true
			}
		}
	}
	return false
}

// fieldOfValue splits a key that is one unknown, a field of a value that
// the code names (its identity "$recv.key", "$1.key"), into the value and
// the field's path.
func fieldOfValue(k keyspace.Key) (base, path string, ok bool) {
	base, path, ok = strings.Cut(unknownID(k), ".")
	if !ok || base == "" || path == "" || strings.ContainsAny(base, "@:#()'") || strings.ContainsAny(path, "$@:#()'") {
		return "", "", false
	}
	return base, path, true
}

// Number reports whether a key is one number (an unknown value of a
// numeric type, sent as its decimal text): a key of no hashtag, in the
// slot of its own text, as the rank passed as a second key of a DEL is.
func Number(k keyspace.Key) bool {
	return len(k.Parts) == 1 && k.Parts[0].Unknown && k.Parts[0].NoBraces
}
