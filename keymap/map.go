// Package keymap defines an Analyzer that maps the keyspace a Go program
// builds, and the map itself: the key families that the program's Redis
// calls build, the commands, transactions and scripts that use families
// together (edges, with the verdict on whether their keys share a slot),
// and the colocation groups that follow, families that must share a slot.
//
// The Analyzer reads each package's model from package keyflow and
// exports the package's part of the map as a package fact; Build joins
// the parts of a program into one Map, and the writers print it as text,
// JSON, a rules file that slotlint and slotcheck load as it is, Mermaid
// or DOT.
package keymap

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// A Map is the keyspace map of a program.
type Map struct {
	Families []*Family `json:"families"`
	Edges    []*Edge   `json:"edges"`
	Groups   []*Group  `json:"groups"`
	// UnknownKeys counts the keys of calls whose text is all unknown:
	// they are in no family.
	UnknownKeys int `json:"unknown_keys"`
}

// A Family is one key family the program builds.
type Family struct {
	Name string `json:"name"`
	// Template is the family's template in the rules grammar; "" when no
	// template can write its keys (Key shows them).
	Template string `json:"template,omitempty"`
	Key      string `json:"key"`
	// Hashtag is the template's hashtag section, "{<queue>}", or "none",
	// or "unknown" when a value decides it.
	Hashtag string `json:"hashtag"`
	// Slot is the family's slot when all its keys hash to one, or nil.
	Slot *int `json:"slot,omitempty"`
	// Origin is what builds it: "template keys.Job", "helper
	// keys.UserCache", "constant keys.Queues", "rules" for a family the
	// rules name; "" for an expression.
	Origin   string    `json:"origin,omitempty"`
	Commands []Command `json:"commands"`
	// Types are the data types its commands work on: "hash", "list", ...
	Types []string  `json:"types"`
	Sites []BuiltAt `json:"sites"`

	shape string
	rank  int
	lit   bool
}

// An Edge is two families used together by commands, transactions or
// scripts; A == B for two keys of one family.
type Edge struct {
	A       string    `json:"a"`
	B       string    `json:"b"`
	Verdict string    `json:"verdict"` // the worst over Uses: same, maybe, different
	Uses    []EdgeUse `json:"uses"`

	verdict keyspace.Verdict
}

// An EdgeUse is one call that uses an edge's families together.
type EdgeUse struct {
	Kind    string `json:"kind"` // command, transaction, script
	Call    string `json:"call"`
	Where   string `json:"where"`
	Verdict string `json:"verdict"`
}

// A Group is a set of families that must share a slot, because calls use
// them together.
type Group struct {
	Name     string   `json:"name"`
	Families []string `json:"families"`
	// Verdict is the worst verdict over the uses that join the families:
	// same, maybe, different.
	Verdict string `json:"verdict"`
	// Hashtag is the hashtag the families' templates share, or "".
	Hashtag string `json:"hashtag,omitempty"`
	// Colocated is true when the templates prove that keys built from the
	// same values share a slot: a rules file can declare the group.
	Colocated bool `json:"colocated"`
	// Fix suggests a common hashtag when the templates do not share one.
	Fix string `json:"fix,omitempty"`
}

