// Package keyspace is slotlint's model of Redis keys: key templates and the
// builder, and symbolic keys, whose parts may be unknown, with the colocation
// verdict that says whether keys share a slot. It imports no YAML parser:
// the rules file's schema and loader are package ruleset.
//
// The analyzer feeds it keys recovered from Go code, and the runtime checker
// feeds it concrete keys; both get their answers from Colocate.
package keyspace

import (
	"slices"
	"strconv"
	"strings"
)

// A Key is a key as far as it is known: literal text and unknown values, in
// order. The zero Key is the empty key.
type Key struct {
	Parts []Part
	// Choices are the alternatives the key was built from, sorted by Of:
	// a key built from a variable set on two branches holds the choice of
	// one of them, and keys that hold different choices of one variable
	// are never sent together.
	Choices []Choice
}

// A Choice names one of the values a variable may hold: in one run it
// holds one of them, and every key built from it in that run is built
// from that one.
type Choice struct {
	Of string // the variable's identity
	// In are the identities of the values the choice is made on (a
	// function's parameters): the same variable chooses alike for the
	// same values.
	In  []string
	Alt int // which of its values
}

// ID is the identity of the choice made: the variable and its values.
func (c Choice) ID() string {
	if len(c.In) == 0 {
		return c.Of
	}
	return c.Of + "(" + strings.Join(c.In, ",") + ")"
}

// Choosing returns k built from the alternatives cs as well.
func (k Key) Choosing(cs ...Choice) Key {
	for _, c := range cs {
		i, found := slices.BinarySearchFunc(k.Choices, c.ID(), func(x Choice, id string) int { return strings.Compare(x.ID(), id) })
		if !found {
			k.Choices = slices.Insert(slices.Clip(k.Choices), i, c)
		}
	}
	return k
}

// Consistent reports whether keys may be built in one run: no two of
// them hold different choices of one variable.
func Consistent(keys ...Key) bool {
	var seen map[string]int
	for _, k := range keys {
		for _, c := range k.Choices {
			id := c.ID()
			if alt, ok := seen[id]; ok && alt != c.Alt {
				return false
			}
			if seen == nil {
				seen = map[string]int{}
			}
			seen[id] = c.Alt
		}
	}
	return true
}

// A Part is literal text, or an unknown value.
type Part struct {
	Lit string // the text, when !Unknown

	Unknown bool
	// ID is an unknown's identity: two unknowns with the same non-empty ID
	// hold the same value. An unknown with an empty ID equals nothing.
	ID string
	// Name shows the unknown in messages, as <Name>.
	Name string
	// NoBraces is true when the value cannot contain '{' or '}': a number,
	// say. NoOpen says it holds no '{', NoClose no '}': Build sees to
	// these for a template's values, by where they stand.
	NoBraces, NoOpen, NoClose bool
	// Braced is true when the value holds a '{' (the code checked so,
	// strings.Contains(name, "{")): taken, as slotlint takes of every
	// value, to close it, so the value's own hashtag decides the slot of a
	// key in which nothing before it opens a brace.
	Braced bool
}

// mayOpen reports whether the part is an unknown that may hold a '{'.
func (p Part) mayOpen() bool { return p.Unknown && !p.NoBraces && !p.NoOpen }

// mayClose reports whether the part is an unknown that may hold a '}'.
func (p Part) mayClose() bool { return p.Unknown && !p.NoBraces && !p.NoClose }

// Lit returns the key made of the literal text s.
func Lit(s string) Key {
	if s == "" {
		return Key{}
	}
	return Key{Parts: []Part{{Lit: s}}}
}

// Unknown returns a key that is one unknown value with identity id (""
// for a value equal to nothing else) shown as <name>.
func Unknown(id, name string, noBraces bool) Key {
	return Key{Parts: []Part{{Unknown: true, ID: id, Name: name, NoBraces: noBraces}}}
}

// Concat returns the concatenation of keys, built from the choices of
// each.
func Concat(keys ...Key) Key {
	var out Key
	for _, x := range keys {
		for _, p := range x.Parts {
			out.Parts = appendPart(out.Parts, p)
		}
		out = out.Choosing(x.Choices...)
	}
	return out
}

// Append returns k followed by x. Adjacent literal parts are merged, so equal
// keys have equal parts.
func (k Key) Append(x Key) Key {
	parts := make([]Part, len(k.Parts), len(k.Parts)+len(x.Parts))
	copy(parts, k.Parts)
	for _, p := range x.Parts {
		parts = appendPart(parts, p)
	}
	return Key{Parts: parts, Choices: k.Choices}.Choosing(x.Choices...)
}

// appendPart appends p to parts, which the caller owns, merging it into the
// last part when both are literal text and dropping it when it is empty
// literal text.
func appendPart(parts []Part, p Part) []Part {
	if !p.Unknown {
		if p.Lit == "" {
			return parts
		}
		if n := len(parts); n > 0 && !parts[n-1].Unknown {
			parts[n-1].Lit += p.Lit
			return parts
		}
	}
	return append(parts, p)
}

// Literal returns the key's text when every part is known.
func (k Key) Literal() (string, bool) {
	switch len(k.Parts) {
	case 0:
		return "", true
	case 1:
		return k.Parts[0].Lit, !k.Parts[0].Unknown
	}
	return "", false
}

// IsLiteral reports whether every part of the key is known.
func (k Key) IsLiteral() bool {
	_, ok := k.Literal()
	return ok
}

// String shows the key with its unknowns as <name>: emq:{<queue>}:pending.
func (k Key) String() string {
	var b strings.Builder
	for _, p := range k.Parts {
		if p.Unknown {
			b.WriteString("<" + p.display() + ">")
		} else {
			b.WriteString(p.Lit)
		}
	}
	return b.String()
}

// Quote shows the key for messages: a literal key quoted as Go would, a
// symbolic one with its unknowns as <name>, also in quotes.
func (k Key) Quote() string {
	if s, ok := k.Literal(); ok {
		return strconv.Quote(s)
	}
	return strconv.Quote(k.String())
}

func (p Part) display() string {
	if p.Name != "" {
		return p.Name
	}
	return "?"
}

// Equal reports whether two keys are provably the same text: the same
// literals and the same identified unknowns, in the same order.
func (k Key) Equal(x Key) bool {
	return partsEqual(k.Parts, x.Parts)
}

func partsEqual(a, b []Part) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Unknown != b[i].Unknown {
			return false
		}
		if a[i].Unknown {
			if a[i].ID == "" || a[i].ID != b[i].ID {
				return false
			}
		} else if a[i].Lit != b[i].Lit {
			return false
		}
	}
	return true
}
