package luacheck

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// A kind is what the analysis knows about a Lua value.
type kind uint8

const (
	kKey       kind = iota // an element of KEYS: KEYS[idx], idx 0 when the index is not a constant
	kArg                   // an element of ARGV: ARGV[idx]
	kLit                   // a string constant: text
	kNum                   // a number: text when it is a constant
	kConcat                // a concatenation of parts
	kRedis                 // a value read from Redis by site
	kDerived               // a string built from values by a function: text says how
	kOpaque                // a value not traced: text says what it is
	kNil                   // nil
	kBool                  // a boolean
	kKeysTable             // the KEYS table
	kArgvTable             // the ARGV table
	kTable                 // a table made in the script
	kFunc                  // a function defined in the script
	kRedisFn               // redis.call and the like: text is its name
	kBuiltin               // a library function or table: text is its name
)

// A value is an abstract Lua value. Values are immutable, but for the
// contents of a table, and compared by id.
type value struct {
	kind  kind
	idx   int
	text  string
	parts []*value // kConcat
	from  []*value // kDerived: the values it is built from
	site  *site    // kRedis
	fn    *closure // kFunc
	tab   *table   // kTable
	id    string
}

var (
	nilValue       = &value{kind: kNil, id: "nil"}
	boolValue      = &value{kind: kBool, id: "bool"}
	numValue       = &value{kind: kNum, id: "N"}
	keysTableValue = &value{kind: kKeysTable, id: "KEYS"}
	argvTableValue = &value{kind: kArgvTable, id: "ARGV"}
)

func keyValue(idx int) *value { return &value{kind: kKey, idx: idx, id: "K" + strconv.Itoa(idx)} }
func argValue(idx int) *value { return &value{kind: kArg, idx: idx, id: "A" + strconv.Itoa(idx)} }
func litValue(s string) *value {
	return &value{kind: kLit, text: s, id: "L" + strconv.Quote(s)}
}
func numLit(s string) *value { return &value{kind: kNum, text: s, id: "N" + s} }
func redisValue(s *site) *value {
	return &value{kind: kRedis, site: s, id: fmt.Sprintf("R%p", s)}
}
func opaque(desc string) *value { return &value{kind: kOpaque, text: desc, id: "O" + desc} }
func builtin(name string) *value {
	if name == "redis.call" || name == "redis.pcall" || name == "server.call" || name == "server.pcall" {
		return &value{kind: kRedisFn, text: name, id: "RF" + name}
	}
	return &value{kind: kBuiltin, text: name, id: "B" + name}
}
func funcValue(c *closure) *value { return &value{kind: kFunc, fn: c, id: fmt.Sprintf("F%p", c)} }
func tableValue(t *table) *value  { return &value{kind: kTable, tab: t, id: fmt.Sprintf("T%p", t)} }
func derived(how string, from ...*value) *value {
	ids := make([]string, len(from))
	for i, f := range from {
		ids[i] = f.id
	}
	return &value{kind: kDerived, text: how, from: from, id: "D" + how + "(" + strings.Join(ids, ",") + ")"}
}

// concatValue returns the concatenation of values, flattened.
func concatValue(vs ...*value) *value {
	var parts []*value
	for _, v := range vs {
		if v.kind == kConcat {
			parts = append(parts, v.parts...)
		} else {
			parts = append(parts, v)
		}
	}
	// Merge adjacent string constants, so equal concatenations have equal ids.
	var merged []*value
	for _, p := range parts {
		if p.kind == kLit && p.text == "" && len(parts) > 1 {
			continue
		}
		if n := len(merged); n > 0 && p.kind == kLit && merged[n-1].kind == kLit {
			merged[n-1] = litValue(merged[n-1].text + p.text)
			continue
		}
		merged = append(merged, p)
	}
	switch len(merged) {
	case 0:
		return litValue("")
	case 1:
		return merged[0]
	}
	ids := make([]string, len(merged))
	for i, p := range merged {
		ids[i] = p.id
	}
	return &value{kind: kConcat, parts: merged, id: "C(" + strings.Join(ids, ",") + ")"}
}

// stringish reports whether the value can be sent to Redis as an argument.
func (v *value) stringish() bool {
	switch v.kind {
	case kKey, kArg, kLit, kNum, kConcat, kRedis, kDerived, kOpaque:
		return true
	}
	return false
}

