package keyflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/ssa"
)

// The value layer on SSA: where the syntax tree alone loses a collection
// of keys, the SSA form of the package follows it the way Go moves it. A
// slice made with make and filled by index in a loop, an []interface{} or
// a slice type of a client (redigo's redis.Args) grown by append in a
// range and spread into a call, the reply of a command that lists keys
// (SCAN, KEYS) and its iterator, and values carried in structs over a
// channel of the package are collections: their elements, each with the
// values the evaluator of the function that built it gives, and whether
// one element stands for any number of them (built in a loop, received
// from a channel).
//
// The SSA form is built only for a package that can send commands, only
// when the syntax tree gives up on a collection, and only for the code a
// question needs (ssaunits.go): the declaration it is about, its callers
// and what they call. It is built from the Config's files and types as
// x/tools' buildssa builds it, with debug references, which tie each
// expression to its SSA value and back, indexed one function at a time.

// ssaLayer is the SSA form of the engine's package and its indexes.
type ssaLayer struct {
	g *Engine
	// built are the units whose bodies this form has (ssaunits.go).
	built map[ast.Node]bool
	// init is the package's initializer, which holds the initial values
	// of its variables.
	init *ssa.Function
	// refs index each function's debug references, on first use: the
	// SSA value of each expression, and the first expression that gave
	// each value.
	refs map[*ssa.Function]*debugRefs
	// evals are the evaluators of the functions that build elements.
	evals map[*ast.FuncDecl]*evaluator
	// sends are the values sent on the package's channels; nil until
	// chanSends scans the package.
	sends []*ssa.Send
	// funcs are the package's functions with bodies.
	funcs []*ssa.Function
	// loops caches the blocks of each function that lie on a cycle.
	loops map[*ssa.Function]map[*ssa.BasicBlock]bool
	// fieldBusy are the slice fields being walked (fieldColl), each with
	// the FieldAddr its walk began at.
	fieldBusy map[*types.Var]*ssa.FieldAddr
}

// debugRefs are one function's debug references.
type debugRefs struct {
	valueOf map[ast.Expr]ssa.Value
	exprOf  map[ssa.Value]ast.Expr
}

// ssaForm returns the SSA layer of the engine's package with the bodies
// that a question about the code at pos needs, or all of them when pos is
// not given; nil where the package cannot send commands, is a client
// library's own, or SSA cannot be built. The layer of the last question
// is kept while the next ones need no other bodies; another is built
// when they do, so that the package's whole SSA form is rarely held.
func (g *Engine) ssaForm(pos ...token.Pos) *ssaLayer {
	if !g.sends || g.ssaFailed || g.IsClientPackage(g.pkg) {
		return nil
	}
	u := g.unitGraph()
	var seeds []ast.Node
	for _, p := range pos {
		if n := u.at(p); n != nil {
			seeds = append(seeds, n)
		}
	}
	if len(pos) == 0 || len(seeds) < len(pos) {
		seeds = u.units
	}
	needed := u.needed(seeds)
	if l := g.ssaL; l != nil && subset(needed, l.built) {
		return l
	}
	evals := map[*ast.FuncDecl]*evaluator{}
	if old := g.ssaL; old != nil {
		// The form of the last question is dropped and collected before
		// the next is built, so that two are never held at once: a
		// test package's can be tens of megabytes.
		evals = old.evals
		g.ssaL = nil
		runtime.GC()
	}
	l, err := buildSSA(g, needed)
	if err != nil {
		g.ssaFailed = true
		return nil
	}
	l.evals = evals
	g.ssaL = l
	return l
}

// subset reports whether every unit of a is in b.
func subset(a, b map[ast.Node]bool) bool {
	for n := range a {
		if !b[n] {
			return false
		}
	}
	return true
}

// buildSSA builds the SSA form of the package's needed units with debug
// references. A panic of the builder, on code it does not expect, leaves
// the syntax tree's answers alone.
func buildSSA(g *Engine, needed map[ast.Node]bool) (l *ssaLayer, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, fmt.Errorf("building SSA: %v", r)
		}
	}()
	prog := ssa.NewProgram(g.fset, ssa.GlobalDebug)
	// The packages the package imports, whose functions and variables
	// its code names; the methods of other packages' types are made from
	// their types when the code reaches them.
	for _, p := range g.pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	files, info := g.bodiless(needed)
	pkg := prog.CreatePackage(g.pkg, files, info, false)
	pkg.Build()
	l = &ssaLayer{
		g:         g,
		built:     needed,
		init:      pkg.Func("init"),
		refs:      map[*ssa.Function]*debugRefs{},
		loops:     map[*ssa.Function]map[*ssa.BasicBlock]bool{},
		fieldBusy: map[*types.Var]*ssa.FieldAddr{},
	}
	l.funcs = l.functions(pkg)
	return l, nil
}

// debugRefs returns fn's debug references, indexed on first use.
func (l *ssaLayer) debugRefs(fn *ssa.Function) *debugRefs {
	if r := l.refs[fn]; r != nil {
		return r
	}
	r := &debugRefs{valueOf: map[ast.Expr]ssa.Value{}, exprOf: map[ssa.Value]ast.Expr{}}
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			ref, ok := ins.(*ssa.DebugRef)
			if !ok || ref.IsAddr {
				continue
			}
			if _, seen := r.valueOf[ref.Expr]; !seen {
				r.valueOf[ref.Expr] = ref.X
			}
			if _, seen := r.exprOf[ref.X]; !seen {
				r.exprOf[ref.X] = ref.Expr
			}
		}
	}
	l.refs[fn] = r
	return r
}

// valueOf returns the SSA value of an expression: that of the innermost
// function with a body around it, or of the package's initializer.
func (l *ssaLayer) valueOf(x ast.Expr) ssa.Value {
	x = ast.Unparen(x)
	fn := l.init
	var around ast.Node
	for _, f := range l.funcs {
		syn := f.Syntax()
		if syn == nil || !within(syn, x.Pos()) {
			continue
		}
		if around == nil || within(around, syn.Pos()) {
			fn, around = f, syn
		}
	}
	if fn == nil {
		return nil
	}
	if v := l.debugRefs(fn).valueOf[x]; v != nil {
		return v
	}
	// A parameter where it is declared: func(key string) {...}.
	if id, ok := x.(*ast.Ident); ok {
		if obj := l.g.info.Defs[id]; obj != nil {
			for _, p := range fn.Params {
				if p.Object() == obj {
					return p
				}
			}
		}
	}
	return nil
}

// exprOf returns the first expression that gave an SSA value of a
// function, or nil.
func (l *ssaLayer) exprOf(v ssa.Value) ast.Expr {
	fn := v.Parent()
	if fn == nil {
		return nil
	}
	return l.debugRefs(fn).exprOf[v]
}

// functions returns the package's functions with bodies, their function
// literals included.
func (l *ssaLayer) functions(pkg *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || fn.Blocks == nil {
			return
		}
		out = append(out, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, m := range pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			add(m)
		case *ssa.Type:
			if named, ok := m.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
				// A generic type's methods are in no method set: each is
				// built once, over its type parameters.
				for i := range named.NumMethods() {
					add(pkg.Prog.FuncValue(named.Method(i)))
				}
				continue
			}
			for _, t := range []types.Type{m.Type(), types.NewPointer(m.Type())} {
				mset := pkg.Prog.MethodSets.MethodSet(t)
				for i := 0; i < mset.Len(); i++ {
					if fn := pkg.Prog.MethodValue(mset.At(i)); fn != nil && fn.Pkg == pkg && fn.Synthetic == "" {
						add(fn)
					}
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b *ssa.Function) int { return int(a.Pos() - b.Pos()) })
	return slices.CompactFunc(out, func(a, b *ssa.Function) bool { return a == b })
}

// evaluator returns the evaluator of the function declaration that holds
// fn: e itself when it is e's, else one made for it.
func (l *ssaLayer) evaluator(e *evaluator, fn *ssa.Function) *evaluator {
	for fn != nil && fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn == nil {
		return nil
	}
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok {
		return nil
	}
	if e != nil && e.decl == decl {
		return e
	}
	if ev := l.evals[decl]; ev != nil {
		return ev
	}
	ev := newEvaluator(l.g, decl)
	l.evals[decl] = ev
	return ev
}

// inLoop reports whether a block lies on a cycle of its function.
func (l *ssaLayer) inLoop(b *ssa.BasicBlock) bool {
	fn := b.Parent()
	m := l.loops[fn]
	if m == nil {
		m = map[*ssa.BasicBlock]bool{}
		for _, start := range fn.Blocks {
			seen := map[*ssa.BasicBlock]bool{}
			stack := slices.Clone(start.Succs)
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if x == start {
					m[start] = true
					break
				}
				if seen[x] {
					continue
				}
				seen[x] = true
				stack = append(stack, x.Succs...)
			}
		}
		l.loops[fn] = m
	}
	return m[b]
}

// An sElem is one element of a collection: the SSA value it holds, or the
// keys it stands for (a SCAN reply's); many when it stands for any number
// of elements, varying those of its values that a loop, a call or a send
// sets.
type sElem struct {
	v    ssa.Value
	keys []Value
	many bool
	// sent is true for an element received from a channel: each send may
	// carry another value, parameters and loop variables of the sender
	// alike.
	sent bool
	// again are keys' values as another of the many holds them, when the
	// function that built them is not the one that reads them (returned).
	again []Value
	// glob, for keys that a listing command's pattern matches where the
	// pattern is its function's parameter, is the reply's identity: keys
	// holds the pattern, to be matched once a caller gives its text.
	glob string
	// mapper is the function literal that a generic map calls for each
	// element (mapped): its parameters differ from one element to the
	// next.
	mapper *ssa.Function
}

// A coll is what the SSA layer knows of a collection.
type coll struct {
	elems []sElem
	open  bool
	// cyc are the phis and cells being walked that the walk met again: the
	// elements seen since are added at every turn of a loop.
	cyc []ssa.Value
	// half, when not 0, is the number of elements that fill the first
	// half of a slice made twice as long as something and filled by
	// index in both halves (filled).
	half int
}

func (c *coll) add(o coll) {
	switch {
	case len(o.elems) == 0 && !o.open:
	case len(c.elems) == 0 && !c.open:
		c.half = o.half
	default:
		c.half = 0
	}
	c.open = c.open || o.open
	for _, x := range o.cyc {
		if !slices.Contains(c.cyc, x) {
			c.cyc = append(c.cyc, x)
		}
	}
	for _, el := range o.elems {
		if el.v != nil && slices.ContainsFunc(c.elems, func(x sElem) bool { return x.v == el.v }) {
			continue
		}
		c.elems = append(c.elems, el)
	}
}

// maxElems bounds the elements of one collection.
const maxElems = 16

// A walker follows one collection through SSA values.
type walker struct {
	l    *ssaLayer
	busy map[ssa.Value]bool
	// at is the call the collection is an argument of: it reads the
	// collection, whatever it calls.
	at ssa.Instruction
	// into are the functions whose results the walk follows (returned).
	into map[*ssa.Function]bool
	// spreads is true for a walk that takes a slice parameter of the
	// function for all its elements, passed on in order ("$N...", and a
	// callee's as its caller's: passedOn), instead of elements it cannot
	// see.
	spreads bool
}

// after reports whether an instruction that may change the collection
// (a call it is passed to, a store of it into a field: store.filters =
// keys) runs only after the call being resolved, outside any loop: what
// the call reads is what was put in before. Stores of its elements are
// not such instructions.
func (w *walker) after(ins ssa.Instruction) bool {
	at := w.at
	if at == nil || at.Parent() != ins.Parent() || w.l.inLoop(at.Block()) {
		return false
	}
	if at.Block() != ins.Block() {
		// at is on no cycle: no block it dominates leads back to it.
		return at.Block().Dominates(ins.Block())
	}
	for _, x := range at.Block().Instrs {
		switch x {
		case at:
			return true
		case ins:
			return false
		}
	}
	return false
}

// callAt returns the call instruction of fn that a call expression made.
func (l *ssaLayer) callAt(fn *ssa.Function, call *ast.CallExpr) ssa.Instruction {
	if fn == nil || call == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			if c, ok := ins.(ssa.CallInstruction); ok && c.Pos() == call.Lparen {
				return ins
			}
		}
	}
	return nil
}

