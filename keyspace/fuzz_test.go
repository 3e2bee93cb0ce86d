package keyspace

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/slot"
)

// The fuzz targets below run their seeds, in the code and under
// testdata/fuzz, as plain tests. To fuzz one, one at a time:
//
//	go test -run='^$' -fuzz='^FuzzBuildMatch$' -fuzztime=5m -parallel=1 ./keyspace

// templateSeeds are templates from the README, the demo, the rules files and
// the tests, and the shapes that test the grammar's edges.
var templateSeeds = []string{
	"emq:{<queue>}:job:<id>",
	"emq:{<queue>}:pending",
	"inventory:{<sku>}",
	"user:<uid>:profile",
	"stats:global",
	"x:{orders}:<id>",
	"{<a>}",
	"<a>",
	"<a>:<b>",
	"<a><b>",
	"{<a><b>}:<c>",
	"<p>{<q>}<r>",
	"{<a>:<b>}",
	"a{b}c",
	"{tag}:<a>:<b>:<c>:<d>",
	"emq:{<queue>:job",
	"emq:{}:job",
	"emq:<q>:<q>",
	"emq:<1q>",
	"emq:job id",
	"<\xff>",
	"a\x00b",
}

// FuzzParseTemplate checks that ParseTemplate never panics, that every error
// is a *TemplateError with a column inside the text, and that a template it
// accepts prints back as its text.
func FuzzParseTemplate(f *testing.F) {
	for _, s := range templateSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tmpl, err := ParseTemplate(text)
		if err != nil {
			var te *TemplateError
			if !errors.As(err, &te) {
				t.Fatalf("ParseTemplate(%q) error %v is a %T, want a *TemplateError", text, err, err)
			}
			if te.Col < 1 || te.Col > max(len(text), 1) {
				t.Fatalf("ParseTemplate(%q) error at column %d, outside the text of %d bytes: %v", text, te.Col, len(text), err)
			}
			if te.Msg == "" || !strings.Contains(err.Error(), "column "+strconv.Itoa(te.Col)) {
				t.Fatalf("ParseTemplate(%q) error %q does not name its column %d", text, err, te.Col)
			}
			return
		}
		if tmpl.String() != text {
			t.Fatalf("ParseTemplate(%q).String() = %q", text, tmpl.String())
		}
		if got := tmpl.Symbolic().String(); got != text {
			t.Fatalf("ParseTemplate(%q).Symbolic() = %q, want the template's text", text, got)
		}
		names := tmpl.Names()
		if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
			t.Fatalf("ParseTemplate(%q).Names() = %q has a name twice", text, names)
		}
		if tmpl.Tagged() != strings.Contains(text, "{") {
			t.Fatalf("ParseTemplate(%q).Tagged() = %v", text, tmpl.Tagged())
		}
	})
}

// refBuild builds the key of a template independently of Build: it replaces
// each <name> in the text by its value, in order. It returns the key, the
// text between the template's braces with its values in it, and whether the
// template has braces. Build must accept the values exactly when none is
// empty and the key's hashtag is that text (for a template without braces,
// when the key holds no '{'), and then return this key.
func refBuild(text string, values []string) (key, tag string, tagged bool, ok bool) {
	var b strings.Builder
	vi := 0
	open := -1
	ok = true
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '<':
			end := strings.IndexByte(text[i:], '>')
			if values[vi] == "" {
				ok = false
			}
			b.WriteString(values[vi])
			vi++
			i += end
		case '{':
			b.WriteByte(c)
			open = b.Len()
		case '}':
			tag = b.String()[open:]
			tagged = true
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	key = b.String()
	if tagged {
		got, has := slot.HashTag(key)
		ok = ok && has && got == tag
	} else {
		ok = ok && !strings.Contains(key, "{")
	}
	return key, tag, tagged, ok
}

// unambiguous reports whether Match must give back exactly these values for
// the key the template builds from them: every placeholder but one at the
// end of the key is followed by literal text (a brace counts) whose first
// byte the value does not hold. Match takes the shortest value that fits for
// each placeholder but the last, so it then stops where the value ends.
func unambiguous(text string, values []string) bool {
	vi := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '<' {
			continue
		}
		end := i + strings.IndexByte(text[i:], '>')
		v := values[vi]
		vi++
		i = end
		if end+1 == len(text) {
			continue // the last part of the key
		}
		next := text[end+1]
		if next == '<' || strings.IndexByte(v, next) >= 0 {
			return false
		}
	}
	return true
}