// A vset is the set of values an expression may have, without duplicates.
type vset []*value

// maxSet bounds a vset; past it the analysis gives up on the variable.
const maxSet = 16

var tooMany = opaque("one of many values")

func (s vset) has(v *value) bool {
	for _, x := range s {
		if x.id == v.id {
			return true
		}
	}
	return false
}

// union returns the values of a and b.
func union(a, b vset) vset {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := append(vset(nil), a...)
	for _, v := range b {
		if out.has(v) {
			continue
		}
		if len(out) >= maxSet {
			if !out.has(tooMany) {
				out[len(out)-1] = tooMany
			}
			break
		}
		out = append(out, v)
	}
	return out
}

func sameSet(a, b vset) bool {
	if len(a) != len(b) {
		return false
	}
	for _, v := range a {
		if !b.has(v) {
			return false
		}
	}
	return true
}

// one returns the set of a single value.
func one(v *value) vset { return vset{v} }

// intIndex returns the set's value as a table index when it is one integer
// constant.
func (s vset) intIndex() (int, bool) {
	if len(s) != 1 || s[0].kind != kNum {
		return 0, false
	}
	n, err := strconv.Atoi(s[0].text)
	if err != nil {
		f, ferr := strconv.ParseFloat(s[0].text, 64)
		if ferr != nil || f != float64(int(f)) {
			return 0, false
		}
		n = int(f)
	}
	return n, true
}

// A table is a table constructed in the script: its positional elements,
// its named fields, and what was stored at other keys.
type table struct {
	elems  []vset
	fields map[string]vset
	rest   vset
}

func (t *table) all() vset {
	var out vset
	for _, e := range t.elems {
		out = union(out, e)
	}
	for _, k := range sortedKeys(t.fields) {
		out = union(out, t.fields[k])
	}
	return union(out, t.rest)
}

func (t *table) get(key vset) vset {
	if i, ok := key.intIndex(); ok {
		if i >= 1 && i <= len(t.elems) {
			return union(t.elems[i-1], t.rest)
		}
		if len(t.rest) > 0 {
			return t.rest
		}
		return one(nilValue)
	}
	if len(key) == 1 && key[0].kind == kLit {
		if f, ok := t.fields[key[0].text]; ok {
			return union(f, t.rest)
		}
		if len(t.rest) > 0 {
			return t.rest
		}
		return one(nilValue)
	}
	return union(t.all(), one(nilValue))
}

func (t *table) set(key, val vset) {
	if i, ok := key.intIndex(); ok && i >= 1 && i <= len(t.elems)+1 {
		if i == len(t.elems)+1 {
			t.elems = append(t.elems, val)
		} else {
			t.elems[i-1] = union(t.elems[i-1], val)
		}
		return
	}
	if len(key) == 1 && key[0].kind == kLit {
		if t.fields == nil {
			t.fields = map[string]vset{}
		}
		t.fields[key[0].text] = union(t.fields[key[0].text], val)
		return
	}
	t.rest = union(t.rest, val)
}

// A spread is the open end of a list of values whose length the script does
// not fix: unpack(KEYS), unpack(t), "...".
type spread struct {
	from  *value // kKeysTable, kArgvTable, or nil for elems
	start int    // the index in KEYS or ARGV of the first element
	elems vset   // the elements, when from is nil
}

// elem returns the set of the spread's i-th element (0-based) as far as the
// analysis can tell without the call.
func (sp *spread) elem(i int) vset {
	switch {
	case sp.from == keysTableValue:
		return one(keyValue(sp.start + i))
	case sp.from == argvTableValue:
		return one(argValue(sp.start + i))
	}
	return sp.elems
}

func joinSpread(a, b *spread) *spread {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.from == b.from && a.start == b.start && a.from != nil:
		return a
	}
	return &spread{elems: union(union(a.elems, a.asElems()), union(b.elems, b.asElems()))}
}

func (sp *spread) asElems() vset {
	switch sp.from {
	case keysTableValue:
		return one(keyValue(0))
	case argvTableValue:
		return one(argValue(0))
	}
	return sp.elems
}