// collection returns the elements of a slice value.
func (w *walker) collection(v ssa.Value, depth int) coll {
	if w.busy[v] {
		return coll{cyc: []ssa.Value{v}}
	}
	if depth > 24 {
		return coll{open: true}
	}
	switch v := v.(type) {
	case *ssa.Const:
		if v.IsNil() {
			return coll{}
		}
	case *ssa.Slice:
		return w.collection(v.X, depth+1)
	case *ssa.ChangeType:
		return w.collection(v.X, depth+1)
	case *ssa.Convert:
		return w.collection(v.X, depth+1)
	case *ssa.Alloc:
		if _, ok := deref(v.Type()).Underlying().(*types.Array); ok {
			return w.filled(v, depth)
		}
		return w.cell(v, depth)
	case *ssa.MakeSlice:
		return w.filled(v, depth)
	case *ssa.Phi:
		w.busy[v] = true
		defer delete(w.busy, v)
		var out coll
		for _, edge := range v.Edges {
			out.add(around(w.collection(edge, depth+1), v))
		}
		return out
	case *ssa.UnOp:
		if v.Op == token.MUL {
			switch x := v.X.(type) {
			case *ssa.Alloc:
				return w.cell(x, depth)
			case *ssa.FreeVar:
				if a := w.l.binding(x); a != nil {
					return w.cell(a, depth)
				}
			case *ssa.FieldAddr:
				if keys, ok := w.l.listedField(x.Type(), x.X); ok {
					return coll{elems: []sElem{{keys: keys, many: true}}}
				}
				if a, ok := x.X.(*ssa.Alloc); ok && w.localStruct(a) {
					return w.localField(a, x.Field, depth)
				}
				return w.fieldColl(x, depth)
			}
		}
	case *ssa.Call:
		return w.call(v, depth)
	case *ssa.Parameter:
		if w.spreads {
			if id := w.l.sliceParam(v); id != "" {
				key := keyspace.Unknown(id+"...", v.Name()+"...", false)
				return coll{elems: []sElem{{keys: []Value{{key, v.Pos()}}}}}
			}
		}
	case *ssa.Field:
		if keys, ok := w.l.listedField(v.Type(), v.X); ok {
			return coll{elems: []sElem{{keys: keys, many: true}}}
		}
	case *ssa.Extract:
		if keys, ok := w.l.listedKeys(v); ok {
			return coll{elems: []sElem{{keys: keys, many: true}}}
		}
		if el, ok := w.l.pendingListed(v); ok {
			return coll{elems: []sElem{el}}
		}
		if call, ok := v.Tuple.(*ssa.Call); ok {
			if c, ok := w.returned(call, v.Index, depth); ok {
				return c
			}
		}
	}
	return coll{open: true}
}

// around returns c, built from v itself: when it met v, a cycle, the
// elements it adds are added again and again.
func around(c coll, v ssa.Value) coll {
	i := slices.Index(c.cyc, v)
	if i < 0 {
		return c
	}
	c.cyc = slices.Delete(slices.Clone(c.cyc), i, i+1)
	for j := range c.elems {
		c.elems[j].many = true
	}
	return c
}

// binding returns the cell that a closure's free variable captures, when
// the closure is made once.
func (l *ssaLayer) binding(fv *ssa.FreeVar) *ssa.Alloc {
	a, _ := boundTo(fv).(*ssa.Alloc)
	return a
}

// cell returns what a local variable that is not lifted, one a closure
// captures, holds: every value stored in it.
func (w *walker) cell(a *ssa.Alloc, depth int) coll {
	if w.busy[a] {
		return coll{cyc: []ssa.Value{a}}
	}
	w.busy[a] = true
	defer delete(w.busy, a)
	var out coll
	for _, ref := range allRefs(a) {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != a {
				continue
			}
			out.add(around(w.collection(r.Val, depth+1), a))
		case *ssa.UnOp, *ssa.DebugRef, *ssa.MakeClosure:
		case *ssa.Call, *ssa.MakeInterface:
			if keys, ok := w.l.replyInto(r, a); ok {
				out.add(coll{elems: []sElem{{keys: keys, many: true}}})
				continue
			}
			out.open = true
		default:
			out.open = true
		}
	}
	return out
}

// localStruct reports whether a is a struct variable of its function
// that nothing else can write: it is only read, or handed to the call
// being resolved or to a client method (XRead(ctx, args)), and its fields
// are only read and written in place (b.Keys = append(b.Keys, k)).
func (w *walker) localStruct(a *ssa.Alloc) bool {
	if _, ok := deref(a.Type()).Underlying().(*types.Struct); !ok {
		return false
	}
	for _, ref := range allRefs(a) {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			for _, fr := range allRefs(r) {
				switch fr := fr.(type) {
				case *ssa.UnOp, *ssa.DebugRef:
				case *ssa.Store:
					if fr.Addr != r {
						return false
					}
				default:
					return false
				}
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != a {
				return false
			}
		case *ssa.Call:
			if r != w.at && !w.l.isKeySink(r) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// firstFieldAddr returns the first address of field i of a that a's
// referrers take, which stands for the field in walker.busy.
func firstFieldAddr(a *ssa.Alloc, i int) *ssa.FieldAddr {
	for _, ref := range allRefs(a) {
		if fa, ok := ref.(*ssa.FieldAddr); ok && fa.Field == i {
			return fa
		}
	}
	return nil
}

// localBusy reports whether fa is the address of a local struct's field
// that the walk is in (localField): a slice stored there is its write.
func (w *walker) localBusy(fa *ssa.FieldAddr) bool {
	a, ok := fa.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	key := firstFieldAddr(a, fa.Field)
	return key != nil && w.busy[key]
}

// ssaFieldSlice returns the elements of field name of x, an argument of
// call, when x is a local struct (or a pointer to one) whose field the
// function writes again after it is made: args := &redis.XReadArgs{};
// args.Streams = append(args.Streams, k). False otherwise, and the
// syntax tree's reading of the struct's literal stands.
func (g *Engine) ssaFieldSlice(e *evaluator, call *ast.CallExpr, x ast.Expr, name string) (slice, bool) {
	l := g.ssaForm(x.Pos())
	if l == nil {
		return slice{}, false
	}
	v := l.valueOf(x)
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X // a struct passed by value
	}
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return slice{}, false
	}
	st, ok := deref(a.Type()).Underlying().(*types.Struct)
	if !ok {
		return slice{}, false
	}
	idx := -1
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			idx = i
			break
		}
	}
	stores := 0
	for _, ref := range allRefs(a) {
		if fa, ok := ref.(*ssa.FieldAddr); ok && fa.Field == idx {
			for _, fr := range allRefs(fa) {
				if _, ok := fr.(*ssa.Store); ok {
					stores++
				}
			}
		}
	}
	w := &walker{l: l, busy: map[ssa.Value]bool{}, at: l.callAt(a.Parent(), call)}
	if idx < 0 || stores < 2 || !w.localStruct(a) {
		return slice{}, false
	}
	c := w.localField(a, idx, 0)
	if c.open || len(c.cyc) > 0 || len(c.elems) == 0 || len(c.elems) > maxElems || pending(c) {
		return slice{}, false
	}
	return l.slice(e, c), true
}

// localField returns the elements of field i of a local struct (a
// localStruct): what each store to the field, or to the whole struct,
// puts there, as a local variable's cell does.
func (w *walker) localField(a *ssa.Alloc, i int, depth int) coll {
	key := firstFieldAddr(a, i)
	if key == nil {
		return coll{open: true}
	}
	if w.busy[key] {
		return coll{cyc: []ssa.Value{key}}
	}
	w.busy[key] = true
	defer delete(w.busy, key)
	var out coll
	for _, ref := range allRefs(a) {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			if r.Field != i {
				continue
			}
			for _, fr := range allRefs(r) {
				if st, ok := fr.(*ssa.Store); ok {
					out.add(around(w.collection(st.Val, depth+1), key))
				}
			}
		case *ssa.Store:
			// The whole struct stored: its zero value holds no element;
			// any other value is not followed.
			if c, ok := r.Val.(*ssa.Const); !ok || c.Value != nil {
				out.open = true
			}
		}
	}
	return out
}

// replyInto returns the keys a raw command writes into the variable a, by
// its reply parameter (radix's Cmd(&members, "SMEMBERS", key)), when the
// command lists the members of a key.
func (l *ssaLayer) replyInto(ref ssa.Instruction, a ssa.Value) ([]Value, bool) {
	if mi, ok := ref.(*ssa.MakeInterface); ok {
		// Cmd(rcv interface{}, ...): the pointer is made an interface first.
		refs := mi.Referrers()
		if refs == nil || len(*refs) != 1 {
			return nil, false
		}
		ref, a = (*refs)[0], mi
	}
	c, ok := ref.(*ssa.Call)
	if !ok {
		return nil, false
	}
	x, ok := l.exprOf(c).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	_, m := l.g.Resolve(x)
	if m == nil || m.Kind != ruleset.KindRaw || m.Reply < 0 || m.Reply >= len(c.Call.Args) || c.Call.Args[m.Reply] != a {
		return nil, false
	}
	return l.patternKeys(c)
}

// allRefs returns the instructions that refer to v: its own referrers,
// and for a cell captured by closures, those of the free variables bound
// to it.
func allRefs(v ssa.Value) []ssa.Instruction {
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	out := slices.Clone(*refs)
	for _, r := range *refs {
		mc, ok := r.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		fn := mc.Fn.(*ssa.Function)
		for i, b := range mc.Bindings {
			if b == v && i < len(fn.FreeVars) {
				if fr := fn.FreeVars[i].Referrers(); fr != nil {
					out = append(out, *fr...)
				}
			}
		}
	}
	return out
}

// filled returns the elements of an array or a slice made with make: the
// values stored at its indexes, in order of constant indexes; a value
// stored at an index that is not a constant, or in a loop, stands for
// many. copy into it adds the source's elements; handing it to a function
// opens it.
func (w *walker) filled(v ssa.Value, depth int) coll {
	type stored struct {
		idx  int64
		elem sElem
	}
	var st []stored
	var out coll
	// m is n of make([]T, 2*n), whose second half stores at n+i fill.
	var m ssa.Value
	if ms, ok := v.(*ssa.MakeSlice); ok {
		m = doubled(ms.Len)
	}
	second := 0
	var visit func(x ssa.Value, refs []ssa.Instruction)
	seen := map[ssa.Value]bool{}
	visit = func(x ssa.Value, refs []ssa.Instruction) {
		if seen[x] {
			return
		}
		seen[x] = true
		for _, ref := range refs {
			switch r := ref.(type) {
			case *ssa.IndexAddr:
				if r.X != x {
					continue
				}
				for _, ir := range allRefs(r) {
					s, ok := ir.(*ssa.Store)
					if !ok || s.Addr != r {
						continue
					}
					// Stored in a loop, unless in the block that makes
					// the slice: []string{k} in a loop is one element.
					el := sElem{v: s.Val, many: w.l.inLoop(s.Block()) && !sameBlock(v, s)}
					idx := int64(-1)
					if c, ok := r.Index.(*ssa.Const); ok && c.Value != nil {
						if i, ok := constInt(c.Value); ok {
							idx = i
						}
					}
					if idx < 0 {
						el.many = true
						idx = 1 << 40
						if m != nil && addsTo(r.Index, m) {
							idx, second = 1<<41, second+1 // strs[n+i]
						}
					}
					st = append(st, stored{idx, el})
				}
			case *ssa.Slice:
				if r.X == x {
					visit(r, allRefs(r))
				}
			case *ssa.Call:
				if b, ok := r.Call.Value.(*ssa.Builtin); ok {
					switch b.Name() {
					case "copy":
						if len(r.Call.Args) == 2 && r.Call.Args[0] == x {
							c := w.collection(r.Call.Args[1], depth+1)
							for i := range c.elems {
								c.elems[i].many = c.elems[i].many || w.l.inLoop(r.Block())
							}
							out.add(c)
						}
					case "append", "len", "cap":
					default:
						out.open = true
					}
					continue
				}
				if r == w.at || w.l.isKeySink(r) || appendMethod(&r.Call) || w.after(r) || stdReader(r) {
					continue
				}
				out.open = true
			case *ssa.Store:
				if r.Addr == x {
					// keys := [...]string{a, b}, built in a temporary
					// array and copied whole into the variable that
					// keys[:] slices: the temporary's elements.
					if u, ok := r.Val.(*ssa.UnOp); ok && u.Op == token.MUL {
						if a, ok := u.X.(*ssa.Alloc); ok && a != x {
							if _, isArray := deref(a.Type()).Underlying().(*types.Array); isArray {
								out.add(w.filled(a, depth+1))
								continue
							}
						}
					}
				}
				if a, ok := r.Addr.(*ssa.Alloc); ok && r.Val == x {
					// Kept in a variable that a closure captures: what
					// is stored through its loads fills the slice too.
					for _, ar := range allRefs(a) {
						if u, ok := ar.(*ssa.UnOp); ok && u.Op == token.MUL && u.X != nil {
							visit(u, allRefs(u))
						}
					}
					continue
				}
				// Stored in the slice field being walked: its write; or
				// in a field of the struct that the call being resolved
				// takes (&redis.XReadGroupArgs{Streams: strs}).
				if fa, ok := r.Addr.(*ssa.FieldAddr); (!ok || r.Val != x || w.l.fieldBusy[fieldVar(fa)] == nil && !w.localBusy(fa) && !w.argStruct(fa.X)) && !w.after(r) {
					out.open = true
				}
			case *ssa.DebugRef, *ssa.UnOp, *ssa.Phi, *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface:
			case *ssa.Return:
				// Handed back to the caller, whose own stores into it the
				// caller's walk sees (walker.returned).
			default:
				out.open = true
			}
		}
	}
	visit(v, allRefs(v))
	slices.SortStableFunc(st, func(a, b stored) int {
		switch {
		case a.idx < b.idx:
			return -1
		case a.idx > b.idx:
			return 1
		}
		return 0
	})
	var c coll
	for i, s := range st {
		if i > 0 && s.idx == st[i-1].idx && s.idx < 1<<40 {
			// Stored twice at one index: which value is there depends on
			// the order, which is not followed.
			return coll{open: true}
		}
		c.elems = append(c.elems, s.elem)
	}
	constIndex := slices.ContainsFunc(st, func(s stored) bool { return s.idx < 1<<40 })
	if first := len(c.elems) - second; second > 0 && first > 0 && !constIndex {
		// XREADGROUP's streams at i, their IDs at n+i: the first half
		// is what the stores at i hold.
		c.half = first
	}
	c.add(out)
	return c
}