// FuzzBuildMatch checks that Build accepts exactly the values that give a
// key with the template's hashtag and no empty part, whatever bytes they
// hold; that the key it builds matches the template, giving back the same
// values where the template is unambiguous; that FixedSlot, when it
// answers, is the slot of every key; and that Match, on any key, gives back
// values that build that very key.
func FuzzBuildMatch(f *testing.F) {
	for i, s := range templateSeeds {
		f.Add(s, "orders", "42", "x", "emq:{orders}:job:"+strconv.Itoa(i))
	}
	f.Add("emq:{<queue>}:job:<id>", "orders", "", "", "emq:{orders}:job:")
	f.Add("<a>", "\n", "", "", "\n")
	f.Add("{<a>}:<b>", "p{q", "}{\r\n\xff", "", "{p{q}:}}")
	f.Add("<p>{<q>}<r>", "}", "\x00", "{}", "}{\x00}{}")
	f.Add("<a>:<b>", "x:y", "z", "", "x:y:z")
	f.Fuzz(func(t *testing.T, text, a, b, c, key string) {
		tmpl, err := ParseTemplate(text)
		if err != nil {
			return
		}
		names := tmpl.Names()
		values := make([]string, len(names))
		for i := range values {
			switch i {
			case 0:
				values[i] = a
			case 1:
				values[i] = b
			case 2:
				values[i] = c
			default:
				values[i] = strconv.Itoa(i)
			}
		}
		want, tag, tagged, ok := refBuild(text, values)
		got, err := tmpl.Build(values...)
		switch {
		case ok && err != nil:
			t.Fatalf("%q.Build(%q) failed: %v; want %q", text, values, err, want)
		case !ok && err == nil:
			t.Fatalf("%q.Build(%q) = %q, want an error (an empty value, or a hashtag other than %q)", text, values, got, tag)
		case !ok:
			if i := slices.Index(values, ""); i >= 0 && !strings.Contains(err.Error(), "<"+names[i]+">") {
				t.Fatalf("%q.Build(%q) error %q does not name the empty placeholder <%s>", text, values, err, names[i])
			}
		case got != want:
			t.Fatalf("%q.Build(%q) = %q, want %q", text, values, got, want)
		}
		if ok {
			back, matched := tmpl.Match(got)
			if !matched {
				t.Fatalf("%q.Match(%q) failed on the key Build made from %q", text, got, values)
			}
			if again, err := tmpl.Build(back...); err != nil || again != got {
				t.Fatalf("%q.Match(%q) = %q, which builds %q, %v", text, got, back, again, err)
			}
			if unambiguous(text, values) && !slices.Equal(back, values) {
				t.Fatalf("%q.Match(%q) = %q, want the values it was built from, %q", text, got, back, values)
			}
			if s, fixed := tmpl.FixedSlot(); fixed && s != slot.Of(got) {
				t.Fatalf("%q.FixedSlot() = %d, but key %q is in slot %d", text, s, got, slot.Of(got))
			}
			if tagged && slot.Of(got) != slot.Of(tag) {
				t.Fatalf("%q.Build(%q) = %q in slot %d, not the slot %d of its hashtag %q", text, values, got, slot.Of(got), slot.Of(tag), tag)
			}
		}
		// Any key: what Match gives back builds that key.
		if back, matched := tmpl.Match(key); matched {
			if len(back) != len(names) {
				t.Fatalf("%q.Match(%q) = %q, want %d values", text, key, back, len(names))
			}
			if again, err := tmpl.Build(back...); err != nil || again != key {
				t.Fatalf("%q.Match(%q) = %q, which builds %q, %v", text, key, back, again, err)
			}
		}
	})
}

// colocateTemplates are the templates FuzzColocate builds keys from.
var colocateTemplates = []*Template{
	MustTemplate("emq:{<queue>}:job:<id>"),
	MustTemplate("emq:{<queue>}:pending"),
	MustTemplate("<a>"),
	MustTemplate("{<a>}"),
	MustTemplate("<a>:{<b>}:<c>"),
	MustTemplate("x:{orders}:<id>"),
}

