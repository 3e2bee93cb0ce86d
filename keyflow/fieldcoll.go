package keyflow

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"golang.org/x/tools/go/ssa"
)

// A slice held in a struct field, built once where the struct is made and
// sent whole later:
//
//	args := make([]interface{}, 0, len(jobNames)+4)
//	args = append(args, requeueKey, redisKeyDead(ns))
//	for _, jobName := range jobNames {
//		args = append(args, redisKeyJobs(ns, jobName))
//	}
//	args = append(args, redisKeyJobsPrefix(ns), 0)
//	return &requeuer{..., redisRequeueArgs: args}
//	...
//	r.redisRequeueArgs[len(r.redisRequeueArgs)-1] = nowEpochSeconds()
//	r.redisRequeueScript.Do(conn, r.redisRequeueArgs...)
//
// or grown by methods that append to it, a registry of keys:
//
//	return &Reader{streamKeys: []string{stream.key}}
//	...
//	r.streamKeys = append(r.streamKeys, stream.key)       // AddStream
//	r.streamKeys = append(r.streamKeys[:i], r.streamKeys[i+1:]...)
//
// The field holds what its one write of elements of its own stores, as
// the writing function builds it, then what each write that appends to
// the field itself adds, any number of times (elements that stand for
// many); a write that drops elements adds none. Two writes of elements of
// their own leave it open: which it holds depends on which ran last; so
// does none, with appends: a struct made empty and filled by its methods
// is a builder, whose appends may each run once per struct. A
// store into one of its elements at a constant index, or at len(field) -
// c, replaces that element when the elements before it (or after it) are
// one each; a store at another index (r.streamCursors[i] = id,
// s.filters[k] = key) replaces one element that cannot be told: each
// element holds what it held or what such a store wrote ("" aside, no
// key). A use that may write the elements otherwise (handing the slice
// to a function that is not a client's) leaves the field open. The keys
// that a write gives, built in terms of the object written (the
// writer's receiver, or the local struct a constructor fills), are those
// of the object read: one object's field holds what was written to it.

// fieldColl returns what a slice field of the package holds.
func (w *walker) fieldColl(fa *ssa.FieldAddr, depth int) coll {
	f := fieldVar(fa)
	if f == nil || f.Pkg() != w.l.g.pkg || w.busy[fa] {
		return coll{open: true}
	}
	if !isKeyList(f.Type()) {
		// The SSA layer builds the writers of these fields only.
		return coll{open: true}
	}
	if outer, ok := w.l.fieldBusy[f]; ok {
		// A write that appends to the field itself: what the field held
		// before, whose elements the outer walk gives once.
		return coll{cyc: []ssa.Value{outer}}
	}
	writes, bad := w.l.g.fieldWrites()
	ws := writes[f]
	if bad[f] || len(ws) == 0 {
		return coll{open: true}
	}
	w.busy[fa] = true
	w.l.fieldBusy[f] = fa
	defer func() {
		delete(w.busy, fa)
		delete(w.l.fieldBusy, f)
	}()
	// The object each write writes the field of is the one read here.
	base := objID(fa.X, fa.Parent(), fa.Parent())
	if base == "" {
		base = objMark
	}
	var fresh, grown coll
	nFresh := 0
	for _, wr := range ws {
		v := w.l.valueOf(wr.value)
		if wr.decl == nil || v == nil {
			return coll{open: true}
		}
		inner := &walker{l: w.l, busy: w.busy, into: w.into}
		c := inner.collection(v, depth+1)
		if c.open || pending(c) {
			return coll{open: true}
		}
		w.l.rebase(c, writtenObj(v, f), base)
		if !slices.Contains(c.cyc, ssa.Value(fa)) {
			if len(c.elems) > 0 {
				nFresh++
			}
			fresh.add(c)
			continue
		}
		c.cyc = slices.DeleteFunc(c.cyc, func(x ssa.Value) bool { return x == fa })
		for i := range c.elems {
			c.elems[i].many = true
		}
		grown.add(c)
	}
	if nFresh > 1 || nFresh == 0 && len(grown.elems) > 0 {
		// Two writes of elements of their own: which the field holds
		// depends on which ran last. None: a struct made empty and
		// filled by its methods (a builder, a.Keys = append(a.Keys,
		// ...)), whose appends may each run once per struct.
		return coll{open: true}
	}
	fresh.add(grown)
	return w.l.fieldStores(f, fresh, base)
}