// stdReaders are the standard library functions that read the elements of
// the slices they take and write none of them, by their full name. (A
// slice handed over as an interface, to fmt or encoding/json, is already
// passed over: filled ignores MakeInterface.)
var stdReaders = map[string]bool{
	"strings.Join":       true,
	"bytes.Join":         true,
	"path.Join":          true,
	"path/filepath.Join": true,
	"sort.SearchStrings": true,
	"slices.Contains":    true,
	"slices.Index":       true,
	"slices.Equal":       true,
	"slices.Clone":       true,
}

// stdReader reports whether c calls a function of stdReaders: a slice
// that BITOP's destination joins, strings.Join(names, "_AND_"), still
// holds the names its loop stored (zztag).
func stdReader(c *ssa.Call) bool {
	fn := c.Call.StaticCallee()
	if fn == nil {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.Object() != nil && stdReaders[fn.Object().(*types.Func).FullName()]
}

// doubled returns n of a length 2*n, n*2 or n+n, or nil.
func doubled(x ssa.Value) ssa.Value {
	if c, ok := x.(*ssa.Convert); ok {
		x = c.X
	}
	b, ok := x.(*ssa.BinOp)
	if !ok {
		return nil
	}
	two := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		if !ok || c.Value == nil {
			return false
		}
		n, ok := constInt(c.Value)
		return ok && n == 2
	}
	switch {
	case b.Op == token.MUL && two(b.Y):
		return b.X
	case b.Op == token.MUL && two(b.X):
		return b.Y
	case b.Op == token.ADD && sameValue(b.X, b.Y, 0):
		return b.X
	}
	return nil
}

// addsTo reports whether an index is m+i or i+m.
func addsTo(idx, m ssa.Value) bool {
	b, ok := idx.(*ssa.BinOp)
	return ok && b.Op == token.ADD && (sameValue(b.X, m, 0) || sameValue(b.Y, m, 0))
}

// sameValue reports whether two values are computed alike from the same
// values: len(r.conf.Streams) twice.
func sameValue(a, b ssa.Value, depth int) bool {
	if a == b {
		return true
	}
	if depth > 6 {
		return false
	}
	// A closure's free variable bound to a value (not to a variable's
	// cell) is that value.
	if v := boundValue(a); v != a {
		return sameValue(v, b, depth+1)
	}
	if v := boundValue(b); v != b {
		return sameValue(a, v, depth+1)
	}
	switch a := a.(type) {
	case *ssa.Call:
		b, ok := b.(*ssa.Call)
		if !ok || len(a.Call.Args) != 1 || len(b.Call.Args) != 1 {
			return false
		}
		ba, ok := a.Call.Value.(*ssa.Builtin)
		bb, ok2 := b.Call.Value.(*ssa.Builtin)
		if !ok || !ok2 || ba.Name() != "len" || bb.Name() != "len" {
			return false
		}
		return sameValue(a.Call.Args[0], b.Call.Args[0], depth+1)
	case *ssa.UnOp:
		b, ok := b.(*ssa.UnOp)
		return ok && a.Op == token.MUL && b.Op == token.MUL && sameValue(a.X, b.X, depth+1) && sameLoads(a, b)
	case *ssa.FieldAddr:
		b, ok := b.(*ssa.FieldAddr)
		return ok && fieldVar(a) == fieldVar(b) && fieldVar(a) != nil && sameValue(a.X, b.X, depth+1)
	case *ssa.Field:
		b, ok := b.(*ssa.Field)
		return ok && a.Field == b.Field && sameValue(a.X, b.X, depth+1)
	}
	return false
}

// boundValue returns the value a closure's free variable v is bound to,
// or the one value stored into the variable that v loads, a closure's
// or the function's own (a variable captured by a closure is a cell); v
// itself otherwise.
func boundValue(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.FreeVar:
		if b := boundTo(x); b != nil {
			if _, cell := b.(*ssa.Alloc); !cell {
				return b
			}
		}
	case *ssa.UnOp:
		addr := x.X
		if fv, ok := addr.(*ssa.FreeVar); ok {
			addr = boundTo(fv)
		}
		if a, ok := addr.(*ssa.Alloc); ok && x.Op == token.MUL {
			if st := storedOnce(a); st != nil {
				return st
			}
		}
	}
	return v
}

// sameLoads reports whether two loads read what nothing in between may
// write: both in one block, or the address a field that neither function
// (a closure's and the one that makes it) stores to.
func sameLoads(a, b *ssa.UnOp) bool {
	fa, ok := a.X.(*ssa.FieldAddr)
	if !ok {
		return a.Block() == b.Block()
	}
	for _, fn := range []*ssa.Function{a.Parent(), b.Parent()} {
		for _, blk := range fn.Blocks {
			for _, ins := range blk.Instrs {
				if st, ok := ins.(*ssa.Store); ok {
					if sf, ok := st.Addr.(*ssa.FieldAddr); ok && fieldVar(sf) == fieldVar(fa) {
						return false
					}
				}
			}
		}
	}
	return true
}

// argStruct reports whether x is a struct the function makes and hands
// to the call being resolved, and nothing else (localStruct).
func (w *walker) argStruct(x ssa.Value) bool {
	a, ok := x.(*ssa.Alloc)
	c, isCall := w.at.(ssa.CallInstruction)
	if !ok || !isCall || !slices.Contains(c.Common().Args, ssa.Value(a)) {
		return false
	}
	return w.localStruct(a)
}

// storedInto reports whether some element of the slice v is stored to.
func storedInto(v ssa.Value) bool {
	for _, r := range allRefs(v) {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, ir := range allRefs(ia) {
			if st, ok := ir.(*ssa.Store); ok && st.Addr == ia {
				return true
			}
		}
	}
	return false
}

// sameBlock reports whether an instruction is in the block of the one
// that makes v.
func sameBlock(v ssa.Value, ins ssa.Instruction) bool {
	made, ok := v.(ssa.Instruction)
	return ok && made.Block() == ins.Block()
}

// isKeySink reports whether a call hands a slice to a client method or a
// function of the client's packages, which read it and do not fill it.
func (l *ssaLayer) isKeySink(c *ssa.Call) bool {
	if c.Call.IsInvoke() {
		return l.g.IsClientPackage(c.Call.Method.Pkg()) || l.g.TypeRole(c.Call.Value.Type()) != ""
	}
	fn := c.Call.StaticCallee()
	return fn != nil && fn.Object() != nil && l.g.IsClientPackage(fn.Object().Pkg())
}

// call returns the collection a call returns: append's, and that of a
// method of a slice type that appends its variadic arguments to its
// receiver and returns it (redigo's Args.Add).
func (w *walker) call(v *ssa.Call, depth int) coll {
	common := v.Call
	if b, ok := common.Value.(*ssa.Builtin); ok {
		if b.Name() != "append" || len(common.Args) != 2 {
			return coll{open: true}
		}
		if isStringType(common.Args[1].Type()) {
			return coll{open: true} // append([]byte, s...)
		}
		out := w.collection(common.Args[0], depth+1)
		out.add(w.collection(common.Args[1], depth+1))
		return out
	}
	if keys, ok := w.l.listedKeys(v); ok {
		return coll{elems: []sElem{{keys: keys, many: true}}}
	}
	if w.flattenMethod(&common) {
		// args.AddFlat(keys): the slice's elements, each one argument.
		out := w.collection(common.Args[0], depth+1)
		if mi, ok := common.Args[1].(*ssa.MakeInterface); ok {
			switch mi.X.Type().Underlying().(type) {
			case *types.Slice:
				out.add(w.collection(mi.X, depth+1))
				return out
			case *types.Map:
				// args.AddFlat(m): each key, then its value.
				if pairs, ok := w.mapPairs(mi.X); ok {
					out.add(pairs)
					return out
				}
			case *types.Struct, *types.Pointer:
				// args.AddFlat(player): the struct's field names and
				// values, after the key an HSET takes first; what they
				// are is not followed.
				if _, ok := deref(mi.X.Type()).Underlying().(*types.Struct); ok {
					out.add(coll{elems: []sElem{{v: mi.X, many: true}}})
					return out
				}
			}
		}
		return coll{open: true}
	}
	if !appendMethod(&common) {
		// A generic map function first: its body, read over its type
		// parameters, only calls the function it is given.
		if c, ok := w.mapped(v); ok {
			return c
		}
		if c, ok := w.returned(v, 0, depth); ok {
			if storedInto(v) {
				// keys := helper(); keys[0] = other: not what it returned.
				return coll{open: true}
			}
			return c
		}
		return coll{open: true}
	}
	out := w.collection(common.Args[0], depth+1)
	out.add(w.collection(common.Args[1], depth+1))
	return out
}

// mapped returns what a generic map function returns (samber/lo's Map, a
// project's sliceMapper): a function of type parameters E and R that
// takes a []E and a func(E) R (or func(E, int) R) and returns a []R can
// make its R values only by calling the function on the slice's
// elements, so each element of the result is what the function returns.
func (w *walker) mapped(v *ssa.Call) (coll, bool) {
	callee := v.Call.StaticCallee()
	if callee == nil || callee.Origin() == nil {
		return coll{}, false
	}
	sig := callee.Origin().Signature
	if sig.TypeParams().Len() == 0 || sig.Results().Len() != 1 || sig.Params().Len() != 2 || len(v.Call.Args) != 2 {
		return coll{}, false
	}
	isParam := func(t types.Type) (*types.TypeParam, bool) {
		tp, ok := t.(*types.TypeParam)
		return tp, ok
	}
	elemOf := func(t types.Type) (*types.TypeParam, bool) {
		if tp, ok := isParam(t); ok {
			// S ~[]E: the core type of S's constraint.
			if st, ok := tp.Constraint().Underlying().(*types.Interface); ok && st.NumEmbeddeds() == 1 {
				t = st.EmbeddedType(0)
				if u, ok := t.(*types.Union); ok && u.Len() == 1 {
					t = u.Term(0).Type()
				}
			}
		}
		sl, ok := t.Underlying().(*types.Slice)
		if !ok {
			return nil, false
		}
		return isParam(sl.Elem())
	}
	e, ok := elemOf(sig.Params().At(0).Type())
	if !ok {
		return coll{}, false
	}
	r, ok := elemOf(sig.Results().At(0).Type())
	if !ok {
		return coll{}, false
	}
	fsig, ok := sig.Params().At(1).Type().Underlying().(*types.Signature)
	if !ok || fsig.Results().Len() != 1 || fsig.Params().Len() < 1 || fsig.Params().Len() > 2 {
		return coll{}, false
	}
	if tp, ok := isParam(fsig.Params().At(0).Type()); !ok || tp != e {
		return coll{}, false
	}
	if tp, ok := isParam(fsig.Results().At(0).Type()); !ok || tp != r {
		return coll{}, false
	}
	mc, ok := unwrap(v.Call.Args[1]).(*ssa.MakeClosure)
	if !ok {
		if fn, isFn := unwrap(v.Call.Args[1]).(*ssa.Function); isFn {
			return w.returnsOf(fn)
		}
		return coll{}, false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return coll{}, false
	}
	return w.returnsOf(fn)
}

// returnsOf returns the values a function literal returns, each standing
// for many: it runs once for each element it is mapped over.
func (w *walker) returnsOf(fn *ssa.Function) (coll, bool) {
	var out coll
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
			out.elems = append(out.elems, sElem{v: ret.Results[0], many: true, mapper: fn})
		}
	}
	return out, len(out.elems) > 0
}

