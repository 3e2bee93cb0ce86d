package keyspace

import (
	"fmt"
	"regexp"
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
	match          *regexp.Regexp
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
	t.match = t.compileMatcher()
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
// Names. It fails when the count is wrong, or when a value would move or
// empty the hashtag, which would put the key in another slot than the
// template promises.
func (t *Template) Build(values ...string) (string, error) {
	if len(values) != len(t.names) {
		return "", fmt.Errorf("template %q takes %d values (%s), got %d", t.text, len(t.names), strings.Join(t.names, ", "), len(values))
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
	got, tagged := slot.HashTag(k)
	switch {
	case t.tagFrom >= 0 && tag.Len() == 0:
		return "", fmt.Errorf("template %q: the values leave the hashtag empty, so Redis would hash the whole key %q; give the hashtag a non-empty value", t.text, k)
	case t.tagFrom >= 0 && (!tagged || got != tag.String()):
		return "", fmt.Errorf("template %q: a value with '{' or '}' moves the hashtag of %q from %q to %q; remove the braces from the value", t.text, k, tag.String(), got)
	case t.tagFrom < 0 && tagged:
		return "", fmt.Errorf("template %q: a value with '{' and '}' gives the untagged key %q the hashtag %q; remove the braces from the value", t.text, k, got)
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

// compileMatcher builds the regular expression that Match uses: each
// placeholder matches a non-empty run, as short as possible except the last.
func (t *Template) compileMatcher() *regexp.Regexp {
	var re strings.Builder
	re.WriteString("^")
	for i, s := range t.segs {
		if i == t.tagFrom {
			re.WriteString(`\{`)
		}
		if i == t.tagTo {
			re.WriteString(`\}`)
		}
		switch {
		case s.name == "":
			re.WriteString(regexp.QuoteMeta(s.lit))
		case i >= t.tagFrom && i < t.tagTo:
			re.WriteString(`([^{}]+?)`)
		default:
			re.WriteString(`(.+?)`)
		}
	}
	if t.tagTo == len(t.segs) {
		re.WriteString(`\}`)
	}
	re.WriteString("$")
	return regexp.MustCompile(re.String())
}

// Match reports whether key is a key of the template, and if so returns the
// placeholder values in the order of Names. A key matches only if building
// it again from those values gives the same key.
func (t *Template) Match(key string) ([]string, bool) {
	m := t.match.FindStringSubmatch(key)
	if m == nil {
		return nil, false
	}
	values := m[1:]
	if k, err := t.Build(values...); err != nil || k != key {
		return nil, false
	}
	return values, true
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
// values, in the order of Names. Build rejects values that would move the
// hashtag, so the unknown parts of the values are taken to hold no braces.
func (t *Template) Apply(values []Key) Key {
	var k Key
	vi := 0
	for i, s := range t.segs {
		if i == t.tagFrom {
			k = k.Append(Lit("{"))
		}
		if i == t.tagTo {
			k = k.Append(Lit("}"))
		}
		if s.name == "" {
			k = k.Append(Lit(s.lit))
			continue
		}
		var v Key
		if vi < len(values) {
			v = values[vi]
		} else {
			v = Key{Parts: []Part{{Name: s.name, Unknown: true}}}
		}
		vi++
		for _, p := range v.Parts {
			if p.Unknown {
				p.NoBraces = true
				if p.Name == "" {
					p.Name = s.name
				}
			}
			k = k.Append(Key{Parts: []Part{p}})
		}
	}
	if t.tagTo == len(t.segs) {
		k = k.Append(Lit("}"))
	}
	return k
}