// fieldVar returns the field that a FieldAddr addresses.
func fieldVar(fa *ssa.FieldAddr) *types.Var {
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// fieldStores applies to c the stores into the elements of field f that
// the package's functions make, or opens it.
func (l *ssaLayer) fieldStores(f *types.Var, c coll, base string) coll {
	var stored []Value
	for _, fn := range l.funcs {
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				fa, ok := ins.(*ssa.FieldAddr)
				if !ok || fieldVar(fa) != f {
					continue
				}
				for _, r := range *fa.Referrers() {
					load, ok := r.(*ssa.UnOp)
					if !ok || load.Op != token.MUL {
						continue // the one write, or a DebugRef
					}
					for _, u := range *load.Referrers() {
						switch u := u.(type) {
						case *ssa.IndexAddr:
							switch res, v := l.storeElem(u, f, c); res {
							case storeUnplaced:
								if !emptyString(v) {
									keys, _ := l.valueKeys(nil, v)
									stored = append(stored, rebased(keys, objID(fa.X, fa.Parent(), nil), base)...)
								}
							case storeUnseen:
								return coll{open: true}
							}
						case *ssa.Call:
							if !readsOnly(u, load) && !l.isKeySink(u) {
								return coll{open: true}
							}
						case *ssa.Slice:
							// f[:i] and f[i+1:] handed to append or copy:
							// the writes that drop an element, followed
							// as the field's writes.
							for _, r := range *u.Referrers() {
								if c, ok := r.(*ssa.Call); !ok || !readsOnly(c, u) {
									if _, ok := r.(*ssa.DebugRef); !ok {
										return coll{open: true}
									}
								}
							}
						case *ssa.DebugRef:
						default:
							// Kept in a variable, converted: its elements
							// may be written elsewhere.
							return coll{open: true}
						}
					}
				}
			}
		}
	}
	if len(stored) > 0 {
		// A store at an index that cannot be told replaces one element,
		// which one is not known: each may hold what it held or what
		// the store wrote.
		for i, el := range c.elems {
			keys, _ := l.elemKeys(nil, el)
			c.elems[i] = sElem{keys: append(slices.Clone(keys), stored...), many: el.many}
		}
	}
	return c
}

// emptyString reports whether v is the constant "", which no key is.
func emptyString(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	s, ok := constString(c.Value)
	return ok && s == ""
}

// A storeResult says what a store into an element of a field does to
// what the field holds.
type storeResult int

const (
	storePlaced   storeResult = iota // replaced the element it writes, or wrote nothing
	storeUnplaced                    // wrote one element, which cannot be told
	storeUnseen                      // may write anything: the field is open
)

// storeElem replaces the element of c that a store through ia writes, at
// a constant index or at len(x) - k, and returns the value written. An
// IndexAddr that is only read is no write.
func (l *ssaLayer) storeElem(ia *ssa.IndexAddr, f *types.Var, c coll) (storeResult, ssa.Value) {
	var val ssa.Value
	for _, r := range *ia.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == ia {
				val = r.Val
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return storeUnseen, nil
		}
	}
	if val == nil {
		return storePlaced, val
	}
	i, fromEnd, ok := elemIndex(ia.Index, f, len(c.elems))
	if !ok || i < 0 || i >= len(c.elems) {
		return storeUnplaced, val
	}
	// Elements that stand for many may be any number: an index from the
	// start is sure only before the first, one from the end only after
	// the last.
	span := c.elems[:i+1]
	if fromEnd {
		span = c.elems[i:]
	}
	for _, el := range span {
		if el.many {
			return storeUnplaced, val
		}
	}
	c.elems[i] = sElem{v: val}
	return storePlaced, val
}