// flattenMethod reports whether a call is of a method of a client's slice
// type that takes one value of any type and returns its receiver's type:
// one that appends the value, flattened, as redigo's Args.AddFlat appends
// each element of a slice.
func (w *walker) flattenMethod(common *ssa.CallCommon) bool {
	fn := common.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || fn.Signature.Variadic() || len(common.Args) != 2 || fn.Object() == nil || !w.l.g.IsClientPackage(fn.Object().Pkg()) {
		return false
	}
	recv := fn.Signature.Recv().Type()
	_, ok := recv.Underlying().(*types.Slice)
	p := fn.Signature.Params()
	return ok && p.Len() == 1 && types.IsInterface(p.At(0).Type()) && fn.Signature.Results().Len() == 1 && types.Identical(fn.Signature.Results().At(0).Type(), recv)
}

// mapPairs returns the entries of a map that the function makes and fills
// before the call being resolved, as redigo's Args.AddFlat spreads them:
// each key, then its value, each standing for many, since a map's order
// is not known; false when the map is read or changed in another way.
func (w *walker) mapPairs(v ssa.Value) (coll, bool) {
	m, ok := v.(*ssa.MakeMap)
	if !ok {
		return coll{}, false
	}
	var out coll
	for _, ref := range allRefs(m) {
		switch r := ref.(type) {
		case *ssa.MapUpdate:
			if !w.after(r) {
				out.elems = append(out.elems, sElem{v: r.Key, many: true}, sElem{v: r.Value, many: true})
			}
		case *ssa.Lookup, *ssa.Range, *ssa.DebugRef, *ssa.MakeInterface:
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
				return coll{}, false
			}
		default:
			return coll{}, false
		}
	}
	return out, len(out.elems) > 0
}

// appendMethod reports whether a call is of a method of a slice type
// that takes ...E and returns its receiver's type: one that appends its
// arguments to its receiver, as redigo's Args.Add does.
func appendMethod(common *ssa.CallCommon) bool {
	fn := common.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || !fn.Signature.Variadic() || len(common.Args) != 2 {
		return false
	}
	recv := fn.Signature.Recv().Type()
	_, ok := recv.Underlying().(*types.Slice)
	return ok && fn.Signature.Results().Len() == 1 && types.Identical(fn.Signature.Results().At(0).Type(), recv)
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// keySlice returns what is known of a slice of keys x, an argument of
// call: the syntax tree's slice, or where it loses the slice or its
// elements, the SSA form's.
func (g *Engine) keySlice(e *evaluator, call *ast.CallExpr, x ast.Expr) slice {
	sl := e.slice(x)
	if sl.open || !sliceShaped(sl) {
		if ssl, ok := g.ssaSlice(e, call, x); ok {
			return ssl
		}
	}
	return sl
}

// ssaSlice returns the elements of the slice expression x, an argument of
// a call in e's function, as the syntax tree's slice gives them; false
// when the SSA layer does not see all of them either.
func (g *Engine) ssaSlice(e *evaluator, call *ast.CallExpr, x ast.Expr) (slice, bool) {
	return g.walkSlice(e, call, x, false)
}

// walkSlice is ssaSlice and ssaSpread: the SSA layer's walk of the
// collection x, spreads as walker.spreads.
func (g *Engine) walkSlice(e *evaluator, call *ast.CallExpr, x ast.Expr, spreads bool) (slice, bool) {
	l := g.ssaForm(x.Pos())
	if l == nil {
		return slice{}, false
	}
	v := l.valueOf(x)
	if v == nil {
		return slice{}, false
	}
	w := &walker{l: l, busy: map[ssa.Value]bool{}, at: l.callAt(v.Parent(), call), spreads: spreads}
	c := w.collection(v, 0)
	if c.open || len(c.elems) == 0 || len(c.elems) > maxElems || pending(c) {
		return slice{}, false
	}
	return l.slice(e, c), true
}

// ssaSpread is ssaSlice for the arguments of a raw command, where a slice
// parameter of the function (or of a helper that returns the arguments)
// appended whole is one element "$N...": every element the callers pass,
// in order (walker.spreads).
func (g *Engine) ssaSpread(e *evaluator, call *ast.CallExpr, x ast.Expr) (slice, bool) {
	return g.walkSlice(e, call, x, true)
}

// sliceParam returns the identity "$N" of a slice parameter of a
// function declaration (not of a function literal, nor the receiver), or "".
func (l *ssaLayer) sliceParam(p *ssa.Parameter) string {
	if p.Parent() == nil || p.Parent().Parent() != nil {
		return ""
	}
	v, ok := p.Object().(*types.Var)
	if !ok {
		return ""
	}
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return ""
	}
	ev := l.evaluator(nil, p.Parent())
	if ev == nil || !isParamID(ev.params[v]) {
		return ""
	}
	return ev.params[v]
}

// slice turns a collection into the syntax tree's slice: each element's
// values, and for one that stands for many, its values as another
// iteration sees them, in again.
func (l *ssaLayer) slice(e *evaluator, c coll) slice {
	out := slice{open: c.open, half: c.half}
	for _, el := range c.elems {
		alts, ev := l.elemKeys(e, el)
		again := el.again
		if again == nil {
			again = l.again(ev, el, alts)
		}
		out.elems = append(out.elems, elem{alts: alts, many: el.many, again: again})
	}
	return out
}

// again returns the values of an element that stands for many as another
// of them holds: the unknowns that its function's loops set (and, for a
// value sent on a channel, its sender's parameters) differ.
func (l *ssaLayer) again(ev *evaluator, el sElem, alts []Value) []Value {
	if !el.many {
		return nil
	}
	var out []Value
	for _, a := range alts {
		k := a.Key
		if ev != nil {
			k = ev.vary(k)
		}
		k = varyOthers(k, el.sent)
		if el.mapper != nil {
			k = varyParams(k, el.mapper)
		}
		out = append(out, Value{k, a.Pos})
	}
	return out
}

// varyParams returns k with the unknowns that are fn's parameters as
// another call of fn holds them.
func varyParams(k keyspace.Key, fn *ssa.Function) keyspace.Key {
	ids := map[string]bool{}
	for _, fp := range fn.Params {
		ids[localID(fp)] = true
	}
	return varyIDs(k, ids)
}

// foreign returns values of another function as e's function sees them:
// that function's parameters ("$0", "$recv") are not e's, and are named
// after it ("save:$0").
func foreign(alts []Value, fn string) []Value {
	out := make([]Value, len(alts))
	for i, a := range alts {
		parts := slices.Clone(a.Key.Parts)
		for j, p := range parts {
			if p.Unknown && strings.HasPrefix(p.ID, "$") {
				parts[j].ID = fn + ":" + p.ID
			}
		}
		out[i] = Value{keyspace.Key{Parts: parts, Choices: a.Key.Choices}, a.Pos}
	}
	return out
}

// varyOthers returns k with the unknowns of a listing command's reply,
// and for a value sent on a channel those of its sender's parameters, as
// another element holds them.
func varyOthers(k keyspace.Key, sent bool) keyspace.Key {
	parts := make([]keyspace.Part, len(k.Parts))
	for i, p := range k.Parts {
		if p.Unknown && !strings.HasSuffix(p.ID, "'") && (strings.HasPrefix(p.ID, "reply@") || sent && (strings.HasPrefix(p.ID, "$") || strings.Contains(p.ID, ":$"))) {
			p.ID += "'"
		}
		parts[i] = p
	}
	return keyspace.Key{Parts: parts, Choices: k.Choices}
}

// elemKeys returns the values of one element, and the evaluator that gave
// them.
func (l *ssaLayer) elemKeys(e *evaluator, el sElem) ([]Value, *evaluator) {
	if el.keys != nil {
		return el.keys, nil
	}
	return l.valueKeys(e, el.v)
}

// unwrap returns the value that v converts to an interface or another
// type of the same underlying type.
func unwrap(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// valueKeys returns the values of a string SSA value: those of the
// expression that gave it, by the evaluator of its function; a constant's
// text; or the keys a listing command replies.
func (l *ssaLayer) valueKeys(e *evaluator, v ssa.Value) ([]Value, *evaluator) {
	v = unwrap(v)
	if c, ok := v.(*ssa.Const); ok && c.Value != nil {
		if s, ok := constString(c.Value); ok {
			return []Value{{keyspace.Lit(s), c.Pos()}}, nil
		}
	}
	if keys, ok := l.listedKeys(v); ok {
		return keys, nil
	}
	// An element of a listing command's reply, as a range over it reads
	// it (for _, key := range keys): one of the keys the reply holds.
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if ia, ok := u.X.(*ssa.IndexAddr); ok {
			if keys, ok := l.listedKeys(ia.X); ok {
				return keys, nil
			}
		}
	}
	if keys, ok := l.listedMember(v); ok {
		return keys, nil
	}
	if alts, ev, ok := l.mapEntry(e, v); ok {
		return alts, ev
	}
	if x := l.exprOf(v); x != nil {
		if ev := l.evaluator(e, v.Parent()); ev != nil {
			alts := ev.keys(x)
			if ev != e {
				alts = foreign(alts, ev.decl.Name.Name)
			}
			return alts, ev
		}
	}
	return []Value{{keyspace.Unknown("", "?", false), v.Pos()}}, nil
}

// mapEntry returns the values of a key or a value that a range over a map
// reads (for k, v := range m), where m is a map the function makes and
// fills with m[k] = v: each key, or value, that it stores, one of them
// at each turn. False for a map whose entries are not all seen: one
// passed to a function or stored elsewhere.
func (l *ssaLayer) mapEntry(e *evaluator, v ssa.Value) ([]Value, *evaluator, bool) {
	x, ok := v.(*ssa.Extract)
	if !ok || x.Index == 0 {
		return nil, nil, false
	}
	next, ok := x.Tuple.(*ssa.Next)
	if !ok || next.IsString {
		return nil, nil, false
	}
	rng, ok := next.Iter.(*ssa.Range)
	if !ok {
		return nil, nil, false
	}
	m, ok := rng.X.(*ssa.MakeMap)
	if !ok {
		return nil, nil, false
	}
	var out []Value
	var ev *evaluator
	for _, ref := range allRefs(m) {
		switch r := ref.(type) {
		case *ssa.MapUpdate:
			stored := r.Value
			if x.Index == 1 {
				stored = r.Key
			}
			alts, sev := l.valueKeys(e, stored)
			out = append(out, alts...)
			if ev == nil {
				ev = sev
			}
		case *ssa.Range, *ssa.Lookup, *ssa.DebugRef:
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" && b.Name() != "delete" {
				return nil, nil, false
			}
		default:
			return nil, nil, false
		}
	}
	if len(out) == 0 || len(out) > maxAlts {
		return nil, nil, false
	}
	return out, ev, true
}

// listedKeys returns the keys that a value holds when it is the reply of
// a command that lists keys by a pattern (KEYS, SCAN): its Result's first
// value, its Val, or the Val of its iterator. Each is one key that the
// pattern matches: its literal text, with an unknown for each wildcard.
func (l *ssaLayer) listedKeys(v ssa.Value) ([]Value, bool) {
	call := l.listCall(v)
	if call == nil {
		return l.importedReply(v)
	}
	return l.patternKeys(call)
}

// namesMember reports whether a value is written as the Member of
// something (m.Member.(string)): only such a value is looked up on SSA as
// a member of a reply, which spares building SSA for other keys.
func namesMember(alts []Value) bool {
	return anyPart(alts, func(p keyspace.Part) bool { return p.Unknown && strings.Contains(p.Name, ".Member") })
}

// anyPart reports whether some part of some value's key satisfies f.
func anyPart(alts []Value, f func(keyspace.Part) bool) bool {
	return slices.ContainsFunc(alts, func(a Value) bool { return slices.ContainsFunc(a.Key.Parts, f) })
}

// listedMember returns the keys that v holds when it is the member of an
// element of a listing command's reply, as a range over the reply of a
// sorted set's members with their scores reads it (go-redis's
// m.Member.(string) of ZRangeWithScores): one of the members the reply
// holds.
func (l *ssaLayer) listedMember(v ssa.Value) ([]Value, bool) {
	if x, ok := v.(*ssa.Extract); ok && x.Index == 0 {
		v = x.Tuple
	}
	if ta, ok := v.(*ssa.TypeAssert); ok {
		v = ta.X
	}
	var elem ssa.Value // the element, or its address
	switch f := v.(type) {
	case *ssa.Field:
		if fieldName(f.X.Type(), f.Field) != "Member" {
			return nil, false
		}
		elem = f.X
	case *ssa.UnOp:
		fa, ok := f.X.(*ssa.FieldAddr)
		if !ok || f.Op != token.MUL || fieldName(fa.X.Type(), fa.Field) != "Member" {
			return nil, false
		}
		elem = fa.X
	default:
		return nil, false
	}
	if a, ok := elem.(*ssa.Alloc); ok {
		// The range variable whose field the code addresses: what is
		// stored in it.
		elem = storedOnce(a)
	}
	if u, ok := elem.(*ssa.UnOp); ok && u.Op == token.MUL {
		elem = u.X
	}
	ia, ok := elem.(*ssa.IndexAddr)
	if !ok {
		return nil, false
	}
	return l.listedKeys(ia.X)
}

