package keyspace

import (
	"strings"
	"testing"
)

// v is an identified unknown that may hold braces; n one that may not.
func v(id string) Key { return Unknown(id, id, false) }
func n(id string) Key { return Unknown(id, id, true) }

func TestColocate(t *testing.T) {
	job := MustTemplate("emq:{<queue>}:job:<id>")
	pending := MustTemplate("emq:{<queue>}:pending")
	tests := []struct {
		name   string
		keys   []Key
		want   Verdict
		reason string
		fix    string
	}{
		{
			name:   "shadow-key swap",
			keys:   []Key{Lit("tmp:user:123:cache"), Lit("user:123:cache")},
			want:   Different,
			reason: `keys "tmp:user:123:cache" (slot 4489) and "user:123:cache" (slot 7641) hash to different slots`,
			fix:    `give them a common hashtag such as "{user:123}"`,
		},
		{
			name:   "watch over inventory and order",
			keys:   []Key{Lit("inventory:sku123"), Lit("order:456:status")},
			want:   Different,
			reason: `keys "inventory:sku123" (slot 5242) and "order:456:status" (slot 9813) hash to different slots`,
			fix:    `give them a common hashtag such as "{sku123}"`,
		},
		{name: "fixed watch", keys: []Key{Lit("inventory:{sku123}"), Lit("order:{sku123}:456")}, want: Same},
		{
			// Redis ignores an empty "{}" and hashes the whole key, a
			// later "{u}" too (clustercheck's TestVerifyParity checks "{}{a}"
			// live); the suggested tag holds no brace of the keys.
			name:   "empty hashtag",
			keys:   []Key{Lit("{}{u}:a"), Lit("{}{u}:b")},
			want:   Different,
			reason: `keys "{}{u}:a" (slot 1880) and "{}{u}:b" (slot 14139) hash to different slots`,
			fix:    `an empty "{}" is no hashtag (Redis hashes the whole key); give them a common hashtag such as "{u}"`,
		},
		{
			name:   "empty hashtag alone",
			keys:   []Key{Lit("{}:a"), Lit("{}:b")},
			want:   Different,
			reason: `keys "{}:a" (slot 4330) and "{}:b" (slot 8329) hash to different slots`,
			fix:    `an empty "{}" is no hashtag (Redis hashes the whole key); give them a common hashtag such as "{a}"`,
		},
		{name: "untagged key equals a tag", keys: []Key{Lit("ingress"), Lit("{ingress}_x"), Lit("{ingress}:y")}, want: Same},
		{name: "one key", keys: []Key{v("a")}, want: Same},
		{name: "no keys", want: Same},
		{
			name: "same tag value",
			keys: []Key{Concat(Lit("emq:{"), v("q"), Lit("}:job:"), v("id")), Concat(Lit("emq:{"), v("q"), Lit("}:pending"))},
			want: Same,
		},
		{
			name: "templates from the same value",
			keys: []Key{job.Apply([]Key{v("q"), v("id")}), pending.Apply([]Key{v("q")})},
			want: Same,
		},
		{
			name:   "queue list and a queue's keys",
			keys:   []Key{Lit("emq:queues"), pending.Symbolic()},
			want:   Maybe,
			reason: `keys "emq:queues" (slot 8388) and "emq:{<queue>}:pending" (hashtag "{<queue>}") may hash to different slots`,
			fix:    `no common hashtag proves they share one; give them a common hashtag such as "{<queue>}"`,
		},
		{
			name: "different tag values",
			keys: []Key{Concat(Lit("emq:{"), v("q"), Lit("}:a")), Concat(Lit("emq:{"), v("r"), Lit("}:a"))},
			want: Maybe,
		},
		{
			name: "anonymous unknowns are never equal",
			keys: []Key{Concat(Lit("{"), Unknown("", "x", true), Lit("}")), Concat(Lit("{"), Unknown("", "x", true), Lit("}"))},
			want: Maybe,
		},
		{
			name: "an unknown before the brace may hold one",
			keys: []Key{Concat(v("prefix"), Lit("{orders}:a")), Lit("{orders}:b")},
			want: Maybe,
		},
		{
			name: "the same key, whatever its unknowns hold",
			keys: []Key{Concat(Lit("a:"), v("q")), Concat(Lit("a:"), v("q"))},
			want: Same,
		},
		{
			name: "the same unknown prefix before the same hashtag",
			keys: []Key{Concat(v("prefix"), Lit("{"), v("id"), Lit("}:a")), Concat(v("prefix"), Lit("{"), v("id"), Lit("}:b"))},
			want: Same,
		},
		{
			name: "the same unknown prefix, hashtags differ",
			keys: []Key{Concat(v("prefix"), Lit("{a}")), Concat(v("prefix"), Lit("{b}"))},
			want: Maybe,
		},
		{
			name: "an unknown without braces before the brace",
			keys: []Key{Concat(n("prefix"), Lit("{orders}:a")), Lit("{orders}:b")},
			want: Same,
		},
		{
			name: "an unclosed brace followed by an unknown",
			keys: []Key{Concat(Lit("a{"), v("x")), Lit("a{")},
			want: Maybe,
		},
		{
			name:   "differences after the last unknown are decided by linearity",
			keys:   []Key{Concat(Lit("user:"), n("id"), Lit(":a")), Concat(Lit("user:"), n("id"), Lit(":b"))},
			want:   Different,
			reason: `keys "user:<id>:a" (no hashtag) and "user:<id>:b" (no hashtag) hash to different slots`,
			fix:    `give them a common hashtag such as "{user:<id>}"`,
		},
		{
			name: "a difference before an unknown of unknown length",
			keys: []Key{Concat(Lit("a:"), n("id")), Concat(Lit("b:"), n("id"))},
			want: Maybe,
		},
		{
			name: "an unknown that may hold braces defeats linearity",
			keys: []Key{Concat(Lit("user:"), v("id"), Lit(":a")), Concat(Lit("user:"), v("id"), Lit(":b"))},
			want: Maybe,
		},
		{
			name: "proof found past a maybe",
			keys: []Key{v("x"), Lit("a"), Lit("b")},
			want: Different,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Colocate(tt.keys...)
			if c.Verdict != tt.want {
				t.Fatalf("verdict %v (%s), want %v", c.Verdict, c.Reason, tt.want)
			}
			if tt.reason != "" && c.Reason != tt.reason {
				t.Errorf("reason\n got %s\nwant %s", c.Reason, tt.reason)
			}
			if tt.fix != "" && c.Fix != tt.fix {
				t.Errorf("fix\n got %s\nwant %s", c.Fix, tt.fix)
			}
			if tt.want == Same && (c.Reason != "" || c.Fix != "") {
				t.Errorf("same, with reason %q and fix %q", c.Reason, c.Fix)
			}
		})
	}
}