// fuzzKeys decodes shape into symbolic keys and, with the values of the
// unknowns x, y and z, the concrete keys they stand for. It returns false
// when the values break what the symbolic keys say of them: a value taken to
// hold no brace holds one, or a template's Build refuses its values.
//
// Each byte of shape is an operation, chosen by its low two bits:
//
//	0: literal text, 1 to 4 bytes taken from the next bytes, each one of "{}:abxy1"
//	1: an unknown: bits 2-3 pick x, y, z or one equal to nothing else, bit 4 says it holds no brace
//	2: the next key; bit 2 set: it is a template's, bits 3-5 pick the template,
//	   and the next byte's bit pairs pick each value as op 1 does
//	3: the next byte, as literal text
func fuzzKeys(shape []byte, vals [3]string, anon string) ([]Key, []string, bool) {
	const alphabet = "{}:abxy1"
	var keys []Key
	var concrete []string
	var k Key
	var c concreteKey
	var concretes []concreteKey
	anons := 0
	// unknown returns the symbolic and concrete value picked by bits.
	unknown := func(bits byte, noBraces bool) (Key, string, bool) {
		i := int(bits & 3)
		var v string
		id := ""
		if i < 3 {
			v, id = vals[i], "xyz"[i:i+1]
		} else {
			anons++
			v = anon + strconv.Itoa(anons)
		}
		if noBraces && strings.ContainsAny(v, "{}") {
			return Key{}, "", false
		}
		return Unknown(id, id, noBraces), v, true
	}
	flush := func() {
		if len(k.Parts) == 0 && len(c.text) == 0 {
			return
		}
		keys = append(keys, k)
		concrete = append(concrete, string(c.text))
		concretes = append(concretes, c)
		k = Key{}
		c = concreteKey{}
	}
	for i := 0; i < len(shape) && len(keys) < 4; i++ {
		b := shape[i]
		switch b & 3 {
		case 0:
			n := 1 + int(b>>2)%4
			for j := 0; j < n && i+1 < len(shape); j++ {
				i++
				ch := alphabet[int(shape[i])%len(alphabet)]
				k = k.Append(Lit(string(ch)))
				c.lit(string(ch))
			}
		case 1:
			u, v, ok := unknown(b>>2, b&16 != 0)
			if !ok {
				return nil, nil, false
			}
			k = k.Append(u)
			c.unknown(v)
		case 2:
			flush()
			if b&4 == 0 {
				continue
			}
			tmpl := colocateTemplates[int(b>>3)%len(colocateTemplates)]
			var picks byte
			if i+1 < len(shape) {
				i++
				picks = shape[i]
			}
			var sym []Key
			var values []string
			for j := range tmpl.Names() {
				u, v, ok := unknown(picks>>(2*j), false)
				if !ok {
					return nil, nil, false
				}
				sym = append(sym, u)
				values = append(values, v)
			}
			key, err := tmpl.Build(values...)
			if err != nil {
				return nil, nil, false
			}
			k = tmpl.Apply(sym)
			c.lit(key)
		case 3:
			if i+1 < len(shape) {
				i++
				k = k.Append(Lit(string(shape[i])))
				c.lit(string(shape[i]))
			}
		}
	}
	flush()
	for _, k := range concretes {
		if k.emptyTagByUnknown() {
			return nil, nil, false
		}
	}
	return keys, concrete, true
}

// A concreteKey is a key's text, with where its unknowns' values are.
type concreteKey struct {
	text    []byte
	fromUnk []bool       // fromUnk[i]: text[i] is a byte of an unknown's value
	empty   map[int]bool // an empty unknown's value is at this offset
}

func (c *concreteKey) lit(s string) {
	c.text = append(c.text, s...)
	c.fromUnk = append(c.fromUnk, make([]bool, len(s))...)
}

func (c *concreteKey) unknown(v string) {
	if v == "" {
		if c.empty == nil {
			c.empty = map[int]bool{}
		}
		c.empty[len(c.text)] = true
	}
	c.text = append(c.text, v...)
	for range len(v) {
		c.fromUnk = append(c.fromUnk, true)
	}
}

// emptyTagByUnknown reports whether the key's first '{' is followed at once
// by '}', by an unknown's doing: one of the two braces, or nothing between
// them, is an unknown's value. Colocate takes it that unknowns never make a
// hashtag empty so.
func (c *concreteKey) emptyTagByUnknown() bool {
	i := bytes.IndexByte(c.text, '{')
	if i < 0 || i+1 >= len(c.text) || c.text[i+1] != '}' {
		return false
	}
	return c.fromUnk[i] || c.fromUnk[i+1] || c.empty[i+1]
}