// fieldName returns the name of field i of a struct type, or of the struct
// a pointer type points to.
func fieldName(t types.Type, i int) string {
	st, ok := deref(t).Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return ""
	}
	return st.Field(i).Name()
}

// scanPage returns the raw SCAN call whose page of keys v is. redigo's
// reply of SCAN is a cursor and a page, read as res[0] and res[1] of
// res, err := redis.Values(conn.Do("SCAN", cursor, "MATCH", pattern)).
func (l *ssaLayer) scanPage(v ssa.Value) *ssa.Call {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	ia, ok := load.X.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	if i, ok := ia.Index.(*ssa.Const); !ok || i.Value == nil || i.Int64() != 1 {
		return nil
	}
	res, ok := ia.X.(*ssa.Extract)
	if !ok || res.Index != 0 {
		return nil
	}
	conv, ok := res.Tuple.(*ssa.Call)
	if !ok || !l.replyHelper(conv) {
		return nil
	}
	r, ok := conv.Call.Args[0].(*ssa.Extract)
	if !ok || r.Index != 0 {
		return nil
	}
	if c, ok := r.Tuple.(*ssa.Call); ok && l.rawCommand(c) == "SCAN" {
		return c
	}
	return nil
}

// rawCommand returns the name, in upper case, of the command a raw call
// such as redigo's conn.Do("SCAN", ...) sends; "" for any other call.
func (l *ssaLayer) rawCommand(c *ssa.Call) string {
	x, ok := l.exprOf(c).(*ast.CallExpr)
	if !ok {
		return ""
	}
	_, m := l.g.Resolve(x)
	if m == nil || m.Kind != ruleset.KindRaw {
		return ""
	}
	r, ok := l.g.rawArgs(x, m)
	if !ok {
		return ""
	}
	return strings.ToUpper(r.argv[0])
}

// listCall returns the command call whose reply v is, by its Result's
// first value, its Val, or the Val of its iterator; nil for any other v.
func (l *ssaLayer) listCall(v ssa.Value) *ssa.Call {
	var cmd ssa.Value
	switch x := v.(type) {
	case *ssa.TypeAssert:
		return l.scanPage(x.X) // res[1].([]interface{})
	case *ssa.Extract:
		if ta, ok := x.Tuple.(*ssa.TypeAssert); ok && x.Index == 0 {
			return l.scanPage(ta.X) // page, ok := res[1].([]interface{})
		}
		call, ok := x.Tuple.(*ssa.Call)
		if !ok || x.Index != 0 {
			return nil
		}
		if l.replyHelper(call) {
			// redigo's redis.Values(conn.Do("SMEMBERS", k)): the reply of
			// Do; that of SCAN is a cursor and a page.
			if r, ok := call.Call.Args[0].(*ssa.Extract); ok && r.Index == 0 {
				c, _ := r.Tuple.(*ssa.Call)
				if c != nil && l.rawCommand(c) == "SCAN" {
					return nil
				}
				return c
			}
			return l.scanPage(call.Call.Args[0]) // redis.Strings(res[1], nil)
		}
		if sent := l.convertedReply(call); sent != nil {
			// rueidis's c.Do(ctx, cmd).AsStrSlice(), .AsScanEntry()
			return sent
		}
		if call.Call.IsInvoke() && l.g.byName(call.Call.Method) != nil {
			// keys, err := r.Keys(ctx, "*") of a project's own Redis
			// interface, which returns the reply itself
			return call
		}
		if methodName(call) != "Result" {
			return nil
		}
		cmd = receiverOf(call)
	case *ssa.Call:
		if methodName(x) != "Val" {
			return nil
		}
		cmd = receiverOf(x)
		if it, ok := cmd.(*ssa.Call); ok && methodName(it) == "Iterator" {
			cmd = receiverOf(it)
		}
	}
	call, _ := cmd.(*ssa.Call)
	return call
}

// convertedReply returns the send call whose reply a call converts, a
// method of a client package with no parameters that returns a value and
// an error, called on what a send method returns (rueidis's and
// valkey-go's Do(ctx, cmd).AsStrSlice()); nil for any other call.
func (l *ssaLayer) convertedReply(c *ssa.Call) *ssa.Call {
	fn := c.Call.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || fn.Pkg == nil || !l.g.IsClientPackage(fn.Pkg.Pkg) || fn.Signature.Params().Len() != 0 || fn.Signature.Results().Len() != 2 {
		return nil
	}
	sent, ok := unwrap(receiverOf(c)).(*ssa.Call)
	if !ok {
		return nil
	}
	x, ok := l.exprOf(sent).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if _, m := l.g.Resolve(x); m == nil || m.Kind != ruleset.KindSend {
		return nil
	}
	return sent
}

// listedField returns the keys a []string field (of type t, a pointer to
// it for a field of a variable) of a converted reply x holds (rueidis's
// ScanEntry.Elements), through the phis of a loop that reads page after
// page, or the variable that holds each page.
func (l *ssaLayer) listedField(t types.Type, x ssa.Value) ([]Value, bool) {
	if !isStringSlice(deref(t)) {
		return nil, false
	}
	var out []Value
	seen := map[ssa.Value]bool{}
	var visit func(v ssa.Value) bool
	visit = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Phi:
			for _, e := range v.Edges {
				if !visit(e) {
					return false
				}
			}
			return true
		case *ssa.Const:
			return true // the zero value before the first page
		case *ssa.Extract:
			keys, ok := l.listedKeys(v)
			out = append(out, keys...)
			return ok
		case *ssa.Alloc:
			// var scan ScanEntry, set page after page: every value
			// stored in it.
			stored := false
			for _, ref := range allRefs(v) {
				switch r := ref.(type) {
				case *ssa.Store:
					if r.Addr != v {
						continue
					}
					if !visit(r.Val) {
						return false
					}
					stored = true
				case *ssa.FieldAddr, *ssa.UnOp, *ssa.DebugRef:
				default:
					return false
				}
			}
			return stored
		}
		return false
	}
	if !visit(x) || len(out) == 0 {
		return nil, false
	}
	return out, true
}

// replyHelper reports whether a call converts a reply of redigo's Do:
// a function of a client package of rules.yaml (redigo's redis, under
// either import path) of (reply interface{}, err error),
// such as redis.Values, redis.Strings and redis.ByteSlices.
func (l *ssaLayer) replyHelper(c *ssa.Call) bool {
	fn := c.Call.StaticCallee()
	if fn == nil || fn.Signature.Recv() != nil || fn.Pkg == nil || l.g.rules.ClientOf(fn.Pkg.Pkg.Path()) == nil {
		return false
	}
	params := fn.Signature.Params()
	if params.Len() != 2 || len(c.Call.Args) != 2 {
		return false
	}
	_, isIface := params.At(0).Type().Underlying().(*types.Interface)
	return isIface && isErrorType(params.At(1).Type())
}

// methodName returns the name of the method a call calls, or "".
func methodName(c *ssa.Call) string {
	if c.Call.IsInvoke() {
		return c.Call.Method.Name()
	}
	if fn := c.Call.StaticCallee(); fn != nil && fn.Signature.Recv() != nil {
		return fn.Name()
	}
	return ""
}

// receiverOf returns the receiver of a method call.
func receiverOf(c *ssa.Call) ssa.Value {
	if c.Call.IsInvoke() {
		return c.Call.Value
	}
	if len(c.Call.Args) > 0 {
		return c.Call.Args[0]
	}
	return nil
}

// patternKeys returns the keys that a call of KEYS or SCAN lists: those
// its pattern, the method's parameter named match or pattern, matches, as
// the evaluator of the call's function gives the pattern.
func (l *ssaLayer) patternKeys(call *ssa.Call) ([]Value, bool) {
	x, m, pats, ok := l.pattern(call)
	if !ok {
		return nil, false
	}
	// Members used as keys, or the keys of a pattern that a caller in
	// another module gives: keys of no shape the code shows, nothing
	// here keeps in one slot.
	reply := []Value{{keyspace.Unknown(fmt.Sprintf("reply@%d#0.0", x.Pos()), m.Command+" reply", false), x.Pos()}}
	if pats == nil {
		return reply, true
	}
	out, ok := globKeys(pats, fmt.Sprintf("reply@%d", x.Pos()))
	if !ok && l.callersPattern(call, pats) {
		return reply, true
	}
	return out, ok && len(out) > 0
}

// callersPattern reports whether the patterns of a listing call are each
// wholly a parameter of its function or an element of one ($0,
// $1[key@...]), a function that other modules call.
func (l *ssaLayer) callersPattern(call *ssa.Call, pats []Value) bool {
	fn, _ := call.Parent().Object().(*types.Func)
	if len(pats) == 0 || !l.g.reachedFromOutside(fn) {
		return false
	}
	for _, p := range pats {
		if len(p.Key.Parts) != 1 || !p.Key.Parts[0].Unknown {
			return false
		}
		if !strings.HasPrefix(p.Key.Parts[0].ID, "$") {
			return false
		}
	}
	return true
}

// patternAt returns the values of a listing command's pattern argument x,
// each placed at x.
func patternAt(ev *evaluator, x ast.Expr) []Value {
	pats := slices.Clone(ev.keys(x))
	for j := range pats {
		pats[j].Pos = x.Pos()
	}
	return pats
}

// listsKeys reports whether a command's reply lists keys: one whose reply
// lists the members of a key (the rules' member-replies, SMEMBERS), or a
// keyspace-wide read (KEYS, SCAN).
func (g *Engine) listsKeys(command string) bool {
	if g.rules.RepliesMembers(command) {
		return true
	}
	cmd := g.rules.Command(command)
	return cmd != nil && cmd.KeyspaceWide && !cmd.IsWrite()
}

// pattern returns the call expression of a command call that lists keys
// (a keyspace-wide read: KEYS, SCAN), its method, and the values of its
// pattern, the method's parameter named match or pattern, as the evaluator of the call's function gives them;
// no pattern for a command whose reply lists the members of one key
// (the rules' member-replies).
func (l *ssaLayer) pattern(call *ssa.Call) (*ast.CallExpr, *ruleset.Method, []Value, bool) {
	x, ok := l.exprOf(call).(*ast.CallExpr)
	if !ok {
		return nil, nil, nil, false
	}
	fn, m := l.g.Resolve(x)
	if m == nil {
		return nil, nil, nil, false
	}
	if m.Kind == ruleset.KindRaw {
		r, ok := l.g.rawArgs(x, m)
		// conn.Do("SMEMBERS", key): a raw command whose reply lists the
		// members of one key.
		if ok && l.g.rules.RepliesMembers(r.argv[0]) {
			named := *m
			named.Command = strings.ToUpper(r.argv[0])
			return x, &named, nil, true
		}
		// conn.Do("KEYS", pattern): the keys its one argument matches.
		if ok && strings.EqualFold(r.argv[0], "KEYS") && len(r.args) == 2 && !r.open {
			if ev := l.evaluator(nil, call.Parent()); ev != nil {
				named := *m
				named.Command = "KEYS"
				return x, &named, patternAt(ev, r.args[1]), true
			}
		}
		// conn.Do("SCAN", cursor, "MATCH", pattern): the keys the pattern
		// matches; every key without MATCH.
		if ok && strings.EqualFold(r.argv[0], "SCAN") && !r.open {
			ev := l.evaluator(nil, call.Parent())
			if ev == nil {
				return nil, nil, nil, false
			}
			named := *m
			named.Command = "SCAN"
			var pats []Value
			for i := 2; i+1 < len(r.args); i++ {
				if strings.EqualFold(r.argv[i], "MATCH") {
					pats = patternAt(ev, r.args[i+1])
				}
			}
			return x, &named, pats, true
		}
		// conn.Do(command, key, ...) with command a parameter that every
		// caller fills with such a command (ZRANGE, ZREVRANGE).
		if names, ok := l.rawCommandParam(x, m); ok && !slices.ContainsFunc(names, func(s string) bool { return !l.g.rules.RepliesMembers(s) }) {
			named := *m
			named.Command = strings.ToUpper(names[0])
			return x, &named, nil, true
		}
		return nil, nil, nil, false
	}
	// The command, and the argument that holds its pattern: the
	// method's parameter named match or pattern, or for a command a
	// builder chain built and a send method sent (rueidis's
	// c.Do(ctx, c.B().Scan().Cursor(c).Match(p).Build())), that of the
	// chain's method.
	ev := l.evaluator(nil, call.Parent())
	if ev == nil {
		return nil, nil, nil, false
	}
	named := *m
	var patArg func() ast.Expr
	if m.Kind == ruleset.KindSend {
		if m.Args == nil || m.Args.Variadic || m.Args.Param >= len(x.Args) {
			return nil, nil, nil, false
		}
		b, ok := l.g.builtCommand(ev, x.Args[m.Args.Param])
		if !ok {
			return nil, nil, nil, false
		}
		named.Command = b.command
		patArg = func() ast.Expr { return l.g.chainArg(ev, x.Args[m.Args.Param], "match", "pattern") }
	} else {
		patArg = func() ast.Expr {
			params := fn.Signature().Params()
			for i := 0; i < params.Len() && i < len(x.Args); i++ {
				if name := params.At(i).Name(); name == "match" || name == "pattern" {
					return x.Args[i]
				}
			}
			return nil
		}
	}
	if l.g.rules.RepliesMembers(named.Command) {
		return x, &named, nil, true
	}
	if !l.g.listsKeys(named.Command) {
		// Only a command that reads the keyspace lists keys by a pattern
		// (KEYS, SCAN; the rules' keyspace-wide reads).
		return nil, nil, nil, false
	}
	arg := patArg()
	if arg == nil {
		return nil, nil, nil, false
	}
	pats := slices.Clone(ev.keys(arg))
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok && len(pats) == 1 && len(pats[0].Key.Parts) == 1 && isParamID(pats[0].Key.Parts[0].ID) && !returnsStrings(call.Parent()) {
		// A helper's pattern parameter: the patterns its callers give,
		// where it acts on the keys itself. One that returns them is read
		// at its callers, with their patterns (its summary).
		if v, ok := l.g.info.Uses[id].(*types.Var); ok {
			if alts, ok := l.g.callerPatterns(v); ok {
				pats = alts
			}
		}
	}
	for j := range pats {
		pats[j].Pos = arg.Pos()
	}
	return x, &named, pats, true
}

