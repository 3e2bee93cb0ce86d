package keyspace

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/slot"
)

// SubjectKind says what Redis hashes of a key, as far as it is known.
type SubjectKind int

const (
	// SubjectWhole: the key has no hashtag; Redis hashes the whole key.
	SubjectWhole SubjectKind = iota
	// SubjectTag: Redis hashes the key's non-empty hashtag.
	SubjectTag
	// SubjectUnknown: an unknown part that may hold a brace decides where
	// the hashtag is, or whether there is one.
	SubjectUnknown
)

// A Subject is the part of a key that Redis hashes.
type Subject struct {
	Kind  SubjectKind
	Parts []Part // the hashed text; nil for SubjectUnknown
}

// Subject returns what Redis hashes of k. It follows Redis's rule, the first
// '{' and the first '}' after it, over literal text; an unknown part that may
// hold a '{' before the first literal one, or a '}' after it when no literal
// '}' follows, makes the subject unknown. An unknown inside the braces that
// may hold a '}' leaves the subject known in the sense that matters: the
// same parts give the same hashtag.
func (k Key) Subject() Subject {
	for i, p := range k.Parts {
		if p.Unknown {
			if p.Braced && !p.NoBraces && p.ID != "" {
				// The value's own hashtag, whatever it is.
				return Subject{Kind: SubjectTag, Parts: []Part{{Unknown: true, ID: "{" + p.ID + "}", Name: "{" + p.Name + "}", NoBraces: true}}}
			}
			if p.mayOpen() {
				return Subject{Kind: SubjectUnknown}
			}
			continue
		}
		open := strings.IndexByte(p.Lit, '{')
		if open < 0 {
			continue
		}
		rest := append([]Part{{Lit: p.Lit[open+1:]}}, k.Parts[i+1:]...)
		var content Key
		for _, q := range rest {
			if q.Unknown {
				content = content.Append(Key{Parts: []Part{q}})
				continue
			}
			end := strings.IndexByte(q.Lit, '}')
			if end < 0 {
				content = content.Append(Lit(q.Lit))
				continue
			}
			content = content.Append(Lit(q.Lit[:end]))
			if len(content.Parts) == 0 { // "{}": the whole key
				return Subject{Kind: SubjectWhole, Parts: k.Parts}
			}
			return Subject{Kind: SubjectTag, Parts: content.Parts}
		}
		// No literal '}' closes the braces: an unknown after them might.
		for _, q := range rest {
			if q.mayClose() {
				return Subject{Kind: SubjectUnknown}
			}
		}
		return Subject{Kind: SubjectWhole, Parts: k.Parts}
	}
	return Subject{Kind: SubjectWhole, Parts: k.Parts}
}

// Slot returns the subject's slot when its text is known.
func (s Subject) Slot() (int, bool) {
	if s.Kind == SubjectUnknown {
		return 0, false
	}
	k := Key{Parts: s.Parts}
	text, ok := k.Literal()
	if !ok {
		return 0, false
	}
	return int(slot.CRC16(text) & (slot.Count - 1)), true
}

// Slot returns the key's slot when it is known. Unknown parts may leave it
// known, as in "{user}:" + id.
func (k Key) Slot() (int, bool) { return k.Subject().Slot() }

// Verdict is the answer to whether keys share a slot.
type Verdict int

const (
	// Same: the keys provably share a slot.
	Same Verdict = iota
	// Maybe: nothing proves the keys share a slot, nor that they do not.
	Maybe
	// Different: the keys provably hash to different slots.
	Different
)

func (v Verdict) String() string {
	switch v {
	case Same:
		return "same"
	case Maybe:
		return "maybe"
	case Different:
		return "different"
	}
	return "Verdict(" + strconv.Itoa(int(v)) + ")"
}

// A Colocation is the verdict on a set of keys, with its reason.
type Colocation struct {
	Verdict Verdict
	// Reason names the keys the verdict rests on, each with its slot or
	// hashtag: `keys "a" (slot 15495) and "b" (slot 3300) hash to different
	// slots`. It is empty when the verdict is Same.
	Reason string
	// Fix suggests a common hashtag: `give them a common hashtag such as
	// "{user:123}"`. It is empty when the verdict is Same.
	Fix string
	// Pair indexes the two keys, in the keys given to Colocate, that the
	// reason is about.
	Pair [2]int
}

