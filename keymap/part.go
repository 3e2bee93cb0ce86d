package keymap

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// A Part is one package's share of the map: the key families its Redis
// calls build and the calls that use several keys together. The Analyzer
// exports it as a package fact, so a driver that runs the Analyzer over a
// program finds the parts of every package, dependencies included, and
// Build joins them into one map: a family built in one package and used
// in another is one family.
type Part struct {
	Path   string // the package's import path
	Module string // its module's path, "" when unknown
	// Families are the families the package's calls build, keyed by ID.
	Families []*PartFamily
	// Uses are its calls, transactions and scripts with two keys or more.
	Uses []*Use
	// Unknown counts the keys of its calls whose text is all unknown.
	Unknown int
}

func (*Part) AFact() {}

func (p *Part) String() string {
	ids := make([]string, len(p.Families))
	for i, f := range p.Families {
		ids[i] = strconv.Quote(f.ID)
	}
	return "keymap(" + strings.Join(ids, ", ") + "; " + strconv.Itoa(len(p.Uses)) + " uses)"
}

// A PartFamily is a family as one package sees it.
type PartFamily struct {
	// ID is the family's template in the rules grammar, or, for a key
	// that no template can write, "key:" and the key as slotlint shows it.
	ID string
	// Name is the Go name that builds it (a helper, a template variable,
	// a constant), or "".
	Name string
	// Origin says what builds it: "helper keys.UserCache", "template
	// keys.Job", "constant keys.Queues", or "" for an expression.
	Origin string
	// Rank orders origins, best first when larger: 3 a keyspace template,
	// 2 a helper, 1 a named constant, 0 an expression.
	Rank int
	// Literal is true when every key of the family is constant text.
	Literal  bool
	Commands []Command
	// Sites are where its keys are built, file:line, with the key as it
	// is known there.
	Sites []BuiltAt
}

// A BuiltAt is one place a family's key is built.
type BuiltAt struct {
	Where string // file:line, the file's full path
	Key   string // the key as slotlint shows it: "user:<uid>:cache"
	Slot  int    // its slot, -1 when the key's text decides it and is unknown
}

// A Command is a command that touches a family's keys.
type Command struct {
	Name        string // upper case, "HSET", "XGROUP CREATE"
	Read, Write bool
}

// A Use is one command, transaction or script with several keys: which
// families it joins and whether their keys share a slot there.
type Use struct {
	Kind  string // "command", "transaction" or "script"
	Call  string // "RENAME", "WATCH transaction", "EVALSHA"
	Where string // file:line
	Pairs []Pair
	// Open is true when some keys of the call are not in sight.
	Open bool
}

// A Pair is two families used together, with the verdict on their keys at
// one use: keyspace.Same, Maybe or Different. A and B are IDs; A == B for
// two keys of one family.
type Pair struct {
	A, B    string
	Verdict keyspace.Verdict
}

// templateOf writes a key in the rules' template grammar, its unknowns as
// placeholders named after what they stand for. It fails for keys that no
// template can write: bytes the grammar refuses, braces that are not one
// hashtag section, a key with no literal text.
func templateOf(k keyspace.Key) (string, bool) {
	var b strings.Builder
	used := map[string]bool{}
	lit := false
	for _, p := range k.Parts {
		if !p.Unknown {
			lit = true
			b.WriteString(p.Lit)
			continue
		}
		name := placeholder(p.Name)
		base := name
		for i := 2; used[name]; i++ {
			name = base + strconv.Itoa(i)
		}
		used[name] = true
		b.WriteString("<" + name + ">")
	}
	if !lit {
		return "", false
	}
	text := b.String()
	if _, err := keyspace.ParseTemplate(text); err != nil {
		return "", false
	}
	return text, true
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// placeholder names an unknown after the Go expression it shows: the first
// identifier that is neither a package nor a function called, so that
// "q.name" is <name>, "strconv.Itoa(order)" <order>, "ids[i]" <ids>.
func placeholder(expr string) string {
	locs := identRE.FindAllStringIndex(expr, -1)
	for i, l := range locs {
		next := byte(0)
		if l[1] < len(expr) {
			next = expr[l[1]]
		}
		if (next == '.' || next == '(') && i < len(locs)-1 {
			continue
		}
		name := expr[l[0]:l[1]]
		if strings.HasPrefix(expr[max(l[0]-1, 0):], "$") {
			return "arg" + name
		}
		return name
	}
	if strings.HasPrefix(expr, "$") && len(expr) > 1 {
		return "arg" + identRE.FindString(expr[1:]+"x")
	}
	return "v"
}

// shape is a template with its placeholders' names left out: two
// templates of one shape build the same keys.
func shape(id string) string {
	if strings.HasPrefix(id, "key:") {
		return id
	}
	return placeholderRE.ReplaceAllString(id, "<>")
}

var placeholderRE = regexp.MustCompile(`<[^<>]*>`)