// returnsStrings reports whether fn returns a []string.
func returnsStrings(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	for i := range res.Len() {
		if isStringSlice(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// rawCommandParam returns the command names that a raw call's command
// argument holds when it is a parameter that every caller fills with a
// constant (callerConsts).
func (l *ssaLayer) rawCommandParam(x *ast.CallExpr, m *ruleset.Method) ([]string, bool) {
	if m.Args == nil || m.Args.Param >= len(x.Args) {
		return nil, false
	}
	id, ok := ast.Unparen(x.Args[m.Args.Param]).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := l.g.info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	return l.g.callerConsts(v)
}

// globKeys returns the keys that the patterns pats match (globKey), the
// n-th pattern's unknowns named id#n; false when one has no text.
func globKeys(pats []Value, id string) ([]Value, bool) {
	var out []Value
	for n, alt := range pats {
		k, ok := globKey(alt.Key, fmt.Sprintf("%s#%d", id, n))
		if !ok {
			return nil, false
		}
		out = append(out, Value{k, alt.Pos})
	}
	return out, true
}

// globKey returns the key that stands for those a glob pattern matches:
// its literal text, with an unknown for each run of wildcards (*, ?,
// [...]); the pattern's unknown parts stay unknown, each one value in
// every key of the reply. A pattern with an escape, or no literal text,
// gives none.
func globKey(pat keyspace.Key, id string) (keyspace.Key, bool) {
	var parts []keyspace.Key
	n := 0
	for i, p := range pat.Parts {
		if p.Unknown {
			if p.ID == "" {
				// A value of the pattern that has no identity of its own
				// (keysFor(eventID).prefix() + "*") is one value in every
				// key of the reply: the pattern is sent once.
				p.ID = fmt.Sprintf("pattern:%s.%d", id, i)
			}
			parts = append(parts, keyspace.Key{Parts: []keyspace.Part{p}})
			continue
		}
		text := p.Lit
		if strings.ContainsRune(text, '\\') {
			return keyspace.Key{}, false
		}
		lit := 0
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c != '*' && c != '?' && c != '[' {
				continue
			}
			if i > lit {
				parts = append(parts, keyspace.Lit(text[lit:i]))
			}
			if c == '[' {
				j := strings.IndexByte(text[i:], ']')
				if j < 0 {
					return keyspace.Key{}, false
				}
				i += j
			}
			for i+1 < len(text) && (text[i+1] == '*' || text[i+1] == '?') {
				i++
			}
			parts = append(parts, keyspace.Unknown(fmt.Sprintf("%s.%d", id, n), "*", false))
			n++
			lit = i + 1
		}
		if lit < len(text) {
			parts = append(parts, keyspace.Lit(text[lit:]))
		}
	}
	k := keyspace.Concat(parts...)
	return k, HasShape(k) || n > 0
}

// Listed reports whether k stands for the keys of a listing command's
// reply (KEYS, SCAN, or the members of an index key: the rules'
// member-replies): keys
// the server holds, each one different, so that several of them may span
// slots even when the code shows no text of theirs.
func Listed(k keyspace.Key) bool {
	for _, p := range k.Parts {
		if p.Unknown && strings.HasPrefix(p.ID, "reply@") {
			return true
		}
	}
	return false
}

// ReadBack reports whether k is nothing but keys of a listing command's
// reply (Listed): "<SMEMBERS reply>", a SCAN of "*", with no text or
// other value of the code's.
func ReadBack(k keyspace.Key) bool {
	return len(k.Parts) > 0 && !slices.ContainsFunc(k.Parts, func(p keyspace.Part) bool {
		return !p.Unknown || !strings.HasPrefix(p.ID, "reply@")
	})
}

// rawSpread resolves a raw call whose last argument spreads a slice that
// the function builds, Do(ctx, args...) with args []interface{}{"DEL"}
// grown by append, or redigo's Do("DEL", args...): the arguments before
// the spread and the slice's elements are the command and its arguments,
// an element that stands for many given twice, as two iterations of its
// loop add it. It reports false when the command's name or where its keys
// fall is not known.
func (g *Engine) rawSpread(e *evaluator, site *Site) bool {
	call, m := site.Call, site.Method
	if m.Args == nil || m.Args.Flat || !spread(call, m) || m.Args.Param >= len(call.Args) {
		return false
	}
	var items []rawItem
	for _, a := range call.Args[m.Args.Param : len(call.Args)-1] {
		it := rawItem{alts: e.keys(a)}
		if tv := g.info.Types[a]; tv.Value != nil {
			it.text, _ = constString(tv.Value)
		}
		items = append(items, it)
	}
	last := call.Args[len(call.Args)-1]
	if p := e.spreadParam(last); p != "" {
		if len(items) == 0 {
			return false // Do(ctx, args...) of the callers' command
		}
		return g.rawSpreadParam(site, items[0].text, len(items), func(i int) Group { return items[i].alts },
			Group{{keyspace.Unknown(p+"...", exprName(last)+"...", false), last.Pos()}}, false)
	}
	sl, ok := g.ssaSpread(e, call, last)
	if !ok || sl.open {
		return false
	}
	var run []rawItem // the elements of the last loop, given again after it
	var again []rawItem
	flush := func() {
		items = append(items, run...)
		items = append(items, again...)
		run, again = nil, nil
	}
	for _, el := range sl.elems {
		it := rawItem{alts: el.alts}
		if len(el.alts) == 1 {
			it.text, _ = el.alts[0].Key.Literal()
		}
		if !el.many {
			flush()
			items = append(items, it)
			continue
		}
		it.many = true
		run = append(run, it)
		again = append(again, rawItem{alts: e.again(el), text: it.text, many: true})
	}
	flush()
	if len(items) == 0 || items[0].text == "" {
		return false
	}
	spreads := 0
	for _, it := range items {
		if it.spread() {
			spreads++
		}
	}
	if spreads > 0 {
		// A parameter appended whole: the callers' elements.
		if g.evalPassedOn(e, site, items) {
			return true
		}
		n := slices.IndexFunc(items, rawItem.spread)
		if spreads > 1 || n == 0 {
			return g.leastKeys(site, items)
		}
		fixed := func(i int) Group { return items[i].alts }
		if n < len(items)-1 {
			// Options after the callers' arguments (ZINTER's
			// WITHSCORES): only where the callers count their keys.
			for _, it := range items[n+1:] {
				if it.text == "" || it.many {
					return g.leastKeys(site, items)
				}
			}
			return g.rawSpreadParam(site, items[0].text, n, fixed, items[n].alts, true)
		}
		return g.rawSpreadParam(site, items[0].text, n, fixed, items[n].alts, false) ||
			g.rawSpreadNoKeys(site, items[0].text, n, fixed)
	}
	if g.countedPassedOn(e, site, items) {
		return true
	}
	if k, n := elemsRun(items); k >= 0 {
		// Every element of a slice parameter appended one by one after
		// the command's fixed arguments (a helper that joins the
		// command's name and its arguments): the parameter passed on.
		return g.rawSpreadParam(site, items[0].text, n, func(i int) Group { return items[i].alts }, e.paramList(k, items[n].alts[0].Pos), false)
	}
	argv := make([]string, len(items))
	for i, it := range items {
		argv[i] = it.text
	}
	cmd := g.rules.Command(argv[0])
	if len(argv) > 1 && argv[1] != "" {
		cmd = g.rules.Command(argv[0], argv[1])
	}
	if cmd == nil {
		return false
	}
	pos, ok := cmd.KeyPositions(argv)
	if !ok {
		return g.leastKeys(site, items)
	}
	site.Command = strings.ToUpper(argv[0])
	site.Name = site.Command
	for _, p := range pos {
		if p < len(items) {
			site.Keys = append(site.Keys, items[p].alts)
		}
	}
	setFlags(site, cmd)
	if site.Command == "SORT" || site.Command == "SORT_RO" {
		site.SortRefused = argvSortRefused(argv, func(i int) Group { return items[i].alts })
	}
	// EVAL and EVALSHA of a script the package holds: its KEYS, the
	// elements the numkeys argument counts, and its ARGV, in whatever
	// number the loops add.
	switch strings.ToLower(argv[0]) {
	case "eval", "evalsha", "eval_ro", "evalsha_ro":
		if len(items) < 3 {
			break
		}
		n, err := strconv.Atoi(argv[2])
		if err != nil || n < 0 || 3+n > len(items) || slices.ContainsFunc(items[:3+n], func(it rawItem) bool { return it.many }) {
			break
		}
		ref, ok := g.scriptsBySHA()[argv[1]], false
		if strings.HasPrefix(strings.ToLower(argv[0]), "evalsha") {
			ok = ref.Src != ""
		} else if argv[1] != "" {
			ref, ok = ScriptRef{Name: "script", Src: argv[1], Pos: items[1].alts[0].Pos}, true
		}
		if !ok {
			break
		}
		run := &ScriptRun{Ref: ref, Cluster: g.clusterCapable(receiver(call)), ReadOnly: g.readOnlyCommand(argv[0])}
		for _, it := range items[3 : 3+n] {
			run.Keys = append(run.Keys, it.alts)
		}
		for _, it := range items[3+n:] {
			run.Args = append(run.Args, it.alts)
			run.ArgsOpen = run.ArgsOpen || it.many
		}
		site.Script = run
	}
	return true
}

// leastKeys resolves a raw command whose key count is not known, as a
// recommendation engine builds its ZUNIONSTORE:
//
//	args := []interface{}{"ztmp", float64(max)}
//	for i := 0; i < max; i++ {
//		args = append(args, fmt.Sprintf("item:%s:scores", items[i]))
//	}
//	args = append(args, weights...)
//	conn.Do("ZUNIONSTORE", args...)
//
// The keys are those before the count and the first after it, which the
// command takes at the least (ruleset's LeastKeyPositions); the others
// are not seen (Open), whatever follows. A script's count may be 0:
// scripts are evalPassedOn's and rawScript's.
func (g *Engine) leastKeys(site *Site, items []rawItem) bool {
	if len(items) == 0 || items[0].text == "" {
		return false
	}
	cmd := g.rules.Command(items[0].text)
	if cmd == nil || runsScript(cmd) {
		return false
	}
	end := 0 // the arguments up to the first key after the count
	for _, ks := range cmd.Keys {
		if ks.IsKeyNum && ks.Keyword == "" {
			end = max(end, ks.Index+ks.KeyNumIdx+ks.FirstKey+1)
		}
	}
	if end == 0 || end > len(items) {
		return false
	}
	argv := make([]string, end)
	for i, it := range items[:end] {
		if it.spread() || it.many && i < end-1 {
			return false
		}
		argv[i] = it.text
	}
	pos, ok := cmd.LeastKeyPositions(argv)
	if !ok || len(pos) < 2 {
		return false
	}
	site.Command = strings.ToUpper(argv[0])
	site.Name = site.Command
	for _, p := range pos {
		site.Keys = append(site.Keys, items[p].alts)
	}
	site.Open = true
	setFlags(site, cmd)
	return true
}

// A rawItem is one argument of a raw command whose arguments a slice
// spreads: its values, its text when it is constant, and whether it
// stands for many (one of the elements a loop adds).
type rawItem struct {
	alts []Value
	text string
	many bool
}

// param returns N when the item is the slice parameter N passed on
// whole ("$N..."), or -1.
func (it rawItem) param() int {
	if len(it.alts) != 1 {
		return -1
	}
	return spreadIndex(it.alts[0].Key)
}

func (it rawItem) spread() bool { return it.param() >= 0 }

// elemsOf reports whether the item is the elements of slice parameter n,
// one at each turn of a range over it, or n passed on whole.
func (it rawItem) elemsOf(n int) bool {
	if it.param() == n {
		return true
	}
	if !it.many || len(it.alts) == 0 {
		return false
	}
	for _, a := range it.alts {
		if len(a.Key.Parts) != 1 || !a.Key.Parts[0].Unknown {
			return false
		}
		if m, ok := elemParam(a.Key.Parts[0].ID); !ok || m != n {
			return false
		}
	}
	return true
}

// evalPassedOn resolves EVAL or EVALSHA sent raw with the script, the
// keys and the arguments all the function's parameters, as a project's
// adapter over its client does:
//
//	func (a *Adapter) Eval(ctx context.Context, script string, keys []string, args []interface{}) (interface{}, error) {
//		return redis.DoContext(a.Conn, ctx, "EVAL", buildEvalArgs(script, keys, args...)...)
//	}
//
// with the arguments [script, len(keys), each key, args...]: the numkeys
// argument len(keys) says that the keys are the elements of keys, and
// the callers give the script, its keys and its arguments, as with a
// client's Eval (WrappedCall.Script).
func (g *Engine) evalPassedOn(e *evaluator, site *Site, items []rawItem) bool {
	switch strings.ToLower(items[0].text) {
	case "eval", "evalsha", "eval_ro", "evalsha_ro":
	default:
		return false
	}
	if len(items) < 4 || len(items[1].alts) != 1 || len(items[2].alts) != 1 {
		return false
	}
	script := unknownID(items[1].alts[0].Key)
	if !isParamID(script) {
		return false
	}
	k, ok := lenOfParam(items[2].alts[0].Key)
	if !ok {
		return false
	}
	i := 3
	for i < len(items) && items[i].elemsOf(k) {
		i++
	}
	if i == 3 {
		return false
	}
	cmd := g.rules.Command(items[0].text)
	if cmd == nil {
		return false
	}
	site.Command = strings.ToUpper(items[0].text)
	site.Name = site.Command
	site.Keys = []Group{e.paramList(k, items[3].alts[0].Pos)}
	n, _ := strconv.Atoi(script[1:])
	site.scriptParam = n + 1
	site.runArgsKnown = true
	for _, it := range items[i:] {
		site.runArgs = append(site.runArgs, it.alts)
		site.runArgsOpen = site.runArgsOpen || it.many
	}
	setFlags(site, cmd)
	return true
}

// elemsRun returns k and n when the items after the first n, which are
// not many, are all the elements of slice parameter k, one at each turn
// of a loop over it; -1 otherwise.
func elemsRun(items []rawItem) (k, n int) {
	n = slices.IndexFunc(items, func(it rawItem) bool { return it.many })
	if n < 1 || len(items[n].alts) == 0 || items[n].param() >= 0 {
		return -1, 0
	}
	k, ok := elemParam(unknownID(items[n].alts[0].Key))
	if !ok {
		return -1, 0
	}
	for _, it := range items[n:] {
		if !it.elemsOf(k) {
			return -1, 0
		}
	}
	return k, n
}

// countedPassedOn resolves a raw command whose key count is len(keys)
// of a slice parameter keys, and whose keys are its elements after it,
// as a framework's ZDIFF builds it:
//
//	args := []interface{}{"ZDIFF", len(keys)}
//	for _, key := range keys {
//		args = append(args, key)
//	}
//
// The keys are the parameter's, passed on whole ("$N..."), for the
// callers to fill. Scripts are evalPassedOn's.
func (g *Engine) countedPassedOn(e *evaluator, site *Site, items []rawItem) bool {
	cmd := g.rules.Command(items[0].text)
	if cmd == nil || runsScript(cmd) {
		return false
	}
	for i := 1; i+1 < len(items); i++ {
		if len(items[i].alts) != 1 {
			continue
		}
		k, ok := lenOfParam(items[i].alts[0].Key)
		if !ok || !items[i+1].elemsOf(k) {
			continue
		}
		j := i + 1
		for j < len(items) && items[j].elemsOf(k) {
			j++
		}
		// The command as if the list held one key, and then two: the
		// count must be the one its key spec reads.
		argv := func(n int) []string {
			var out []string
			for _, it := range items[:i] {
				out = append(out, it.text)
			}
			out = append(out, strconv.Itoa(n))
			out = append(out, make([]string, n)...)
			for _, it := range items[j:] {
				out = append(out, it.text)
			}
			return out
		}
		pos, ok := cmd.KeyPositions(argv(1))
		pos2, ok2 := cmd.KeyPositions(argv(2))
		if !ok || !ok2 || !slices.Contains(pos, i+1) || !slices.Contains(pos2, i+1) || !slices.Contains(pos2, i+2) {
			return false
		}
		site.Command = strings.ToUpper(items[0].text)
		site.Name = site.Command
		for _, p := range pos {
			switch {
			case p < i+1:
				site.Keys = append(site.Keys, items[p].alts)
			case p == i+1:
				site.Keys = append(site.Keys, e.paramList(k, items[i+1].alts[0].Pos))
			default:
				site.Keys = append(site.Keys, items[p-(i+2)+j].alts)
			}
		}
		setFlags(site, cmd)
		return true
	}
	return false
}

// runsScript reports whether a command runs a script or a function
// (EVAL, EVALSHA, FCALL and their _RO forms), whose keys come with the
// script's checks (evalPassedOn, rawScript).
func runsScript(cmd *ruleset.Command) bool {
	return strings.HasPrefix(cmd.Name, "eval") || strings.HasPrefix(cmd.Name, "fcall")
}

// lenOfParam returns N of a key that is len($N), the length of the
// function's parameter N.
func lenOfParam(k keyspace.Key) (int, bool) {
	counted, ok := strings.CutPrefix(unknownID(k), "len(")
	counted = strings.TrimSuffix(counted, ")")
	if !ok || !isParamID(counted) {
		return 0, false
	}
	n, err := strconv.Atoi(counted[1:])
	return n, err == nil
}

// unknownID returns the identity of a key that is one unknown value, or "".
func unknownID(k keyspace.Key) string {
	if len(k.Parts) != 1 || !k.Parts[0].Unknown {
		return ""
	}
	return k.Parts[0].ID
}

// rawSpreadParam resolves Do("MGET", keys...) with keys a parameter of the
// function: a command whose keys run from its n fixed arguments (name
// first) through every argument of the spread takes the parameter's
// elements as keys, the key list passed on whole ("$N..."), for the
// callers to fill; one whose keys run through all but the last argument
// (Do("BLPOP", args...), the timeout last) all but the last element
// ("$N...-1"); one whose keys are every other argument (MSET's pairs)
// every other element ("$N...%2"); one whose key count comes first
// (ZUNION numkeys key [key ...]) the elements it counts ("$N...#"), and
// then arguments after the spread, options (optsAfter), do not change
// which are keys.
func (g *Engine) rawSpreadParam(site *Site, name string, n int, fixed func(int) Group, spread Group, optsAfter bool) bool {
	if name == "" {
		return false
	}
	cmd := g.rules.Command(name)
	if cmd == nil {
		return false
	}
	f, ok := spreadKeys(cmd, n)
	if !ok || optsAfter && !f.Counted {
		return false
	}
	// The keys among the fixed arguments, the name's first: the same
	// whatever the spread holds.
	argv := make([]string, n+3)
	argv[0] = name
	argv[n] = "2"
	pos, _ := cmd.KeyPositions(argv)
	site.Command = strings.ToUpper(name)
	site.Name = site.Command
	for _, p := range pos {
		if p < n {
			site.Keys = append(site.Keys, fixed(p))
		}
	}
	site.Keys = append(site.Keys, withForm(spread, f))
	setFlags(site, cmd)
	return true
}

// spreadKeys returns which arguments of a spread after n fixed ones
// (name first) are keys, tried with 2 to 6 of them: every one, every
// one but the last (BLPOP's timeout), every step-th from the first as
// the command's key spec steps (MSET's pairs, JSON.MSET's triples), or
// those that the first counts (numkeys).
func spreadKeys(cmd *ruleset.Command, n int) (spreadForm, bool) {
	// keysIn returns the positions of the keys in the spread of extra
	// arguments, given texts, "" unknown.
	keysIn := func(texts ...string) ([]int, bool) {
		argv := make([]string, n+len(texts))
		argv[0] = cmd.Name
		copy(argv[n:], texts)
		pos, ok := cmd.KeyPositions(argv)
		var in []int
		for _, p := range pos {
			if p >= n {
				in = append(in, p-n)
			}
		}
		return in, ok
	}
	form := func(want func(extra int) []int) bool {
		for extra := 2; extra <= 6; extra++ {
			pos, ok := keysIn(make([]string, extra)...)
			if !ok || !slices.Equal(pos, want(extra)) {
				return false
			}
		}
		return true
	}
	upTo := func(last, step int) []int {
		var out []int
		for i := 0; i < last; i += step {
			out = append(out, i)
		}
		return out
	}
	switch {
	case form(func(extra int) []int { return upTo(extra, 1) }):
		return spreadForm{}, true
	case form(func(extra int) []int { return upTo(extra-1, 1) }):
		return spreadForm{Tail: 1}, true
	case runsScript(cmd):
		return spreadForm{}, false // a script's keys: evalPassedOn
	}
	// Every step-th argument, as a key spec's step says (MSET's pairs,
	// JSON.MSET's triples).
	for _, ks := range cmd.Keys {
		if step := ks.Step; step > 1 && form(func(extra int) []int { return upTo(extra, step) }) {
			return spreadForm{Step: step}, true
		}
	}
	// numkeys first: 1, 2 and 3 keys after it, and an option after them.
	for k := 1; k <= 3; k++ {
		texts := make([]string, k+2)
		texts[0] = strconv.Itoa(k)
		texts[k+1] = "WEIGHTS"
		pos, ok := keysIn(texts...)
		if !ok || !slices.Equal(pos, upTo(k+1, 1)[1:]) {
			return spreadForm{}, false
		}
	}
	return spreadForm{Counted: true}, true
}

// rawSpreadNoKeys resolves Do("HDEL", key, fields...) with fields a
// parameter of the function: a command whose keys are among its n fixed
// arguments (name first) whatever the number of arguments the spread
// adds, which are then not keys.
func (g *Engine) rawSpreadNoKeys(site *Site, name string, n int, fixed func(int) Group) bool {
	cmd := g.rules.Command(name)
	if name == "" || cmd == nil {
		return false
	}
	var pos []int
	for extra := 1; extra <= 3; extra++ {
		argv := make([]string, n+extra)
		argv[0] = name
		p, ok := cmd.KeyPositions(argv)
		if !ok || extra > 1 && !slices.Equal(p, pos) || slices.ContainsFunc(p, func(i int) bool { return i >= n }) {
			return false
		}
		pos = p
	}
	site.Command = strings.ToUpper(name)
	site.Name = site.Command
	for _, p := range pos {
		site.Keys = append(site.Keys, fixed(p))
	}
	setFlags(site, cmd)
	return true
}

// sliceShaped reports whether some element of a slice has a value with
// literal text, placeholders aside: one the evaluator has seen built.
func sliceShaped(s slice) bool {
	for _, el := range s.elems {
		for _, a := range Group(el.alts).WithoutPlaceholders() {
			if HasShape(a.Key) {
				return true
			}
		}
	}
	return false
}

// keyArg returns the values of a key argument. A value of SCAN's iterator
// is a key its pattern matches. A field of a local struct
// (o.key) may be a field of structs sent on a channel of the package: the
// SSA layer gives the values the senders on that channel put there.
func (g *Engine) keyArg(e *evaluator, x ast.Expr) []Value {
	alts := e.keys(x)
	if _, isCall := ast.Unparen(x).(*ast.CallExpr); isCall && !shaped(alts) {
		// iter.Val() of SCAN's iterator: a key its pattern matches.
		if keys, ok := g.listed(x); ok {
			return keys
		}
	}
	if id, ok := ast.Unparen(x).(*ast.Ident); ok && e.localVar(id) != nil && !shaped(alts) && namesMember(alts) {
		// key, _ := m.Member.(string) of a sorted set's reply.
		if l := g.ssaForm(x.Pos()); l != nil {
			if v := l.valueOf(x); v != nil {
				if keys, ok := l.listedMember(v); ok {
					return keys
				}
			}
		}
	}
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return alts
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || e.localVar(id) == nil {
		return alts
	}
	if s, ok := g.info.Selections[sel]; !ok || s.Kind() != types.FieldVal {
		return alts
	}
	// What was sent on the channel the struct came from is more than what
	// every writer of the field gives.
	if sent, ok := g.ssaFieldKeys(e, sel); ok {
		return sent
	}
	return alts
}

// listed returns the keys that x holds when it is a key of the reply of a
// command that lists keys (listedKeys), each noted with its value as
// another key of the reply holds it.
func (g *Engine) listed(x ast.Expr) ([]Value, bool) {
	l := g.ssaForm(x.Pos())
	if l == nil {
		return nil, false
	}
	v := l.valueOf(x)
	if v == nil {
		return nil, false
	}
	keys, ok := l.listedKeys(v)
	if !ok {
		return nil, false
	}
	for _, k := range keys {
		g.noteAgain(k.Key, varyOthers(k.Key, false))
	}
	return keys, true
}

// shaped reports whether some value, placeholders aside, has literal text.
func shaped(alts []Value) bool {
	for _, a := range Group(alts).WithoutPlaceholders() {
		if HasShape(a.Key) {
			return true
		}
	}
	return false
}

// ssaFieldKeys returns the values of x.f where x is a struct received
// from a channel of the package, directly or through a slice of them:
// what every send on a channel of that type puts in f.
func (g *Engine) ssaFieldKeys(e *evaluator, x *ast.SelectorExpr) ([]Value, bool) {
	if !g.sends || len(g.unitGraph().senders) == 0 {
		return nil, false // no channel to carry a struct
	}
	l := g.ssaForm(x.Pos())
	if l == nil {
		return nil, false
	}
	var base ssa.Value
	field := -1
	switch v := l.valueOf(x).(type) {
	case *ssa.Field:
		base, field = v.X, v.Field
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			base, field = fa.X, fa.Field
		}
	}
	if base == nil {
		return nil, false
	}
	w := &walker{l: l, busy: map[ssa.Value]bool{}}
	var out []Value
	for _, src := range w.structs(base, false, 0) {
		if !src.sent {
			// Only values carried over a channel: a struct built in sight
			// is the evaluator's.
			return nil, false
		}
		fv := l.fieldValue(src.v, field)
		if fv == nil {
			return nil, false
		}
		for _, fv := range l.callerValues(fv) {
			alts, ev := l.valueKeys(e, fv)
			if !shaped(alts) {
				return nil, false
			}
			for i, again := range l.again(ev, sElem{many: true, sent: true}, alts) {
				g.noteAgain(alts[i].Key, again.Key)
			}
			out = append(out, alts...)
		}
	}
	if len(out) == 0 || len(out) > maxAlts {
		return nil, false
	}
	return out, true
}

// structs returns where the structs that v holds were built (the cells
// of their composite literals), through channels of the package, slices,
// phis and closures' cells; sent marks those received from a channel.
func (w *walker) structs(v ssa.Value, sent bool, depth int) []sElem {
	if depth > 16 || w.busy[v] {
		return nil
	}
	w.busy[v] = true
	defer delete(w.busy, v)
	switch x := v.(type) {
	case *ssa.Alloc:
		return w.cellStructs(x, sent, depth)
	case *ssa.Extract:
		if r, ok := x.Tuple.(*ssa.UnOp); ok && r.Op == token.ARROW && x.Index == 0 {
			return w.received(r.X, depth)
		}
		if sel, ok := x.Tuple.(*ssa.Select); ok && x.Index >= 2 {
			// A select's tuple: the case chosen, recvOk, then one value
			// for each receiving case, in order.
			n := x.Index - 2
			for _, st := range sel.States {
				if st.Dir != types.RecvOnly {
					continue
				}
				if n == 0 {
					return w.received(st.Chan, depth)
				}
				n--
			}
		}
	case *ssa.UnOp:
		switch x.Op {
		case token.ARROW:
			return w.received(x.X, depth)
		case token.MUL:
			switch a := x.X.(type) {
			case *ssa.Alloc:
				if _, ok := deref(a.Type()).Underlying().(*types.Struct); ok {
					return w.cellStructs(a, sent, depth)
				}
			case *ssa.IndexAddr:
				return w.elemStructs(a.X, sent, depth)
			}
		}
	case *ssa.Index:
		return w.elemStructs(x.X, sent, depth)
	case *ssa.Phi:
		var out []sElem
		for _, edge := range x.Edges {
			out = append(out, w.structs(edge, sent, depth+1)...)
		}
		return out
	}
	return []sElem{{v: nil}}
}

// cellStructs returns where the struct in a cell was built: the cell
// itself for a composite literal built in place, or what is stored in it
// whole (op := <-ch, a variable whose address is taken).
func (w *walker) cellStructs(a *ssa.Alloc, sent bool, depth int) []sElem {
	var out []sElem
	for _, ref := range allRefs(a) {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a {
			out = append(out, w.structs(st.Val, sent, depth+1)...)
		}
	}
	if out == nil {
		return []sElem{{v: a, sent: sent}}
	}
	return out
}

// elemStructs returns the structs that a slice's elements hold.
func (w *walker) elemStructs(sl ssa.Value, sent bool, depth int) []sElem {
	c := w.collection(sl, depth+1)
	if c.open {
		return []sElem{{v: nil}}
	}
	var out []sElem
	for _, el := range c.elems {
		if el.v == nil {
			return []sElem{{v: nil}}
		}
		out = append(out, w.structs(el.v, sent, depth+1)...)
	}
	return out
}

// received returns the structs sent on every channel of the package of
// the type of the channel ch.
func (w *walker) received(chv ssa.Value, depth int) []sElem {
	ch, ok := chv.Type().Underlying().(*types.Chan)
	if !ok {
		return []sElem{{v: nil}}
	}
	field := chanField(chv)
	var out []sElem
	for _, s := range w.l.chanSends() {
		sc, ok := s.Chan.Type().Underlying().(*types.Chan)
		if !ok || !types.Identical(sc.Elem(), ch.Elem()) {
			continue
		}
		if field != nil && chanField(s.Chan) != field {
			// A channel kept in a struct field receives what is sent on
			// that field, not on every channel of its type.
			continue
		}
		out = append(out, w.structs(s.X, true, depth+1)...)
	}
	if len(out) == 0 {
		return []sElem{{v: nil}}
	}
	return out
}

// chanField returns the struct field a channel value is read from
// (b.batchChan), or nil.
func chanField(v ssa.Value) *types.Var {
	var st types.Type
	var i int
	switch x := v.(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok || x.Op != token.MUL {
			return nil
		}
		st, i = deref(fa.X.Type()), fa.Field
	case *ssa.Field:
		st, i = x.X.Type(), x.Field
	default:
		return nil
	}
	s, ok := st.Underlying().(*types.Struct)
	if !ok || i >= s.NumFields() {
		return nil
	}
	return s.Field(i)
}

// chanSends returns the package's channel sends.
func (l *ssaLayer) chanSends() []*ssa.Send {
	if l.sends != nil {
		return l.sends
	}
	l.sends = []*ssa.Send{}
	for _, fn := range l.funcs {
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				if s, ok := ins.(*ssa.Send); ok {
					l.sends = append(l.sends, s)
				}
			}
		}
	}
	return l.sends
}