// Colocate says whether keys share one slot. Two keys share a slot when their
// slots are known and equal, or when their hashed parts are the same: the
// same literal text and the same identified unknowns. Two keys provably
// differ when their slots are known and differ, or when they differ only in
// literal bytes that come after their last unknown (CRC16 is linear, so the
// unknowns cancel out).
//
// Colocate takes it that unknowns never make a key's first braces an empty
// "{}", which would have Redis hash the whole key: a value that alone fills
// the braces, as id in "{" + id + "}:a", is not empty, and a value that may
// hold braces puts neither brace of such a pair. Keys of templates meet
// this, since Build refuses empty values and values that move the hashtag.
func Colocate(keys ...Key) Colocation {
	keys, ok := shareBraces(keys)
	if !ok {
		// No run builds these keys together: one value would both hold a
		// brace and hold none.
		return Colocation{Verdict: Same}
	}
	subjects := make([]Subject, len(keys))
	for i, k := range keys {
		subjects[i] = k.Subject()
	}
	// reps holds one index per class of keys known to share a slot.
	var reps []int
	maybe := -1
	var maybePair [2]int
	for i := range keys {
		joined := false
		for _, r := range reps {
			switch compareKeys(keys[r], keys[i], subjects[r], subjects[i]) {
			case Same:
				joined = true
			case Different:
				return Colocation{
					Verdict: Different,
					Reason:  fmt.Sprintf("keys %s and %s hash to different slots", describe(keys[r], subjects[r]), describe(keys[i], subjects[i])),
					Fix:     emptyTagNote(keys[r], keys[i]) + "give them a common hashtag such as " + strconv.Quote(SuggestTag(keys[r], keys[i])),
					Pair:    [2]int{r, i},
				}
			case Maybe:
				if maybe < 0 {
					maybe, maybePair = i, [2]int{r, i}
				}
			}
			if joined {
				break
			}
		}
		if !joined {
			reps = append(reps, i)
		}
	}
	if len(reps) <= 1 {
		return Colocation{Verdict: Same}
	}
	a, b := maybePair[0], maybePair[1]
	return Colocation{
		Verdict: Maybe,
		Reason:  fmt.Sprintf("keys %s and %s may hash to different slots", describe(keys[a], subjects[a]), describe(keys[b], subjects[b])),
		Fix:     "no common hashtag proves they share one; " + emptyTagNote(keys[a], keys[b]) + "give them a common hashtag such as " + strconv.Quote(SuggestTag(keys[a], keys[b])),
		Pair:    maybePair,
	}
}

// shareBraces returns keys in which what one unknown says of its braces
// holds for every unknown of the same identity: they are one value, and
// what the code checked of it where it built one key (no brace there,
// strings.Contains(name, "{") false) holds in the run that builds them
// all. False when one value is said to hold a brace and to hold none: the
// keys come from two branches of one check, never built together.
func shareBraces(keys []Key) ([]Key, bool) {
	var none, held map[string]bool
	for _, k := range keys {
		for _, p := range k.Parts {
			if p.Unknown && p.ID != "" && (p.NoBraces || p.Braced) {
				if none == nil {
					none, held = map[string]bool{}, map[string]bool{}
				}
				none[p.ID] = none[p.ID] || p.NoBraces
				held[p.ID] = held[p.ID] || p.Braced
			}
		}
	}
	if none == nil {
		return keys, true
	}
	for id := range none {
		if none[id] && held[id] {
			return nil, false
		}
	}
	// The callers' keys are left as they are: a key that changes is a
	// copy.
	out := slices.Clone(keys)
	for i, k := range keys {
		for j, p := range k.Parts {
			if !p.Unknown || p.ID == "" || p.NoBraces == none[p.ID] && p.Braced == held[p.ID] {
				continue
			}
			if len(out[i].Parts) > 0 && &out[i].Parts[0] == &k.Parts[0] {
				out[i].Parts = slices.Clone(k.Parts)
			}
			out[i].Parts[j].NoBraces, out[i].Parts[j].Braced = none[p.ID], held[p.ID]
		}
	}
	return out, true
}

// compareKeys says whether two keys share a slot.
func compareKeys(ka, kb Key, a, b Subject) Verdict {
	if ka.Equal(kb) {
		return Same
	}
	if v := compare(a, b); v != Maybe || !sharedHashtag(ka, kb) && !closedLead(ka, kb) {
		return v
	}
	return Same
}

// closedLead reports whether two keys that begin with the same unknown
// value, a configured prefix, share a slot whatever the value holds but a
// '{' it leaves open: "<prefix>:data:{<id>}" and "<prefix>:order:{<id>}".
// A value with no '{' leaves the hashtag that the rest of the keys give,
// and one that holds a whole "{...}" is the hashtag of both. Only a value
// that opens a brace and never closes it ("a{b") would pull the rest of
// each key into its hashtag; Colocate takes no value to do that.
func closedLead(a, b Key) bool {
	if len(a.Parts) < 2 || len(b.Parts) < 2 || !a.Parts[0].mayOpen() || !partsEqual(a.Parts[:1], b.Parts[:1]) {
		return false
	}
	na, nb := openless(a), openless(b)
	return compareKeys(na, nb, na.Subject(), nb.Subject()) == Same
}