// FuzzColocate checks Colocate against the slots of concrete keys: when it
// says the symbolic keys share a slot, the concrete keys they stand for do;
// when it says two differ, those two concrete keys are in different slots.
func FuzzColocate(f *testing.F) {
	// The keys of two templates, built from the same queue.
	f.Add([]byte{0x06, 0x04, 0x0e, 0x00}, "orders", "42", "", "")
	// "{" + x + "}:a" and "{" + x + "}:b", x holding a brace or nothing.
	tagged := []byte{0x03, '{', 0x01, 0x03, '}', 0x03, ':', 0x03, 'a', 0x02, 0x03, '{', 0x01, 0x03, '}', 0x03, ':', 0x03, 'b'}
	f.Add(tagged, "}", "", "", "")
	f.Add(tagged, "", "", "", "")
	f.Add(tagged, "o", "", "", "")
	// "tmp:user:1" and "user:1": literal keys in different slots.
	f.Add([]byte{0x03, 't', 0x03, 'm', 0x03, 'p', 0x03, ':', 0x03, 'u', 0x02, 0x03, 'u'}, "", "", "", "")
	// Values with braces in templates' parts after and inside the hashtag.
	f.Add([]byte{0x06, 0x04, 0x16, 0x03}, "a{b", "c}", "{}", "{")
	// The value of a template without a hashtag, which may hold a brace,
	// and the same value as a hashtag: "a}b" and "{a}b}".
	f.Add([]byte{0x16, 0x00, 0x02, 0x03, '{', 0x01, 0x03, '}'}, "a}b", "", "", "")
	f.Add([]byte{0x16, 0x00, 0x02, 0x03, '{', 0x01, 0x03, '}', 0x03, 'b'}, "x}", "", "", "")
	// A template's key followed by more: "{" + x + "}" after it, x = "{".
	f.Add([]byte("7{A7}\x1607{A7}"), "{", "", "", "0")
	f.Add([]byte("7{A7}\x0e07{A7}"), "{", "", "", "0")
	// An unknown prefix before a literal hashtag.
	f.Add([]byte{0x05, 0x03, '{', 0x03, 'o', 0x03, '}', 0x02, 0x03, '{', 0x03, 'o', 0x03, '}', 0x03, 'b'}, "", "x{", "", "")
	f.Fuzz(func(t *testing.T, shape []byte, x, y, z, anon string) {
		keys, concrete, ok := fuzzKeys(shape, [3]string{x, y, z}, anon)
		if !ok {
			return
		}
		c := Colocate(keys...)
		switch c.Verdict {
		case Same:
			if leadLeftOpen(keys, x, y, z, anon) {
				// Outside what Colocate takes values to hold: a
				// leading value that opens a brace it never closes.
				return
			}
			for i := range concrete {
				if slot.Of(concrete[i]) != slot.Of(concrete[0]) {
					t.Fatalf("Colocate(%s) = same, but %q is in slot %d and %q in slot %d", keyList(keys), concrete[0], slot.Of(concrete[0]), concrete[i], slot.Of(concrete[i]))
				}
			}
		case Different:
			a, b := c.Pair[0], c.Pair[1]
			if slot.Of(concrete[a]) == slot.Of(concrete[b]) {
				t.Fatalf("Colocate(%s) = different (%s), but %q and %q are both in slot %d", keyList(keys), c.Reason, concrete[a], concrete[b], slot.Of(concrete[a]))
			}
		}
	})
}

// leadLeftOpen reports whether two keys begin with the same unknown value
// (closedLead) while some value opens a '{' that it does not close.
func leadLeftOpen(keys []Key, values ...string) bool {
	shared := false
	for i := range keys {
		for j := range i {
			a, b := keys[i], keys[j]
			if len(a.Parts) > 1 && len(b.Parts) > 1 && a.Parts[0].Unknown && partsEqual(a.Parts[:1], b.Parts[:1]) {
				shared = true
			}
		}
	}
	if !shared {
		return false
	}
	for _, v := range values {
		if i := strings.LastIndexByte(v, '{'); i >= 0 && !strings.Contains(v[i:], "}") {
			return true
		}
	}
	return false
}

func keyList(keys []Key) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = k.Quote()
		for _, p := range k.Parts {
			if p.Unknown && p.NoBraces {
				s[i] += "/nobraces:" + p.Name
			}
		}
	}
	return strings.Join(s, ", ")
}