// TestLinearCompareAgreesWithSlots checks the linearity proof against real
// slots: for many values of the shared unknown, the verdict holds.
func TestLinearCompareAgreesWithSlots(t *testing.T) {
	a := Concat(Lit("order:"), n("id"), Lit(":status"))
	for _, suffix := range []string{":statux", ":STATUS", ":items!", ":status"} {
		b := Concat(Lit("order:"), n("id"), Lit(suffix))
		verdict := Colocate(a, b).Verdict
		for id := range 500 {
			x := Concat(Lit("order:"), Lit(strings.Repeat("7", id%9)+string(rune('a'+id%26))), Lit(":status"))
			y := Concat(Lit("order:"), Lit(strings.Repeat("7", id%9)+string(rune('a'+id%26))), Lit(suffix))
			got := Colocate(x, y).Verdict
			if got != verdict {
				t.Fatalf("suffix %q: symbolic verdict %v, but for a concrete id the verdict is %v", suffix, verdict, got)
			}
		}
	}
}

func TestSuggestTag(t *testing.T) {
	tests := []struct {
		keys []Key
		want string
	}{
		{[]Key{Lit("tmp:user:123:cache"), Lit("user:123:cache")}, "{user:123}"},
		{[]Key{Lit("inventory:sku123"), Lit("order:456:status")}, "{sku123}"},
		{[]Key{Lit("user:1"), Lit("user:2")}, "{user}"},
		{[]Key{Lit("bikes:racing:france"), Lit("bikes:racing:usa")}, "{bikes:racing}"},
		{[]Key{Lit("racer_ages"), Lit("bikes:sales")}, "{racer_ages}"},
		{[]Key{Lit("emq:queues"), Lit("emq:{orders}:pending")}, "{orders}"},
		// One template whose hole differs: the tag stops before it.
		{[]Key{Concat(Lit("pulse:stream:"), Unknown("a", "name", false)), Concat(Lit("pulse:stream:"), Unknown("b", "name", false))}, "{pulse:stream}"},
		{[]Key{Concat(Lit("fanal::"), Unknown("a", "id", false)), Concat(Lit("fanal::"), Unknown("b", "id", false))}, "{fanal}"},
		// A leading value, a prefix, stays in the tag; the tag stops before
		// the next value.
		{[]Key{Concat(Unknown("p", "prefix", false), Lit(":msg:"), Unknown("a", "id", false)), Concat(Unknown("p", "prefix", false), Lit(":msg:"), Unknown("b", "id", false))}, "{<prefix>:msg}"},
		{[]Key{Concat(Unknown("p", "prefix", false), Unknown("a", "id", true)), Concat(Unknown("p", "prefix", false), Unknown("b", "id", true))}, "{<prefix>}"},
	}
	for _, tt := range tests {
		if got := SuggestTag(tt.keys...); got != tt.want {
			t.Errorf("SuggestTag(%v) = %s, want %s", tt.keys, got, tt.want)
		}
	}
}

