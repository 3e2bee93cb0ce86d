package keyspace

import (
	"fmt"
	"strings"

	"github.com/slotlint/slotlint/slot"
)

// A Template is a key pattern: literal text, placeholders <name>, and at most
// one hashtag section in braces, as in "emq:{<queue>}:job:<id>". Keys built
// from a template with the same values in its hashtag section share a slot.
type Template struct {
	text  string
	segs  []tseg
	names []string // placeholder names, in order
	// tagFrom and tagTo bound the segments inside the braces; tagFrom < 0
	// when the template has no hashtag section.
	tagFrom, tagTo int
}

// A tseg is a template segment: literal text, or a placeholder.
type tseg struct {
	lit  string
	name string // placeholder name; "" for literal text
}

// TemplateError is a fault in a template's text at a 1-based column.
type TemplateError struct {
	Template string
	Col      int
	Msg      string
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("template %q, column %d: %s", e.Template, e.Col, e.Msg)
}

// ParseTemplate parses a key template. Literal text may hold any printable
// ASCII character except space, '<' and '>'; '{' and '}' may only open and
// close the one hashtag section; a placeholder is <name>, where name is a Go
// identifier used once.
func ParseTemplate(text string) (*Template, error) {
	t := &Template{text: text, tagFrom: -1, tagTo: -1}
	fail := func(i int, format string, args ...any) (*Template, error) {
		return nil, &TemplateError{Template: text, Col: i + 1, Msg: fmt.Sprintf(format, args...)}
	}
	if text == "" {
		return fail(0, "is empty")
	}
	seen := map[string]bool{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.segs = append(t.segs, tseg{lit: lit.String()})
			lit.Reset()
		}
	}
	open := -1 // column of the open brace, while inside the tag section
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '<':
			end := strings.IndexByte(text[i+1:], '>')
			if end < 0 {
				return fail(i, "'<' opens a placeholder that is never closed with '>'")
			}
			name := text[i+1 : i+1+end]
			if name == "" {
				return fail(i, "placeholder has an empty name; write <name>")
			}
			if !isIdent(name) {
				return fail(i+1, "placeholder name %q is not an identifier (letters, digits and '_', not starting with a digit)", name)
			}
			if seen[name] {
				return fail(i, "placeholder <%s> appears twice; give each placeholder its own name", name)
			}
			seen[name] = true
			flush()
			t.segs = append(t.segs, tseg{name: name})
			t.names = append(t.names, name)
			i += end + 1
		case c == '>':
			return fail(i, "'>' closes no placeholder")
		case c == '{':
			if open >= 0 {
				return fail(i, "'{' inside the hashtag section opened at column %d; a template has one hashtag section", open+1)
			}
			if t.tagFrom >= 0 {
				return fail(i, "second hashtag section; Redis hashes only the first, so a template has one")
			}
			flush()
			open = i
			t.tagFrom = len(t.segs)
		case c == '}':
			if open < 0 {
				return fail(i, "'}' closes no hashtag section")
			}
			flush()
			if len(t.segs) == t.tagFrom {
				return fail(open, "empty hashtag section \"{}\"; Redis then hashes the whole key, so put the shared part inside the braces")
			}
			t.tagTo = len(t.segs)
			open = -1
		case c <= ' ' || c >= 0x7f:
			return fail(i, "illegal character %q; template text is printable ASCII without spaces", c)
		default:
			lit.WriteByte(c)
		}
	}
	if open >= 0 {
		return fail(open, "'{' opens a hashtag section that is never closed with '}'")
	}
	flush()
	return t, nil
}