// Build joins the parts of a program's packages into one map. Families
// that the rules name take their names and templates.
func Build(parts []*Part, rules *ruleset.Rules) *Map {
	parts = slices.Clone(parts)
	slices.SortStableFunc(parts, func(a, b *Part) int { return strings.Compare(a.Path, b.Path) })
	m := &Map{}
	byShape := map[string]*Family{}
	// shapeOf maps a part family's ID to its family's shape.
	shapeOf := map[string]string{}
	for _, p := range parts {
		m.UnknownKeys += p.Unknown
		for _, pf := range p.Families {
			sh := shape(pf.ID)
			shapeOf[pf.ID] = sh
			f := byShape[sh]
			if f == nil {
				f = &Family{shape: sh, rank: -1, lit: true}
				byShape[sh] = f
				m.Families = append(m.Families, f)
			}
			if pf.Rank > f.rank || pf.Rank == f.rank && f.Name == "" && pf.Name != "" {
				f.rank, f.Name, f.Origin = pf.Rank, pf.Name, pf.Origin
				f.Template = strings.TrimPrefix(pf.ID, "key:")
				if strings.HasPrefix(pf.ID, "key:") {
					f.Template = ""
				}
				f.Key = strings.TrimPrefix(pf.ID, "key:")
			}
			f.lit = f.lit && pf.Literal
			for _, c := range pf.Commands {
				if !slices.Contains(f.Commands, c) {
					f.Commands = append(f.Commands, c)
				}
			}
			for _, s := range pf.Sites {
				if !slices.Contains(f.Sites, s) {
					f.Sites = append(f.Sites, s)
				}
			}
		}
	}
	// A constant key that one family's template builds is a key of that
	// family: "user:123:cache" of "user:<uid>:cache".
	alias := map[string]*Family{}
	var kept []*Family
	for _, f := range m.Families {
		if into := foldInto(f, m.Families); into != nil {
			alias[f.shape] = into
			for _, c := range f.Commands {
				if !slices.Contains(into.Commands, c) {
					into.Commands = append(into.Commands, c)
				}
			}
			into.Sites = append(into.Sites, f.Sites...)
			continue
		}
		kept = append(kept, f)
	}
	m.Families = kept
	familyOf := func(id string) *Family {
		sh := shapeOf[id]
		if f := alias[sh]; f != nil {
			return f
		}
		return byShape[sh]
	}
	m.name(rules)
	for _, f := range m.Families {
		f.describe()
	}
	slices.SortStableFunc(m.Families, func(a, b *Family) int { return compareWhere(a.Sites[0].Where, b.Sites[0].Where) })

	// Edges.
	edges := map[[2]*Family]*Edge{}
	for _, p := range parts {
		for _, u := range p.Uses {
			for _, pair := range u.Pairs {
				a, b := familyOf(pair.A), familyOf(pair.B)
				if a == nil || b == nil {
					continue
				}
				if b.Name < a.Name {
					a, b = b, a
				}
				e := edges[[2]*Family{a, b}]
				if e == nil {
					e = &Edge{A: a.Name, B: b.Name}
					edges[[2]*Family{a, b}] = e
					m.Edges = append(m.Edges, e)
				}
				eu := EdgeUse{Kind: u.Kind, Call: u.Call, Where: u.Where, Verdict: pair.Verdict.String()}
				if i := slices.IndexFunc(e.Uses, func(x EdgeUse) bool { return x.Where == eu.Where && x.Call == eu.Call }); i >= 0 {
					if verdictOf(e.Uses[i].Verdict) < pair.Verdict {
						e.Uses[i].Verdict = eu.Verdict
					}
				} else {
					e.Uses = append(e.Uses, eu)
				}
				e.verdict = max(e.verdict, pair.Verdict)
			}
		}
	}
	for _, e := range m.Edges {
		e.Verdict = e.verdict.String()
		slices.SortFunc(e.Uses, func(x, y EdgeUse) int { return compareWhere(x.Where, y.Where) })
	}
	slices.SortFunc(m.Edges, func(x, y *Edge) int {
		if c := strings.Compare(x.A, y.A); c != 0 {
			return c
		}
		return strings.Compare(x.B, y.B)
	})
	m.group()
	for _, f := range m.Families {
		f.Types = dataTypes(f.Commands)
	}
	return m
}

func verdictOf(s string) keyspace.Verdict {
	for v := keyspace.Same; v <= keyspace.Different; v++ {
		if v.String() == s {
			return v
		}
	}
	return keyspace.Maybe
}

// foldInto returns the one family, not constant, whose template builds
// every key of the constant family f; nil when f is not constant or no
// such family, or more than one, exists.
func foldInto(f *Family, all []*Family) *Family {
	if !f.lit || f.Template == "" {
		return nil
	}
	var into *Family
	for _, g := range all {
		if g == f || g.lit || g.Template == "" {
			continue
		}
		t, err := keyspace.ParseTemplate(g.Template)
		if err != nil {
			continue
		}
		if _, ok := t.Match(f.Template); ok {
			if into != nil {
				return nil
			}
			into = g
		}
	}
	return into
}