// keyOf models a value as a key for the call, as far as the call tells.
func keyOf(v *value, call *Call) keyspace.Key {
	switch v.kind {
	case kKey:
		if v.idx >= 1 && v.idx <= len(call.Keys) {
			return call.Keys[v.idx-1]
		}
		if v.idx == 0 {
			return keyspace.Unknown("KEYS[?]", "KEYS[?]", false)
		}
		name := "KEYS[" + strconv.Itoa(v.idx) + "]"
		return keyspace.Unknown(name, name, false)
	case kArg:
		if v.idx >= 1 && v.idx <= len(call.Args) {
			return call.Args[v.idx-1]
		}
		if v.idx == 0 {
			return keyspace.Unknown("", "ARGV[?]", false)
		}
		name := "ARGV[" + strconv.Itoa(v.idx) + "]"
		return keyspace.Unknown(name, name, false)
	case kLit:
		return keyspace.Lit(v.text)
	case kNum:
		if v.text != "" {
			return keyspace.Lit(v.text)
		}
		return keyspace.Unknown("", "number", true)
	case kConcat:
		ks := make([]keyspace.Key, len(v.parts))
		for i, p := range v.parts {
			ks[i] = keyOf(p, call)
		}
		return keyspace.Concat(ks...)
	case kRedis:
		return keyspace.Unknown("", "value read from Redis", false)
	}
	return keyspace.Unknown("", "untraced value", false)
}

// exprOf shows a value as the Lua expression it stands for, for messages.
func exprOf(v *value) string {
	switch v.kind {
	case kKey:
		if v.idx == 0 {
			return "KEYS[i]"
		}
		return "KEYS[" + strconv.Itoa(v.idx) + "]"
	case kArg:
		if v.idx == 0 {
			return "ARGV[i]"
		}
		return "ARGV[" + strconv.Itoa(v.idx) + "]"
	case kLit:
		return strconv.Quote(v.text)
	case kNum:
		if v.text != "" {
			return v.text
		}
		return "<number>"
	case kConcat:
		ps := make([]string, len(v.parts))
		for i, p := range v.parts {
			ps[i] = exprOf(p)
		}
		return strings.Join(ps, " .. ")
	case kRedis:
		return fmt.Sprintf("<value read from Redis at line %d>", v.site.line)
	case kNil:
		return "nil"
	case kBool:
		return "<boolean>"
	}
	return "<" + origin(v) + ">"
}

// origin says where a value comes from, for messages.
func origin(v *value) string {
	switch v.kind {
	case kKey:
		if v.idx == 0 {
			return "an element of KEYS"
		}
		return exprOf(v)
	case kArg:
		if v.idx == 0 {
			return "an element of ARGV"
		}
		return exprOf(v)
	case kLit:
		return "the string literal " + strconv.Quote(v.text)
	case kNum:
		if v.text != "" {
			return "the number " + v.text
		}
		return "a number"
	case kConcat:
		return "the concatenation " + exprOf(v)
	case kRedis:
		return fmt.Sprintf("a value read from Redis by %s at line %d", v.site.text, v.site.line)
	case kDerived:
		var from []string
		for _, f := range v.from {
			if f.kind == kLit || f.kind == kNum {
				continue
			}
			from = append(from, exprOf(f))
		}
		if len(from) == 0 {
			return "a value built by " + v.text
		}
		return "a value built by " + v.text + " from " + joinAnd(from)
	case kOpaque:
		return v.text
	case kNil:
		return "nil"
	case kBool:
		return "a boolean"
	case kKeysTable:
		return "the KEYS table"
	case kArgvTable:
		return "the ARGV table"
	case kTable:
		return "a table"
	case kFunc, kRedisFn, kBuiltin:
		return "a function"
	}
	return "a value"
}

// fromRedis reports whether a value holds something read from Redis.
func (v *value) fromRedis() bool {
	switch v.kind {
	case kRedis:
		return true
	case kConcat:
		for _, p := range v.parts {
			if p.fromRedis() {
				return true
			}
		}
	case kDerived:
		for _, p := range v.from {
			if p.fromRedis() {
				return true
			}
		}
	}
	return false
}

// hasKey reports whether a concatenation or derived value holds a KEYS element.
func (v *value) hasKey() bool {
	switch v.kind {
	case kKey:
		return true
	case kConcat:
		for _, p := range v.parts {
			if p.hasKey() {
				return true
			}
		}
	case kDerived:
		for _, p := range v.from {
			if p.hasKey() {
				return true
			}
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