// openless returns k with its first part known to hold no '{'.
func openless(k Key) Key {
	parts := slices.Clone(k.Parts)
	parts[0].NoOpen = true
	return Key{Parts: parts, Choices: k.Choices}
}

// sharedHashtag reports whether two keys begin with the same text up to and
// including a literal '{', something, and a literal '}' after it: the first
// '{' and the first '}' after it then lie in that common text, whatever its
// unknowns hold, so both keys hash the same hashtag. When the first '}'
// comes right after the first '{', Redis hashes the whole keys, which
// differ. (Should an unknown there hold an empty "{}", both hash their whole
// keys too; Colocate takes no unknown to make a hashtag empty so.)
func sharedHashtag(a, b Key) bool {
	// open is true after the first '{'; filled once something follows it.
	open, filled := false, false
	for i := 0; i < len(a.Parts) && i < len(b.Parts); i++ {
		pa, pb := a.Parts[i], b.Parts[i]
		if pa.Unknown || pb.Unknown {
			if !partsEqual(a.Parts[i:i+1], b.Parts[i:i+1]) {
				return false
			}
			filled = open
			continue
		}
		common := pa.Lit
		if pa.Lit != pb.Lit {
			n := 0
			for n < len(pa.Lit) && n < len(pb.Lit) && pa.Lit[n] == pb.Lit[n] {
				n++
			}
			common = pa.Lit[:n]
		}
		for j := 0; j < len(common); j++ {
			switch {
			case !open:
				open = common[j] == '{'
			case common[j] == '}':
				// "{}": Redis hashes the whole key, which differs.
				return filled
			default:
				filled = true
			}
		}
		if pa.Lit != pb.Lit {
			return false
		}
	}
	return false
}

// compare says whether two hash subjects share a slot.
func compare(a, b Subject) Verdict {
	if a.Kind == SubjectUnknown || b.Kind == SubjectUnknown {
		return Maybe
	}
	if partsEqual(a.Parts, b.Parts) && (a.Kind == b.Kind || uncut(a.Parts, b.Parts)) {
		return Same
	}
	sa, oka := a.Slot()
	sb, okb := b.Slot()
	if oka && okb {
		if sa == sb {
			return Same
		}
		return Different
	}
	return linearCompare(a, b)
}

// uncut reports whether no unknown of two subjects of the same shape may
// hold a '}': one inside a hashtag would cut it short there, the same in
// both keys when both are hashtags, but a key hashed whole is not cut. The
// same unknown holds the same value, so what one of its parts says of the
// value holds for the other.
func uncut(a, b []Part) bool {
	for i := range a {
		if a[i].mayClose() && b[i].mayClose() {
			return false
		}
	}
	return true
}

// linearCompare compares two subjects of the same shape: the same unknowns
// at the same places, and literal parts of equal lengths. CRC16 with initial
// value 0 is linear, so slot(x) XOR slot(y) is the CRC of x XOR y, in which
// equal unknowns are zero bytes. Leading zero bytes do not change that CRC,
// whatever their number, so when every unknown comes before the first byte
// that differs, the CRC of the rest decides.
//
// A hashtag's unknowns must hold no '}' that would cut it short.
func linearCompare(sa, sb Subject) Verdict {
	a, b := sa.Parts, sb.Parts
	whole := sa.Kind == SubjectWhole && sb.Kind == SubjectWhole
	if len(a) != len(b) {
		return Maybe
	}
	var diff []byte
	for i := range a {
		if a[i].Unknown != b[i].Unknown {
			return Maybe
		}
		if a[i].Unknown {
			cut := !whole && a[i].mayClose() && b[i].mayClose()
			if a[i].ID == "" || a[i].ID != b[i].ID || cut || len(diff) > 0 {
				return Maybe
			}
			continue
		}
		if len(a[i].Lit) != len(b[i].Lit) {
			return Maybe
		}
		for j := 0; j < len(a[i].Lit); j++ {
			if x := a[i].Lit[j] ^ b[i].Lit[j]; x != 0 || len(diff) > 0 {
				diff = append(diff, x)
			}
		}
	}
	if slot.CRC16(diff)&(slot.Count-1) == 0 {
		return Same
	}
	return Different
}

// describe shows a key with its slot, or with what decides its slot.
func describe(k Key, s Subject) string {
	if n, ok := s.Slot(); ok {
		return fmt.Sprintf("%s (slot %d)", k.Quote(), n)
	}
	switch s.Kind {
	case SubjectTag:
		return fmt.Sprintf("%s (hashtag %s)", k.Quote(), strconv.Quote("{"+Key{Parts: s.Parts}.String()+"}"))
	case SubjectWhole:
		return fmt.Sprintf("%s (no hashtag)", k.Quote())
	}
	return fmt.Sprintf("%s (hashtag unknown)", k.Quote())
}