// fieldValue returns the value stored once in field i of a struct's cell.
func (l *ssaLayer) fieldValue(cell ssa.Value, i int) ssa.Value {
	if cell == nil {
		return nil
	}
	var found ssa.Value
	for _, ref := range allRefs(cell) {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != cell || fa.Field != i {
			continue
		}
		for _, r := range allRefs(fa) {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				if found != nil {
					return nil
				}
				found = st.Val
			}
		}
	}
	return found
}

// noteAgain records the value that another element of a collection holds
// where one holds k, when the SSA layer knows it (a value sent on a
// channel); againGroup reads it.
func (g *Engine) noteAgain(k, again keyspace.Key) {
	if g.againOf == nil {
		g.againOf = map[string]keyspace.Key{}
	}
	g.againOf[keyIdentity(k)] = again
}

// keyIdentity is a key's text with its unknowns' identities.
func keyIdentity(k keyspace.Key) string {
	var b strings.Builder
	for _, p := range k.Parts {
		if p.Unknown {
			fmt.Fprintf(&b, "<%s>", p.ID)
		} else {
			b.WriteString(p.Lit)
		}
	}
	return b.String()
}

// againGroup returns a key group as another turn of loop sees it: the
// variables set inside the loop hold other values; those set outside it,
// in an enclosing loop too, hold the same.
func (g *Engine) againGroup(e *evaluator, grp Group, loop ast.Node) Group {
	out := make(Group, len(grp))
	for i, v := range grp {
		if k, ok := g.againOf[keyIdentity(v.Key)]; ok {
			out[i] = Value{k, v.Pos}
			continue
		}
		out[i] = Value{varyIDs(v.Key, e.setIn(loop)), v.Pos}
	}
	return out
}