func TestSubject(t *testing.T) {
	tests := []struct {
		key  Key
		kind SubjectKind
		text string
	}{
		{Lit("foo"), SubjectWhole, "foo"},
		{Lit("foo{}{bar}"), SubjectWhole, "foo{}{bar}"},
		{Lit("foo{{bar}}zap"), SubjectTag, "{bar"},
		{Concat(Lit("emq:{"), v("q"), Lit("}:x")), SubjectTag, "<q>"},
		{Concat(Lit("emq:{"), v("q"), Lit(":"), n("id"), Lit("}")), SubjectTag, "<q>:<id>"},
		{Concat(n("a"), Lit(":"), n("b")), SubjectWhole, "<a>:<b>"},
		{Concat(v("a"), Lit(":{x}")), SubjectUnknown, ""},
		{Concat(Lit("x:"), v("a")), SubjectUnknown, ""},
		{Concat(Lit("{}"), v("a")), SubjectWhole, "{}<a>"},
	}
	for _, tt := range tests {
		s := tt.key.Subject()
		if got := (Key{Parts: s.Parts}).String(); s.Kind != tt.kind || got != tt.text {
			t.Errorf("Subject(%s) = %v %q, want %v %q", tt.key, s.Kind, Key{Parts: s.Parts}, tt.kind, tt.text)
		}
	}
}

func TestKeyAppendMergesLiterals(t *testing.T) {
	k := Concat(Lit("a"), Lit(""), Lit("b"), v("x"), Lit("c"), Lit("d"))
	if len(k.Parts) != 3 || k.String() != "ab<x>cd" {
		t.Fatalf("parts %#v", k.Parts)
	}
	if !k.Equal(Concat(Lit("ab"), v("x"), Lit("cd"))) {
		t.Error("equal keys built differently are not Equal")
	}
}

// A value of a template without a hashtag may hold a '}' (Build lets it: the
// key is hashed whole all the same), so the same value inside another key's
// braces may be cut short there: "a}b" is hashed whole, "{a}b}" hashes "a".
func TestColocateTemplateValueInBraces(t *testing.T) {
	for _, tc := range []struct {
		tmpl  string
		other Key
	}{
		{"<a>", Concat(Lit("{"), v("x"), Lit("}"))},
		{"<a>ab", Concat(Lit("{"), v("x"), Lit("cd}"))},
	} {
		keys := []Key{MustTemplate(tc.tmpl).Apply([]Key{v("x")}), tc.other}
		if c := Colocate(keys...); c.Verdict != Maybe {
			t.Errorf("Colocate(%s, %s) = %v (%s), want maybe", keys[0].Quote(), keys[1].Quote(), c.Verdict, c.Reason)
		}
	}
	// When the value holds no brace, the verdict stands.
	keys := []Key{MustTemplate("<a>").Apply([]Key{n("x")}), Concat(Lit("{"), n("x"), Lit("}:b"))}
	if c := Colocate(keys...); c.Verdict != Same {
		t.Errorf("Colocate(%s, %s) = %v (%s), want same", keys[0].Quote(), keys[1].Quote(), c.Verdict, c.Reason)
	}
}

// "{}" is no hashtag: keys that begin with it are hashed whole, so a common
// "{}" proves nothing (found by FuzzColocate).
// Keys that begin with one configured prefix and go on to one hashtag
// share a slot (kakao-bots' pending queue, "<prefix>:data:{<chat>}" and
// "<prefix>:order:{<chat>}"): a prefix with no brace leaves the hashtag,
// one with a whole "{...}" is the hashtag of both. Two prefixes, or a
// hashtag of another value, may still differ.
func TestColocateSharedPrefixThenTag(t *testing.T) {
	data := Concat(v("prefix"), Lit(":data:{"), v("chat"), Lit("}"))
	order := Concat(v("prefix"), Lit(":order:{"), v("chat"), Lit("}"))
	if c := Colocate(data, order); c.Verdict != Same {
		t.Errorf("Colocate(%s, %s) = %v (%s), want same", data.Quote(), order.Quote(), c.Verdict, c.Reason)
	}
	for _, other := range []Key{
		Concat(v("other"), Lit(":order:{"), v("chat"), Lit("}")),
		Concat(v("prefix"), Lit(":order:{"), v("user"), Lit("}")),
		Concat(v("prefix"), Lit(":order")),
	} {
		if c := Colocate(data, other); c.Verdict != Maybe {
			t.Errorf("Colocate(%s, %s) = %v, want maybe", data.Quote(), other.Quote(), c.Verdict)
		}
	}
}