// MustTemplate is ParseTemplate for templates known to be valid, such as
// package-level declarations; it panics on a bad template.
func MustTemplate(text string) *Template {
	t, err := ParseTemplate(text)
	if err != nil {
		panic("keyspace: " + err.Error())
	}
	return t
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// String returns the template's text.
func (t *Template) String() string { return t.text }

// Names returns the placeholder names in order.
func (t *Template) Names() []string { return append([]string(nil), t.names...) }

// Tagged reports whether the template has a hashtag section.
func (t *Template) Tagged() bool { return t.tagFrom >= 0 }

// FixedSlot returns the slot of every key of the template when it does not
// depend on the values: the hashtag section is literal text, or the template
// has no placeholder at all.
func (t *Template) FixedSlot() (int, bool) {
	if len(t.names) == 0 {
		return slot.Of(t.text), true
	}
	if t.tagFrom < 0 {
		return 0, false
	}
	var tag strings.Builder
	for _, s := range t.segs[t.tagFrom:t.tagTo] {
		if s.name != "" {
			return 0, false
		}
		tag.WriteString(s.lit)
	}
	return slot.Of(tag.String()), true
}

// Build returns the key for the given placeholder values, in the order of
// Names. A value may hold any bytes, Redis keys being binary-safe, but
// braces only where they cannot move the hashtag: '}' before the hashtag
// section, '{' inside it, both after it, and no '{' in a template without
// one. Build fails when the count is wrong, when a value is empty (a key
// such as "emq:{orders}:job:" is almost always an id that was never set),
// or when a value holds a brace where it could move or make the hashtag,
// which would put the key in another slot than the template promises.
func (t *Template) Build(values ...string) (string, error) {
	if len(values) != len(t.names) {
		return "", fmt.Errorf("template %q takes %d values (%s), got %d", t.text, len(t.names), strings.Join(t.names, ", "), len(values))
	}
	for i, v := range values {
		if v == "" {
			return "", fmt.Errorf("template %q: the value of <%s> is empty; an empty part is usually a value that was never set, so give <%s> a value", t.text, t.names[i], t.names[i])
		}
		if t.tagFrom < 0 && strings.IndexByte(v, '{') >= 0 {
			return "", fmt.Errorf("template %q has no hashtag, so its values hold no '{' (a '}' after one makes a hashtag), but <%s> is %q; remove the brace from the value", t.text, t.names[i], v)
		}
	}
	var key, tag strings.Builder
	vi := 0
	for i, s := range t.segs {
		text := s.lit
		if s.name != "" {
			text = values[vi]
			vi++
		}
		if i == t.tagFrom {
			key.WriteByte('{')
		}
		if i == t.tagTo {
			key.WriteByte('}')
		}
		key.WriteString(text)
		if i >= t.tagFrom && i < t.tagTo {
			tag.WriteString(text)
		}
	}
	if t.tagTo == len(t.segs) {
		key.WriteByte('}')
	}
	k := key.String()
	if got, tagged := slot.HashTag(k); t.tagFrom >= 0 && (!tagged || got != tag.String()) {
		return "", fmt.Errorf("template %q: a value with '{' or '}' moves the hashtag of %q from %q to %q; remove the braces from the value", t.text, k, tag.String(), got)
	}
	return k, nil
}

// Key is Build for values known to be valid; it panics when Build fails.
func (t *Template) Key(values ...string) string {
	k, err := t.Build(values...)
	if err != nil {
		panic("keyspace: " + err.Error())
	}
	return k
}

// Match reports whether key is a key of the template, and if so returns the
// placeholder values in the order of Names. A key matches only if building
// it again from those values gives the same key, and every key that Build
// returns matches, whatever bytes its values hold. Where the template is
// ambiguous, as "<a>:<b>" is for a value holding ':', each placeholder but
// the last takes the shortest value that fits, so the values Match gives
// back build the same key but may split it differently.
//
// Match takes time linear in the length of the key and the template.
func (t *Template) Match(key string) ([]string, bool) {
	values := make([]string, 0, len(t.names))
	var ok bool
	if t.tagFrom < 0 {
		if values, ok = matchRun(key, t.segs, values); !ok {
			return nil, false
		}
	} else {
		// Build lets no value before the hashtag section hold a '{', and
		// none inside it a '}', so the key's first '{' and the first '}'
		// after it are the template's braces.
		open := strings.IndexByte(key, '{')
		if open < 0 {
			return nil, false
		}
		end := strings.IndexByte(key[open+1:], '}')
		if end < 0 {
			return nil, false
		}
		end += open + 1
		for _, run := range []struct {
			text string
			segs []tseg
		}{
			{key[:open], t.segs[:t.tagFrom]},
			{key[open+1 : end], t.segs[t.tagFrom:t.tagTo]},
			{key[end+1:], t.segs[t.tagTo:]},
		} {
			if values, ok = matchRun(run.text, run.segs, values); !ok {
				return nil, false
			}
		}
	}
	if k, err := t.Build(values...); err != nil || k != key {
		return nil, false
	}
	return values, true
}

// matchRun matches text against segments with no braces between them,
// appending the placeholders' values to values. Each placeholder takes at
// least one byte, and each but the last the fewest that let the rest match:
// up to the first place after its first byte where the next literal text
// occurs, as a placeholder may hold any byte. That first place is the one to
// take, since the rest, which then starts with a placeholder, matches from
// there if it matches from anywhere later.
func matchRun(text string, segs []tseg, values []string) ([]string, bool) {
	pos := 0
	for i := 0; i < len(segs); i++ {
		s := segs[i]
		if s.name == "" { // literal text at the start of the run
			if !strings.HasPrefix(text, s.lit) {
				return nil, false
			}
			pos = len(s.lit)
			continue
		}
		switch {
		case i+1 == len(segs): // the last placeholder takes the rest
			if pos == len(text) {
				return nil, false
			}
			values = append(values, text[pos:])
			pos = len(text)
		case segs[i+1].name != "": // another placeholder follows
			if pos == len(text) {
				return nil, false
			}
			values = append(values, text[pos:pos+1])
			pos++
		case i+2 == len(segs): // literal text ends the run
			lit := segs[i+1].lit
			if len(text)-len(lit) <= pos || !strings.HasSuffix(text, lit) {
				return nil, false
			}
			values = append(values, text[pos:len(text)-len(lit)])
			pos = len(text)
			i++
		default: // literal text, then more
			lit := segs[i+1].lit
			if pos == len(text) {
				return nil, false
			}
			at := strings.Index(text[pos+1:], lit)
			if at < 0 {
				return nil, false
			}
			at += pos + 1
			values = append(values, text[pos:at])
			pos = at + len(lit)
			i++
		}
	}
	return values, pos == len(text)
}

// Symbolic returns the template's keys as a symbolic Key, each placeholder an
// unknown whose identity is its name. Keys of two templates whose hashtag
// sections hold the same placeholders thus colocate.
func (t *Template) Symbolic() Key {
	values := make([]Key, len(t.names))
	for i, n := range t.names {
		values[i] = Key{Parts: []Part{{ID: "<" + n + ">", Name: n, Unknown: true}}}
	}
	return t.Apply(values)
}

// Apply returns the symbolic key that the template builds from symbolic
// values, in the order of Names. The unknown parts of the values are marked
// with what Build lets them hold: no '{' before the hashtag section, or in
// any value of a template without one (NoOpen), and no '}' inside it
// (NoClose).
func (t *Template) Apply(values []Key) Key {
	var parts []Part
	var choices Key
	lit := func(text string) { parts = appendPart(parts, Part{Lit: text}) }
	vi := 0
	for i, s := range t.segs {
		if i == t.tagFrom {
			lit("{")
		}
		if i == t.tagTo {
			lit("}")
		}
		if s.name == "" {
			lit(s.lit)
			continue
		}
		var v Key
		if vi < len(values) {
			v = values[vi]
		} else {
			v = Key{Parts: []Part{{Name: s.name, Unknown: true}}}
		}
		vi++
		choices = choices.Choosing(v.Choices...)
		for _, p := range v.Parts {
			if p.Unknown {
				switch {
				case t.tagFrom < 0 || i < t.tagFrom:
					p.NoOpen = true
				case i < t.tagTo:
					p.NoClose = true
				}
				if p.Name == "" {
					p.Name = s.name
				}
			}
			parts = appendPart(parts, p)
		}
	}
	if t.tagTo == len(t.segs) {
		lit("}")
	}
	return Key{Parts: parts, Choices: choices.Choices}
}