// SuggestTag proposes a hashtag, braces included, that keys could share: a
// hashtag one of them already has; else the run of ':'-separated segments
// they have in common, down to its last segment with an identifier in it (a
// digit or an unknown) if it has one; else the first key's first such
// segment, or its first segment.
func SuggestTag(keys ...Key) string {
	for _, k := range keys {
		if s := k.Subject(); s.Kind == SubjectTag {
			return "{" + Key{Parts: s.Parts}.String() + "}"
		}
	}
	// No key has a hashtag: the keys' own text, without their braces,
	// which a tag's content cannot hold ("{}:a" and "{}:b" suggest "{a}",
	// not "{{}}").
	var bare []Key
	for _, k := range keys {
		bare = append(bare, k.withoutBraces())
	}
	keys = bare
	if len(keys) == 0 {
		return "{tag}"
	}
	if fixed, ok := beforeValue(keys); ok {
		// One template whose values differ from key to key: a tag with
		// a value in it would differ as they do.
		return "{" + fixed.String() + "}"
	}
	segs := make([][]string, len(keys))
	for i, k := range keys {
		segs[i] = strings.Split(k.String(), ":")
	}
	common := commonRun(segs)
	trimmed := common
	for len(trimmed) > 0 && !idLike(trimmed[len(trimmed)-1]) {
		trimmed = trimmed[:len(trimmed)-1]
	}
	if len(trimmed) > 0 {
		return "{" + strings.Join(trimmed, ":") + "}"
	}
	if len(common) > 0 && strings.Join(common, "") != "" {
		return "{" + strings.Join(common, ":") + "}"
	}
	for _, s := range segs[0] {
		if idLike(s) {
			return "{" + s + "}"
		}
	}
	for _, s := range segs[0] {
		if s != "" {
			return "{" + s + "}"
		}
	}
	return "{tag}"
}

// withoutBraces is k with the braces of its literal text removed.
func (k Key) withoutBraces() Key {
	out := Key{Choices: k.Choices}
	for _, p := range k.Parts {
		if !p.Unknown {
			p.Lit = strings.NewReplacer("{", "", "}", "").Replace(p.Lit)
		}
		out.Parts = append(out.Parts, p)
	}
	return out
}

// emptyTagNote says, when a key's first brace opens an empty "{}", that
// Redis takes it for no hashtag; "" otherwise.
// beforeValue returns, when every key is written alike (one template
// built from different values), its text before the first value that is
// not its leading prefix ("users:<room>:<id>": "users"; "<s.prefix>:
// friends:<id>": "<s.prefix>:friends"), the separators that end it
// trimmed ("fanal::<id>": "fanal"); false when there is none.
func beforeValue(keys []Key) (Key, bool) {
	if len(keys) < 2 {
		return Key{}, false
	}
	text := keys[0].String()
	for _, k := range keys[1:] {
		if k.String() != text {
			return Key{}, false
		}
	}
	parts := keys[0].Parts
	i := 1 + slices.IndexFunc(parts[min(1, len(parts)):], func(p Part) bool { return p.Unknown })
	if i <= 0 {
		return Key{}, false
	}
	fixed := slices.Clone(parts[:i])
	if p := &fixed[len(fixed)-1]; !p.Unknown {
		if p.Lit = strings.TrimRight(p.Lit, ":/_-.|#"); p.Lit == "" {
			fixed = fixed[:len(fixed)-1]
		}
	}
	return Key{Parts: fixed}, len(fixed) > 0
}

func emptyTagNote(keys ...Key) string {
	for _, k := range keys {
		for _, p := range k.Parts {
			if p.Unknown {
				if p.mayOpen() {
					break
				}
				continue
			}
			if i := strings.IndexByte(p.Lit, '{'); i >= 0 {
				if strings.HasPrefix(p.Lit[i:], "{}") {
					return `an empty "{}" is no hashtag (Redis hashes the whole key); `
				}
				break
			}
		}
	}
	return ""
}

func idLike(seg string) bool {
	return strings.ContainsAny(seg, "0123456789<")
}

// commonRun returns the longest run of consecutive segments that every list
// holds, the first such run of the first list among equals.
func commonRun(lists [][]string) []string {
	first := lists[0]
	var best []string
	for i := range first {
		for j := i + len(best) + 1; j <= len(first); j++ {
			run := first[i:j]
			all := true
			for _, l := range lists[1:] {
				if !containsRun(l, run) {
					all = false
					break
				}
			}
			if !all {
				break
			}
			best = run
		}
	}
	return best
}

func containsRun(list, run []string) bool {
	for i := 0; i+len(run) <= len(list); i++ {
		match := true
		for j := range run {
			if list[i+j] != run[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