func TestColocateEmptyBracesPrefix(t *testing.T) {
	keys := []Key{Concat(Lit("{}{"), n("x"), n("x")), Lit("{}")}
	if c := Colocate(keys...); c.Verdict == Same {
		t.Errorf("Colocate(%s, %s) = same, want maybe: %q and %q differ", keys[0].Quote(), keys[1].Quote(), "{}{00", "{}")
	}
	keys = []Key{Concat(Lit("{}:a:"), v("id")), Concat(Lit("{}:b:"), v("id"))}
	if c := Colocate(keys...); c.Verdict == Same {
		t.Errorf("Colocate(%s, %s) = same, want maybe", keys[0].Quote(), keys[1].Quote())
	}
	// A filled hashtag in common still proves it.
	keys = []Key{Concat(Lit("{q}:a:"), v("id")), Concat(Lit("{q}:b:"), v("id"), Lit(":x"))}
	if c := Colocate(keys...); c.Verdict != Same {
		t.Errorf("Colocate(%s, %s) = %v, want same", keys[0].Quote(), keys[1].Quote(), c.Verdict)
	}
}

// A template's key followed by more text: the marks Apply puts on a value
// say only what Build lets it hold where it stands, so "{" + x + "}" after
// it still reads x as cut short at its first '}' (found by FuzzColocate).
func TestColocateTemplateKeyThenBraces(t *testing.T) {
	if k, err := MustTemplate("<a>").Build("{"); err == nil {
		t.Errorf(`"<a>".Build("{") = %q, want an error: a template without a hashtag takes no '{'`, k)
	}
	a := Concat(MustTemplate("<a>").Apply([]Key{v("x")}), Lit("{"), v("x"), Lit("}"))
	b := Concat(Lit("{"), v("x"), Lit("}"))
	// x + "{" + x + "}" and "{" + x + "}" hash the same hashtag, x cut at
	// its first '}' in both, whatever x holds.
	if c := Colocate(a, b); c.Verdict != Same {
		t.Errorf("Colocate(%s, %s) = %v (%s), want same", a.Quote(), b.Quote(), c.Verdict, c.Reason)
	}
	// Before the hashtag section a value may hold a '}', so inside another
	// key's braces it may cut them short.
	job := MustTemplate("<p>:{<q>}")
	a = Concat(Lit("{"), job.Apply([]Key{v("x"), v("y")}))
	b = Concat(Lit("{"), v("x"), Lit(":{"), n("y"), Lit("}:z"))
	if c := Colocate(a, b); c.Verdict != Same {
		t.Errorf("Colocate(%s, %s) = %v (%s), want same", a.Quote(), b.Quote(), c.Verdict, c.Reason)
	}
	if c := Colocate(Concat(Lit("{"), job.Apply([]Key{v("x"), v("y")})), Concat(Lit("{"), v("x"), Lit(":{"), n("y"), Lit("!"))); c.Verdict == Different {
		t.Errorf("Colocate = different (%s), but x may hold a '}' that cuts both hashtags alike", c.Reason)
	}
}

// A value checked for a brace where one key is built: Redisson's
// prefixName gives "prefix:{name}" when the name holds none, and
// "prefix:name" when it holds one, each in the name's slot; what the check
// says holds of the name in the other key too.
func TestColocateBraceChecked(t *testing.T) {
	name := v("name")
	with := func(f func(*Part)) Key {
		k := v("name")
		f(&k.Parts[0])
		return k
	}
	noBraces := with(func(p *Part) { p.NoBraces = true })
	braced := with(func(p *Part) { p.Braced = true })
	for _, tc := range []struct {
		other Key
		want  Verdict
	}{
		{Concat(Lit("lock:{"), noBraces, Lit("}")), Same},
		{Concat(Lit("lock:"), braced), Same},
		{Concat(Lit("lock:{"), name, Lit("}")), Maybe},
		{Concat(Lit("lock:"), name), Maybe},
		{Concat(Lit("lock:{x}:"), braced), Maybe},
		{Concat(Lit("lock:"), with(func(p *Part) { p.Braced, p.ID = true, "other" })), Maybe},
	} {
		if c := Colocate(name, tc.other); c.Verdict != tc.want {
			t.Errorf("Colocate(%s, %s) = %v (%s), want %v", name.Quote(), tc.other.Quote(), c.Verdict, c.Reason, tc.want)
		}
	}
}