// repeats returns the loop, inside a transaction's function, at each turn
// of which a command of the function is sent on the one transaction: a
// loop inside the function given to TxPipelined, or one around a command
// queued on a TxPipeline kept in a variable, when the pipeline is made
// outside the loop or on another branch of it (a select's case that
// sends it and makes the next); nil when there is none.
func (g *Engine) repeats(s *Func, tx *Tx, site *Site) ast.Node {
	if s.e == nil || s.e.decl == nil {
		return nil
	}
	made := tx.Site.Call
	for _, n := range s.e.pathTo(site.Call.Pos()) {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
		default:
			continue
		}
		if tx.Lit != nil {
			if n.Pos() > tx.Lit.Pos() && n.End() <= tx.Lit.End() {
				return n
			}
			continue
		}
		if tx.Sent != nil && n.Pos() <= tx.Sent.Call.Pos() && tx.Sent.Call.Pos() < n.End() {
			continue // each turn sends what it queued
		}
		if made.Pos() < n.Pos() || made.Pos() >= n.End() || branchesApart(s.e, made.Pos(), site.Call.Pos()) || onlySomeTurns(s.e, n, made.Pos(), site.Call.Pos()) {
			return n
		}
	}
	return nil
}

// onlySomeTurns reports whether the transaction opened at made runs on
// some turns of loop only, where the command at pos runs on every turn:
// made sits in an if inside the loop that does not hold pos. The MULTI
// sent on the first turn that needs it (if queued == 0), with the
// commands of the later turns queued in it:
//
//	for i, exists := range existence {
//		if queued == 0 {
//			c.Send("MULTI")
//		}
//		queued++
//		c.Send("SETEX", prefix+ids[i], ttl, ids[i])
//	}
//	c.Do("EXEC")
func onlySomeTurns(e *evaluator, loop ast.Node, made, pos token.Pos) bool {
	for _, n := range e.pathTo(made) {
		if n.Pos() <= loop.Pos() || n.End() > loop.End() {
			continue
		}
		if ifs, ok := n.(*ast.IfStmt); ok && within(ifs, made) && !within(ifs, pos) {
			return true
		}
	}
	return false
}

// branchesApart reports whether two positions lie on different branches
// of one if, switch or select: on one path, one runs and not the other.
func branchesApart(e *evaluator, a, b token.Pos) bool {
	pa, pb := e.pathTo(a), e.pathTo(b) // outermost first
	for i := len(pa) - 1; i >= 0; i-- {
		n := pa[i]
		if !slices.Contains(pb, n) {
			continue
		}
		// The innermost node that holds both.
		switch n := n.(type) {
		case *ast.IfStmt:
			return within(n.Body, a) != within(n.Body, b)
		case *ast.BlockStmt:
			for _, st := range n.List {
				switch st.(type) {
				case *ast.CaseClause, *ast.CommClause:
					if within(st, a) != within(st, b) {
						return true
					}
				}
			}
			return false
		}
	}
	return false
}

func within(n ast.Node, pos token.Pos) bool { return n != nil && n.Pos() <= pos && pos < n.End() }

// callerValues returns the values v stands for: v itself, or where v is a
// parameter of a function of the package that the package calls by name
// (a method that sends its key on a channel), the arguments of each call.
func (l *ssaLayer) callerValues(v ssa.Value) []ssa.Value {
	v = unwrap(v)
	p, ok := v.(*ssa.Parameter)
	if !ok {
		return []ssa.Value{v}
	}
	fn := p.Parent()
	i := slices.Index(fn.Params, p)
	var out []ssa.Value
	for _, caller := range l.funcs {
		for _, b := range caller.Blocks {
			for _, ins := range b.Instrs {
				c, ok := ins.(ssa.CallInstruction)
				if !ok || c.Common().StaticCallee() != fn || i >= len(c.Common().Args) {
					continue
				}
				out = append(out, c.Common().Args[i])
			}
		}
	}
	if len(out) == 0 || len(out) > maxAlts {
		return []ssa.Value{v}
	}
	return out
}