// name gives every family a unique name: the rules' name for a family of
// the same shape, else the Go name that builds it, else words of its
// template.
func (m *Map) name(rules *ruleset.Rules) {
	taken := map[string]bool{}
	var rest []*Family
	for _, f := range m.Families {
		if rules != nil && f.Template != "" {
			if rf := rulesFamily(rules, f); rf != nil && !taken[rf.Name] {
				f.Name, f.Template, f.Origin = rf.Name, rf.Template.String(), "rules"
				taken[f.Name] = true
				continue
			}
		}
		rest = append(rest, f)
	}
	slices.SortStableFunc(rest, func(a, b *Family) int { return b.rank - a.rank })
	for _, f := range rest {
		base := ""
		if f.rank > 0 && f.Name != "" {
			base = kebab(f.Name)
		}
		if base == "" {
			base = words(f.Key)
		}
		name := base
		for i := 2; taken[name]; i++ {
			name = base + "-" + strconv.Itoa(i)
		}
		taken[name] = true
		f.Name = name
	}
}

// rulesFamily is the family of the rules whose template has f's shape.
func rulesFamily(rules *ruleset.Rules, f *Family) *ruleset.Family {
	for _, rf := range rules.Families {
		if rf.Template != nil && shape(rf.Template.String()) == f.shape {
			return rf
		}
	}
	return nil
}

// kebab turns a Go name into a family name: UserCache is user-cache.
func kebab(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) && rs[i-1] != '_' {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		if r == '_' {
			b.WriteByte('-')
			continue
		}
		b.WriteRune(r)
	}
	return strings.Trim(b.String(), "-")
}