// elemIndex returns the index that an SSA index value gives in a
// collection of n elements held in field f: a constant, or len(f) - k,
// from the end.
func elemIndex(x ssa.Value, f *types.Var, n int) (i int, fromEnd, ok bool) {
	switch x := x.(type) {
	case *ssa.Const:
		if x.Value == nil {
			return 0, false, false
		}
		i, ok := constInt(x.Value)
		return int(i), false, ok
	case *ssa.BinOp:
		k, ok := x.Y.(*ssa.Const)
		if x.Op != token.SUB || !ok || k.Value == nil {
			return 0, false, false
		}
		call, ok := x.X.(*ssa.Call)
		if !ok {
			return 0, false, false
		}
		if b, isB := call.Call.Value.(*ssa.Builtin); !isB || b.Name() != "len" || len(call.Call.Args) != 1 {
			return 0, false, false
		}
		load, ok := call.Call.Args[0].(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return 0, false, false
		}
		if fa, ok := load.X.(*ssa.FieldAddr); !ok || fieldVar(fa) != f {
			return 0, false, false
		}
		d, ok := constInt(k.Value)
		return n - int(d), true, ok
	}
	return 0, false, false
}

// readsOnly reports whether a call of a builtin reads slice x and writes
// none of its elements: len, cap, append's elements added (append(y,
// x...)) or appended to (whose result is a write of its own), copy's
// source.
func readsOnly(c *ssa.Call, x ssa.Value) bool {
	b, ok := c.Call.Value.(*ssa.Builtin)
	if !ok {
		return false
	}
	switch b.Name() {
	case "len", "cap":
		return true
	case "append":
		return len(c.Call.Args) == 2 && (c.Call.Args[1] == x || c.Call.Args[0] == x)
	case "copy":
		return len(c.Call.Args) == 2 && c.Call.Args[1] == x && c.Call.Args[0] != x
	}
	return false
}

// objID returns the identity that the keys of fn, as reader sees them,
// give object x when x is fn's receiver or a local variable of it
// ("$recv", "Init:$recv", "store@123"); "" otherwise.
func objID(x ssa.Value, fn, reader *ssa.Function) string {
	switch x := x.(type) {
	case *ssa.Parameter:
		if fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Params[0] != x || fn.Parent() != nil {
			return ""
		}
		if fn != reader {
			return fn.Name() + ":$recv"
		}
		return "$recv"
	case *ssa.Alloc:
		if x.Comment == "" || !x.Pos().IsValid() {
			return ""
		}
		return fmt.Sprintf("%s@%d", x.Comment, x.Pos())
	}
	return ""
}

// writtenObj returns the identity of the object whose field f a write of
// slice v writes (obj.f = v, or a struct literal's f: v), "" when not
// known.
func writtenObj(v ssa.Value, f *types.Var) string {
	for _, r := range *v.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Val == v {
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fieldVar(fa) == f {
				return objID(fa.X, fa.Parent(), nil)
			}
		}
	}
	return ""
}

// rebase gives the elements of c that a write of another object's field
// made, whose keys name that object (from), the object read (to): one
// object's field holds what was written to that object.
func (l *ssaLayer) rebase(c coll, from, to string) {
	if from == "" {
		return
	}
	for i, el := range c.elems {
		if el.v == nil || el.keys != nil || el.again != nil || el.sent || el.glob != "" || el.mapper != nil {
			continue
		}
		keys, _ := l.elemKeys(nil, el)
		if r := rebased(keys, from, to); !slices.EqualFunc(r, keys, func(a, b Value) bool { return a.Key.Equal(b.Key) }) {
			c.elems[i] = sElem{keys: r, many: el.many}
		}
	}
}

// rebased returns keys with each unknown rooted at object from ("from",
// "from.bf.key") rooted at to instead.
func rebased(keys []Value, from, to string) []Value {
	if from == "" {
		return keys
	}
	out := make([]Value, len(keys))
	for i, k := range keys {
		parts := slices.Clone(k.Key.Parts)
		for j, p := range parts {
			if p.Unknown && (p.ID == from || strings.HasPrefix(p.ID, from+".")) {
				parts[j].ID = to + strings.TrimPrefix(p.ID, from)
			}
		}
		out[i] = Value{keyspace.Key{Parts: parts, Choices: k.Key.Choices}, k.Pos}
	}
	return out
}