// words names a family after the literal words of its key, at most three:
// "order:{<sku>}:<order>" is order, "order:456:status" order-456-status.
func words(key string) string {
	key = placeholderRE.ReplaceAllString(key, " ")
	f := strings.FieldsFunc(key, func(r rune) bool {
		return !(r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	})
	if len(f) > 3 {
		f = f[:3]
	}
	name := strings.ToLower(strings.Join(f, "-"))
	if name == "" || !unicode.IsLetter(rune(name[0])) && name[0] != '_' {
		name = "key-" + name
	}
	return strings.TrimSuffix(name, "-")
}

// describe sets a family's hashtag and slot from its template.
func (f *Family) describe() {
	f.Hashtag = "unknown"
	if f.Template == "" {
		return
	}
	t, err := keyspace.ParseTemplate(f.Template)
	if err != nil {
		return
	}
	k := t.Symbolic()
	s := k.Subject()
	switch s.Kind {
	case keyspace.SubjectTag:
		f.Hashtag = "{" + keyspace.Key{Parts: s.Parts}.String() + "}"
	case keyspace.SubjectWhole:
		f.Hashtag = "none"
	}
	if n, ok := t.FixedSlot(); ok {
		f.Slot = &n
	} else if n, ok := k.Slot(); ok {
		f.Slot = &n
	}
}

// compareWhere orders file:line positions by file, then line.
func compareWhere(a, b string) int {
	fa, la := splitWhere(a)
	fb, lb := splitWhere(b)
	if c := strings.Compare(fa, fb); c != 0 {
		return c
	}
	return la - lb
}

func splitWhere(w string) (string, int) {
	i := strings.LastIndexByte(w, ':')
	if i < 0 {
		return w, 0
	}
	n, _ := strconv.Atoi(w[i+1:])
	return w[:i], n
}

// group joins the families that edges join into groups, and says whether
// their templates share a slot.
func (m *Map) group() {
	byName := map[string]*Family{}
	parent := map[string]string{}
	for _, f := range m.Families {
		byName[f.Name] = f
		parent[f.Name] = f.Name
	}
	var find func(string) string
	find = func(x string) string {
		if parent[x] != x {
			parent[x] = find(parent[x])
		}
		return parent[x]
	}
	for _, e := range m.Edges {
		if e.A != e.B {
			parent[find(e.A)] = find(e.B)
		}
	}
	members := map[string][]string{}
	var roots []string
	for _, f := range m.Families {
		r := find(f.Name)
		if _, ok := members[r]; !ok {
			roots = append(roots, r)
		}
		members[r] = append(members[r], f.Name)
	}
	taken := map[string]bool{}
	for _, r := range roots {
		names := members[r]
		if len(names) < 2 {
			continue
		}
		g := &Group{Families: names}
		worst := keyspace.Same
		for _, e := range m.Edges {
			if e.A != e.B && find(e.A) == r {
				worst = max(worst, e.verdict)
			}
		}
		g.Verdict = worst.String()
		fams := make([]*Family, len(names))
		for i, n := range names {
			fams[i] = byName[n]
		}
		unifyTags(fams)
		keys := make([]keyspace.Key, 0, len(fams))
		for _, f := range fams {
			if t, err := keyspace.ParseTemplate(f.Template); err == nil {
				keys = append(keys, t.Symbolic())
			}
		}
		if len(keys) == len(fams) {
			c := keyspace.Colocate(keys...)
			g.Colocated = c.Verdict == keyspace.Same
			if !g.Colocated {
				g.Fix = c.Fix
			}
		} else {
			g.Fix = "write each family's keys with a template and a common hashtag"
		}
		if g.Colocated && fams[0].Hashtag != "none" && fams[0].Hashtag != "unknown" {
			g.Hashtag = fams[0].Hashtag
		}
		base := fams[0].Name
		if tag := strings.Trim(g.Hashtag, "{}"); g.Hashtag != "" {
			if ph := placeholderRE.FindString(tag); ph == tag {
				base = kebab(strings.Trim(ph, "<>"))
			} else if w := words(tag); !strings.HasPrefix(w, "key") {
				base = w
			}
		}
		name := base
		for i := 2; taken[name]; i++ {
			name = base + "-" + strconv.Itoa(i)
		}
		taken[name] = true
		g.Name = name
		m.Groups = append(m.Groups, g)
	}
}

// unifyTags gives the placeholders in the hashtags of families of one
// group the names of the first family's, when the hashtags have one
// shape: "inventory:{<sku>}" and "order:{<id>}:<n>" become
// "inventory:{<sku>}" and "order:{<sku>}:<n>", so that a rules file proves
// the group.
func unifyTags(fams []*Family) {
	tagOf := func(t string) (int, int) {
		i := strings.IndexByte(t, '{')
		j := strings.IndexByte(t, '}')
		if i < 0 || j < i {
			return -1, -1
		}
		return i, j + 1
	}
	if fams[0].Template == "" {
		return
	}
	i0, j0 := tagOf(fams[0].Template)
	if i0 < 0 {
		return
	}
	tag := fams[0].Template[i0:j0]
	for _, f := range fams[1:] {
		if f.Template == "" {
			return
		}
		i, j := tagOf(f.Template)
		if i < 0 || shape(f.Template[i:j]) != shape(tag) {
			return
		}
	}
	names := placeholderRE.FindAllString(tag, -1)
	for _, f := range fams[1:] {
		i, j := tagOf(f.Template)
		own := f.Template[i:j]
		if own == tag {
			continue
		}
		// Placeholders outside the hashtag that would clash are renamed.
		out := f.Template[:i] + tag + f.Template[j:]
		outside := placeholderRE.FindAllStringIndex(out, -1)
		used := map[string]bool{}
		for _, n := range names {
			used[n] = true
		}
		var b strings.Builder
		last := 0
		for _, loc := range outside {
			if loc[0] >= i && loc[1] <= i+len(tag) {
				continue
			}
			ph := out[loc[0]:loc[1]]
			if used[ph] {
				base := strings.Trim(ph, "<>")
				n := 2
				for used["<"+base+strconv.Itoa(n)+">"] {
					n++
				}
				b.WriteString(out[last:loc[0]])
				ph = "<" + base + strconv.Itoa(n) + ">"
				b.WriteString(ph)
				last = loc[1]
			}
			used[ph] = true
		}
		b.WriteString(out[last:])
		if _, err := keyspace.ParseTemplate(b.String()); err == nil {
			f.Template = b.String()
		}
	}
}

//go:embed datatypes.txt
var dataTypesText string

// commandTypes maps a command, lower case with "|" before a subcommand,
// to the data type it works on.
var commandTypes = func() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(dataTypesText, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		name, group, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		switch group {
		case "bitmap":
			group = "string"
		case "geo":
			group = "sorted-set"
		}
		m[name] = group
	}
	return m
}()

// dataTypes are the data types that commands work on, in order.
func dataTypes(cmds []Command) []string {
	out := []string{}
	for _, c := range cmds {
		name := strings.ToLower(strings.Replace(c.Name, " ", "|", 1))
		if t, ok := commandTypes[name]; ok && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}
