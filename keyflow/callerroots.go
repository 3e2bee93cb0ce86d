package keyflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// Collections of keys that come from the callers in a form the key
// groups do not name: a field of a parameter, pairs a parameter holds,
// keys copied or appended from a parameter's elements, a field that only
// the callers fill.
//
//	func (c *Client) XRead(ctx context.Context, a *redis.XReadArgs) {
//		c.rdb.XRead(ctx, a)
//	}
//
//	func (c *Client) MSet(ctx context.Context, pairs ...any) error {
//		return c.rdb.MSet(ctx, pairs...).Err()
//	}
//
// The keys are not seen (the site is open), and no caller in sight can
// be checked with them. A rooter follows the collection on SSA back to
// where its values come from: through slices, phis, appends, copies,
// maps, stores by index, closures' free variables, the package's own
// functions (a helper's parameter is what each of its calls passes, a
// call's result what the function returns with its parameters bound to
// the call's arguments, generic functions as their one body) and the
// receiver's fields (every write of the field in the package, its
// elements and map keys by index too). When every value
// comes from a parameter of a function that other modules call, or is a
// constant without a brace, the callers choose the keys (caller-keys, as
// for keys ...string passed on whole); anything else (a call of another
// package, a global, a reply) leaves the site as it is.

// callersCanGive reports whether a site's keys may be its callers' for
// caller-keys: a command with a name, outside test files, not one that a
// call through a function other modules call sends (reported there), nor
// one built and kept in a field.
func (g *Engine) callersCanGive(s *Func, site *Site) bool {
	if site.SplitAlone || site.Name == "" || site.rawParam > 0 || site.records > 0 {
		return false
	}
	if strings.HasSuffix(g.fset.Position(site.Call.Pos()).Filename, "_test.go") {
		return false // no other module calls a test
	}
	if site.Through && g.reachedFromOutside(site.Callee) {
		return false
	}
	return !kept(s, site)
}

// named returns the value of a group at pos that names a key, not an
// empty placeholder ("" of an error path).
func named(groups []Group, pos token.Pos) Value {
	var out Value
	for _, grp := range groups {
		for _, v := range grp {
			if v.Pos == pos && (out.Key.Parts == nil || len(v.Key.Parts) > len(out.Key.Parts) || out.Key.String() == "") {
				out = v
			}
		}
	}
	return out
}

// openCallerKeys returns the key group of an open site whose every
// unseen collection of keys comes from the callers of functions that
// other modules call (fromCallers), when its seen keys, if any, are its
// callers' too; nil otherwise.
func (g *Engine) openCallerKeys(s *Func, site *Site, groups []Group) Group {
	if !site.Open || site.Method == nil || site.Tx != nil {
		return nil
	}
	var out Group
	for _, grp := range groups {
		for _, v := range grp {
			if callerCollection(v.Key) >= 0 {
				continue
			}
			if !ofParams(v.Key) {
				return nil
			}
			// A key of the callers' besides their collection
			// (ZInterStore(destination, store) of store.Keys).
			out = addDistinct(out, v)
		}
	}
	extra := len(out)
	var fields Group
	read := map[int]bool{}
	for _, sel := range site.Method.Keys {
		if !collectionSelector(site.Call, sel) {
			// One key in a field of a struct the callers give, that the
			// function does not see set (ZRangeStore(ctx, dst, z) of
			// z.Key). A struct with several key fields is read only where
			// the client refuses a call that sets none of them
			// (GeoRadiusStore's Store and StoreDist, needs-keys), not
			// where a call may set none (GeoRadius of go-redis v6).
			if sel.Field == "" || sel.Variadic || sel.Slice || sel.Param >= len(site.Call.Args) || read[sel.Param] {
				continue
			}
			read[sel.Param] = true
			names := fieldKeys(site.Method, sel.Param)
			if len(names) > 1 && !site.Method.NeedsKeys {
				continue
			}
			x := site.Call.Args[sel.Param]
			if slices.ContainsFunc(names, func(f string) bool { return g.fieldExpr(s.e, x, f) != nil }) {
				continue // set where it is seen: its value is among the groups
			}
			if !g.fromCallers(x, false) {
				return nil
			}
			name := exprName(x) + "." + strings.Join(names, "/")
			fields = append(fields, Value{keyspace.Unknown("callers:"+name, name, false), x.Pos()})
			continue
		}
		x := site.Call.Args[sel.Param]
		name := exprName(x)
		if sel.Field != "" {
			if f := g.fieldExpr(s.e, x, sel.Field); f != nil {
				x, name = f, exprName(f)
			} else {
				// The struct itself: XRead(ctx, a) of a parameter a.
				name += "." + sel.Field
			}
		}
		if !g.fromCallers(x, sel.Half) {
			return nil
		}
		if len(out) == extra {
			if sel.Variadic {
				name += "..."
			}
			out = append(out, Value{keyspace.Unknown("callers:"+name, name, false), x.Pos()})
		}
	}
	if len(out) == extra && (len(fields) == 0 || extra+len(fields) < 2) {
		return nil
	}
	return append(out, fields...)
}

// fieldKeys returns the fields of parameter n that a rule's keys name.
func fieldKeys(m *ruleset.Method, n int) []string {
	var out []string
	for _, sel := range m.Keys {
		if sel.Param == n && sel.Field != "" && !sel.Slice {
			out = append(out, sel.Field)
		}
	}
	return out
}

// txCallerKeys returns the key group of a transaction that queues a
// command in a loop over the callers' keys (for _, k := range a.Keys {
// pipe.Del(ctx, k) }): the transaction sends as many keys as the callers
// give, which nothing keeps in one slot, whatever its other keys are;
// nil otherwise.
func (g *Engine) txCallerKeys(s *Func, site *Site, groups []Group) Group {
	if site.Tx == nil || site.Open || s.e == nil || s.e.decl == nil || len(groups) == 0 {
		return nil
	}
	// A loop inside the transaction, not one that runs it again (a retry).
	queued := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return !(n.Pos() <= site.Call.Pos() && site.Call.End() <= n.End())
		case *ast.FuncLit:
			// A function the callers' function calls, any number of
			// times (WithPipeline's setter).
			return s.e.litToCallers(n)
		}
		return false
	}
	if !slices.ContainsFunc(groups, func(grp Group) bool {
		return slices.ContainsFunc(grp, func(v Value) bool { return slices.ContainsFunc(s.e.pathTo(v.Pos), queued) })
	}) {
		return nil // no key is made in a loop of the transaction
	}
	return g.firstFromCallers(s, site, groups, func(l *ssaLayer, _ token.Pos, v ssa.Value) bool {
		if p, ok := v.(*ssa.Parameter); ok {
			return l.calledByCallers(p.Parent())
		}
		in, ok := v.(ssa.Instruction)
		return ok && (l.inLoop(in.Block()) && l.loopVariant(v, 0) || l.calledByCallers(in.Parent()))
	})
}

// loopVariant reports whether a value made in a loop may be another at
// each turn: it is, or is made of, a phi of the loop, or what a call, a
// load or a lookup there gives. One made of constants and of values from
// before the loop alone ("history:" + gameID) is the same at each turn.
func (l *ssaLayer) loopVariant(v ssa.Value, depth int) bool {
	in, ok := v.(ssa.Instruction)
	if !ok || in.Block() == nil || !l.inLoop(in.Block()) {
		return false // a constant, a parameter, or made before the loop
	}
	if depth > 16 {
		return true
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		return l.loopVariant(v.X, depth+1) || l.loopVariant(v.Y, depth+1)
	case *ssa.Convert:
		return l.loopVariant(v.X, depth+1)
	case *ssa.ChangeType:
		return l.loopVariant(v.X, depth+1)
	case *ssa.MakeInterface:
		return l.loopVariant(v.X, depth+1)
	}
	return true
}

// manyCallerKeys returns the key group of a command whose key list holds
// one element that stands for many (built in a loop: two groups at the
// same place) and comes from the callers, such as BRPOP of every queue of
// an exported field, then a timeout; nil otherwise.
func (g *Engine) manyCallerKeys(s *Func, site *Site, groups []Group) Group {
	if site.Tx != nil || site.Open || s.e == nil || s.e.decl == nil || len(groups) < 2 {
		return nil
	}
	seen := map[token.Pos]int{}
	for _, grp := range groups {
		at := map[token.Pos]bool{}
		for _, v := range grp {
			if v.Pos.IsValid() && !at[v.Pos] {
				at[v.Pos] = true
				seen[v.Pos]++
			}
		}
	}
	return g.firstFromCallers(s, site, groups, func(_ *ssaLayer, at token.Pos, _ ssa.Value) bool {
		return seen[at] >= 2
	})
}

// firstFromCallers returns, as a key group, the first key of the groups
// that take accepts (by the key's place and the SSA value of its
// expression) and that comes from the callers; nil for none.
func (g *Engine) firstFromCallers(s *Func, site *Site, groups []Group, take func(l *ssaLayer, at token.Pos, v ssa.Value) bool) Group {
	var l *ssaLayer
	for _, grp := range groups {
		for _, v := range grp {
			if !slices.ContainsFunc(v.Key.Parts, func(p keyspace.Part) bool { return p.Unknown }) {
				continue // text alone: no caller gives it
			}
			x := exprAt(s.e, v.Pos)
			if x == nil {
				continue
			}
			if l == nil {
				if l = g.ssaForm(site.Call.Pos()); l == nil {
					return nil
				}
			}
			sv := l.valueOf(x)
			if sv == nil || !take(l, v.Pos, sv) {
				continue
			}
			if r := newRooter(l); r.root(sv, 0) && r.param {
				return Group{named(groups, v.Pos)}
			}
		}
	}
	return nil
}

// exprAt returns the outermost expression of a function's body that
// starts at pos, or nil.
func exprAt(e *evaluator, pos token.Pos) ast.Expr {
	if !pos.IsValid() {
		return nil
	}
	for _, n := range e.pathTo(pos) {
		if x, ok := n.(ast.Expr); ok && x.Pos() == pos {
			return x
		}
	}
	return nil
}

// collectionSelector reports whether a selector picks the keys of a call
// out of one collection argument (a slice, a spread, a struct's slice
// field, a map) rather than out of arguments written one by one.
func collectionSelector(call *ast.CallExpr, sel ruleset.Selector) bool {
	if sel.Param >= len(call.Args) || sel.KeyCount || sel.Flat {
		return false
	}
	if sel.Variadic {
		return call.Ellipsis.IsValid() && len(call.Args) == sel.Param+1
	}
	return sel.Slice || sel.MapKeys || sel.PerElement()
}

// fromCallers reports whether every value the collection x can hold comes
// from the parameters of functions that other modules call (not their
// receivers) or from constants without a brace, and some does.
func (g *Engine) fromCallers(x ast.Expr, half bool) bool {
	l := g.ssaForm(x.Pos())
	if l == nil {
		return false
	}
	v := l.valueOf(x)
	if v == nil {
		return false
	}
	r := newRooter(l)
	r.half = half
	return r.root(v, 0) && r.param
}

// A rooter traces the values a collection can hold back to where they
// come from.
type rooter struct {
	l    *ssaLayer
	seen map[ssa.Value]bool
	// fields are the fields whose writes are being traced.
	fields map[*types.Var]bool
	// param is true once some value comes from a parameter.
	param bool
	// memo holds what tracing each parameter to its calls found, for the
	// rooter and the ones it starts.
	memo map[*ssa.Parameter]*traced
	// args bind the parameters of a function entered at one of its calls
	// (returned) to that call's arguments.
	args map[*ssa.Parameter]ssa.Value
	// half is true while only the first half of the collection traced
	// are keys (XREADGROUP's streams, their IDs after them): what is
	// stored at n+i of a slice made 2*n long is not traced.
	half bool
	// halved is the slice made 2*n long whose second half is not traced,
	// once found.
	halved *ssa.MakeSlice
}

// newRooter returns a rooter over an SSA layer.
func newRooter(l *ssaLayer) *rooter {
	return &rooter{l: l, seen: map[ssa.Value]bool{}, fields: map[*types.Var]bool{}, memo: map[*ssa.Parameter]*traced{}}
}

// receiverField returns the field of a method's receiver that v reads or
// addresses, through fields of fields (s.cfg.Streams: cfg), and the
// method; nil if v reads no field of a receiver.
func receiverField(v ssa.Value) (*types.Var, *ssa.Function) {
	var f *types.Var
	seen := map[*ssa.Alloc]bool{}
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			f, v = fieldVar(x), x.X
		case *ssa.Field:
			st, ok := x.X.Type().Underlying().(*types.Struct)
			if !ok {
				return nil, nil
			}
			f, v = st.Field(x.Field), x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, nil
			}
			v = x.X
		case *ssa.Alloc:
			// The receiver kept in a cell, captured by a closure; a cell
			// set to what it holds (x = *p with p = &x) is no receiver.
			if seen[x] {
				return nil, nil
			}
			seen[x] = true
			if v = storedOnce(x); v == nil {
				return nil, nil
			}
		case *ssa.Parameter:
			fn := x.Parent()
			if f == nil || fn == nil || fn.Parent() != nil || fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Params[0] != x {
				return nil, nil
			}
			return f, fn
		default:
			return nil, nil
		}
	}
}

// storedOnce returns the one value stored into a local variable's cell,
// or nil.
func storedOnce(a *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range allRefs(a) {
		if st, ok := ref.(*ssa.Store); ok {
			if val != nil || st.Addr != a {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// An indexWrite is a store into a map or slice field by index
// (c.consumers[stream] = registered): its index and its value.
type indexWrite struct {
	decl         *ast.FuncDecl
	index, value ast.Expr
}

// elemWrites returns the keys and values that the package stores into a
// map or slice field by index, each with the function that stores it.
func (g *Engine) elemWrites(f *types.Var) []fieldWrite {
	if g.indexWrites == nil {
		g.indexWrites = map[*types.Var][]indexWrite{}
		for _, file := range g.files {
			for _, d := range file.Decls {
				decl, _ := d.(*ast.FuncDecl)
				ast.Inspect(d, func(n ast.Node) bool {
					as, ok := n.(*ast.AssignStmt)
					if !ok || len(as.Lhs) != len(as.Rhs) {
						return true
					}
					for i, lhs := range as.Lhs {
						ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
						if !ok {
							continue
						}
						sel, ok := ast.Unparen(ix.X).(*ast.SelectorExpr)
						if !ok {
							continue
						}
						if s, ok := g.info.Selections[sel]; ok && s.Kind() == types.FieldVal {
							if v, ok := s.Obj().(*types.Var); ok {
								g.indexWrites[v] = append(g.indexWrites[v], indexWrite{decl, ix.Index, as.Rhs[i]})
							}
						}
					}
					return true
				})
			}
		}
	}
	_, isMap := f.Type().Underlying().(*types.Map)
	var out []fieldWrite
	for _, w := range g.indexWrites[f] {
		if isMap {
			out = append(out, fieldWrite{decl: w.decl, value: w.index})
		}
		out = append(out, fieldWrite{decl: w.decl, value: w.value})
	}
	return out
}

// loadedField returns the address of the field that v loads, or nil.
func loadedField(v ssa.Value) *ssa.FieldAddr {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		fa, _ := u.X.(*ssa.FieldAddr)
		return fa
	}
	return nil
}

// writesFrom reports whether every write of a receiver's field in the
// package, each in the SSA form of its own function, is of values that
// are rooted: a constructor's or an option's parameter (New(rdb, cfg
// Config): &Store{cfg: cfg}), a method's that appends the callers' keys to
// the field. A field whose address is taken, or that the package never
// writes, is not followed.
func (r *rooter) writesFrom(f *types.Var) bool {
	if r.fields[f] {
		return true
	}
	g := r.l.g
	writes, bad := g.fieldWrites()
	if f.Pkg() != g.pkg || bad[f] {
		return false
	}
	if len(writes[f]) == 0 {
		return false
	}
	r.fields[f] = true
	for _, wr := range append(writes[f], g.elemWrites(f)...) {
		if wr.decl == nil {
			return false
		}
		l := g.ssaForm(wr.value.Pos())
		if l == nil {
			return false
		}
		v := l.valueOf(wr.value)
		if tv := g.info.Types[wr.value]; v == nil && (tv.Value != nil || tv.IsNil()) {
			// SSA keeps no reference to a constant's or nil's expression
			// (c.consumers = nil).
			v = ssa.NewConst(tv.Value, tv.Type)
		}
		if v == nil {
			return false
		}
		sub := rooter{l: l, seen: map[ssa.Value]bool{}, fields: r.fields, memo: r.memo}
		if !sub.root(v, 0) {
			return false
		}
		r.param = r.param || sub.param
	}
	return true
}

// setOutside reports whether f, a field of the receiver of method fn, is
// one that only other packages set: an exported field of the package's
// type, read in a method other modules call, that the package's own code
// never writes (argo-events' el.EventSource, filled from the user's spec
// by the package that makes the listener).
func (r *rooter) setOutside(f *types.Var, fn *ssa.Function) bool {
	g := r.l.g
	if !f.Exported() || f.Pkg() != g.pkg {
		return false
	}
	if obj, _ := fn.Object().(*types.Func); !g.reachedFromOutside(obj) {
		return false
	}
	writes, _ := g.fieldWrites()
	return len(writes[f]) == 0 && len(g.elemWrites(f)) == 0
}

// root reports whether every value v can be or hold comes from a
// parameter of a function that other modules call (not its receiver), a
// constant without a brace, or a collection built of such values.
func (r *rooter) root(v ssa.Value, depth int) bool {
	if r.seen[v] {
		return true
	}
	if depth > 32 {
		return false
	}
	r.seen[v] = true
	if f, fn := receiverField(v); f != nil {
		if r.setOutside(f, fn) {
			r.param = true
			return true
		}
		return r.writesFrom(f)
	}
	if fa := loadedField(v); fa != nil && r.fields[fieldVar(fa)] {
		// A write that appends to the field being traced.
		return true
	}
	switch v := v.(type) {
	case *ssa.Const:
		// A constant with a brace may make a hashtag of what it is joined
		// to: the keys are then not any the callers choose.
		return v.Value == nil || v.Value.Kind() != constant.String || !strings.Contains(constant.StringVal(v.Value), "{")
	case *ssa.Parameter:
		if a, ok := r.args[v]; ok {
			return r.root(a, depth+1)
		}
		fn := v.Parent()
		if fn != nil && fn.Parent() != nil {
			// go func(handlers []*handlerFc) { ... }(chunk): what the
			// function literal's calls pass.
			return r.calls(v, func() bool { return r.passedLit(fn, slices.Index(fn.Params, v), depth) })
		}
		if fn == nil || fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == v {
			return false
		}
		if obj, _ := fn.Object().(*types.Func); !r.l.g.reachedFromOutside(obj) {
			// A helper of the package: what each of its calls passes.
			return r.calls(v, func() bool { return r.passed(fn, slices.Index(fn.Params, v), depth) })
		}
		r.param = true
		return true
	case *ssa.FreeVar:
		b := boundTo(v)
		return b != nil && r.root(b, depth+1)
	case *ssa.Slice:
		return r.root(v.X, depth+1)
	case *ssa.ChangeType:
		return r.root(v.X, depth+1)
	case *ssa.Convert:
		return r.root(v.X, depth+1)
	case *ssa.MakeInterface:
		return r.root(v.X, depth+1)
	case *ssa.Field:
		return r.root(v.X, depth+1)
	case *ssa.FieldAddr:
		return r.root(v.X, depth+1)
	case *ssa.Index:
		return r.root(v.X, depth+1)
	case *ssa.IndexAddr:
		return r.root(v.X, depth+1)
	case *ssa.Lookup:
		return r.root(v.X, depth+1)
	case *ssa.Range:
		return r.root(v.X, depth+1)
	case *ssa.Next:
		return r.root(v.Iter, depth+1)
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.Next:
			return r.root(t, depth+1)
		case *ssa.Lookup:
			return r.root(t, depth+1)
		case *ssa.Call:
			return r.returned(t, v.Index, depth)
		}
		return false
	case *ssa.BinOp:
		return v.Op == token.ADD && r.root(v.X, depth+1) && r.root(v.Y, depth+1)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !r.root(e, depth+1) {
				return false
			}
		}
		return true
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		if _, global := v.X.(*ssa.Global); global {
			return false
		}
		return r.root(v.X, depth+1)
	case *ssa.Call:
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
			return r.all(v.Call.Args, depth)
		}
		return r.returned(v, 0, depth) || r.derived(v, depth)
	case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap:
		return r.filledFrom(v, depth)
	}
	return false
}

// A traced records what tracing a parameter to its calls found: whether
// every call's argument is rooted, and whether some comes from a
// parameter that other modules fill.
type traced struct{ ok, param bool }

// calls traces parameter v to what its calls pass, by trace, once for the
// rooter and the rooters it starts: a helper called from many places,
// each reached through other helpers, is traced once, not once per path.
// While it is traced it counts as rooted, as a value seen again does.
func (r *rooter) calls(v *ssa.Parameter, trace func() bool) bool {
	if t, ok := r.memo[v]; ok {
		r.param = r.param || t.param
		return t.ok
	}
	t := &traced{ok: true}
	r.memo[v] = t
	was := r.param
	r.param = false
	t.ok = trace()
	t.param = r.param
	r.param = was || r.param
	return t.ok
}

// passed reports whether what every call of a function of the package
// passes as its parameter i is rooted; false when the function is used
// otherwise than called (a value handed away), or never called.
func (r *rooter) passed(fn *ssa.Function, i int, depth int) bool {
	if i < 0 {
		return false
	}
	calls := 0
	for _, f := range r.l.funcs {
		for _, b := range f.Blocks {
			for _, ins := range b.Instrs {
				if c, ok := ins.(ssa.CallInstruction); ok && !c.Common().IsInvoke() && sameFunc(c.Common().Value, fn) {
					if !r.rootArg(c, i, depth) {
						return false
					}
					calls++
					continue
				}
				if _, ok := ins.(*ssa.DebugRef); ok {
					continue // the name of the function at its call
				}
				var ops []*ssa.Value
				for _, op := range ins.Operands(ops) {
					if op != nil && sameFunc(*op, fn) {
						return false
					}
				}
			}
		}
	}
	return calls > 0
}

// passedLit reports whether what every call of the function literal fn
// passes as its parameter i is rooted, when fn is only called where it is
// made (func(x T) { ... }(arg), go and defer alike); false otherwise.
func (r *rooter) passedLit(fn *ssa.Function, i int, depth int) bool {
	if i < 0 {
		return false
	}
	calls := 0
	for _, b := range fn.Parent().Blocks {
		for _, ins := range b.Instrs {
			var val ssa.Value
			switch ins := ins.(type) {
			case *ssa.MakeClosure:
				if ins.Fn != fn {
					continue
				}
				val = ins
			default:
				var ops []*ssa.Value
				for _, op := range ins.Operands(ops) {
					if op != nil && *op == fn {
						if r.l.toCallersFunc(ins, fn) {
							r.param = true
							calls++
							continue
						}
						if c, ok := ins.(ssa.CallInstruction); !ok || c.Common().Value != fn {
							return false
						}
					}
				}
				c, ok := ins.(ssa.CallInstruction)
				if !ok || c.Common().Value != fn {
					continue
				}
				if !r.rootArg(c, i, depth) {
					return false
				}
				calls++
				continue
			}
			for _, ref := range *val.Referrers() {
				if _, ok := ref.(*ssa.DebugRef); ok {
					continue
				}
				if r.l.toCallersFunc(ref, val) || isConversion(ref) && r.l.flowsToCallers(ref.(ssa.Value), 0) {
					// fn(setter, deleter): the callers' function calls it
					// with values of their own.
					r.param = true
					calls++
					continue
				}
				c, ok := ref.(ssa.CallInstruction)
				if !ok || c.Common().Value != val {
					return false
				}
				if !r.rootArg(c, i, depth) {
					return false
				}
				calls++
			}
		}
	}
	return calls > 0
}

// toCallersFunc reports whether an instruction hands the function value
// val to a call of a function that a parameter of a function other
// modules call holds, as devspotai/sharedkit's WithPipeline hands its
// setter and deleter to the caller's fn: the callers' code calls it, any
// number of times, with values of its own.
func (l *ssaLayer) toCallersFunc(ins ssa.Instruction, val ssa.Value) bool {
	c, ok := ins.(ssa.CallInstruction)
	if !ok || !slices.Contains(c.Common().Args, val) {
		return false
	}
	p, ok := c.Common().Value.(*ssa.Parameter)
	if !ok || p.Parent() == nil || p.Parent().Parent() != nil {
		return false
	}
	obj, _ := p.Parent().Object().(*types.Func)
	return obj != nil && l.g.reachedFromOutside(obj)
}

// calledByCallers reports whether a function literal is handed to the
// callers' function (toCallersFunc), itself or as a closure.
func (l *ssaLayer) calledByCallers(fn *ssa.Function) bool {
	if fn == nil || fn.Parent() == nil {
		return false
	}
	var vals []ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, ins := range b.Instrs {
			if mc, ok := ins.(*ssa.MakeClosure); ok && mc.Fn == fn {
				vals = append(vals, mc)
			}
		}
	}
	if len(vals) == 0 {
		vals = append(vals, fn)
	}
	for _, v := range vals {
		if v.Referrers() == nil {
			// A function value has no referrers: look for the calls.
			for _, b := range fn.Parent().Blocks {
				for _, ins := range b.Instrs {
					if l.toCallersFunc(ins, v) {
						return true
					}
				}
			}
			continue
		}
		if l.flowsToCallers(v, 0) {
			return true
		}
	}
	return false
}

// flowsToCallers reports whether a function value reaches the callers'
// function (toCallersFunc), as it is or converted to a named func type
// (PipelineSetter(setter)).
func (l *ssaLayer) flowsToCallers(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || depth > 4 {
		return false
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.ChangeType:
			if l.flowsToCallers(ref, depth+1) {
				return true
			}
		case *ssa.MakeInterface:
			if l.flowsToCallers(ref, depth+1) {
				return true
			}
		default:
			if l.toCallersFunc(ref, v) {
				return true
			}
		}
	}
	return false
}

// isConversion reports whether an instruction converts a value to another
// type of the same kind or to an interface.
func isConversion(ins ssa.Instruction) bool {
	switch ins.(type) {
	case *ssa.ChangeType, *ssa.MakeInterface:
		return true
	}
	return false
}

// litToCallers reports whether a function literal of the function is
// handed to a call of a function that one of its parameters holds, as
// itself or through a variable set once to it (toCallersFunc on SSA).
func (e *evaluator) litToCallers(lit *ast.FuncLit) bool {
	if e.decl == nil || e.decl.Body == nil {
		return false
	}
	var held types.Object // setter := func(...) {...}; fn(setter, deleter)
	for v, defs := range e.defs {
		if len(defs) == 1 && defs[0].rhs != nil && ast.Unparen(defs[0].rhs) == lit {
			held = v
		}
	}
	found := false
	ast.Inspect(e.decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		if v, ok := e.g.info.Uses[id].(*types.Var); !ok || e.params[v] == "" {
			return true
		}
		for _, a := range call.Args {
			a = ast.Unparen(a)
			aid, isID := a.(*ast.Ident)
			found = found || a == lit || isID && held != nil && e.g.info.Uses[aid] == held
		}
		return true
	})
	return found
}

// rootArg reports whether argument i of a call is rooted.
func (r *rooter) rootArg(c ssa.CallInstruction, i int, depth int) bool {
	args := c.Common().Args
	return i < len(args) && r.root(args[i], depth+1)
}

// sameFunc reports whether v is fn or an instance of it.
func sameFunc(v ssa.Value, fn *ssa.Function) bool {
	f, ok := v.(*ssa.Function)
	return ok && (f == fn || f.Origin() == fn)
}

// returned reports whether result i of a call of a function of the
// package, with a body, is rooted at every return, its parameters bound
// to the call's arguments (copyMap(c.streams) returns its argument's
// elements).
func (r *rooter) returned(call *ssa.Call, i int, depth int) bool {
	fn := calleeOf(call)
	if fn == nil || len(fn.Blocks) == 0 || fn.Pkg == nil || fn.Pkg.Pkg != r.l.g.pkg || len(fn.Params) != len(call.Call.Args) {
		return false
	}
	sub := rooter{l: r.l, seen: map[ssa.Value]bool{}, fields: r.fields, args: r.bind(fn, call), memo: r.memo}
	returns := 0
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if i >= len(ret.Results) || !sub.root(ret.Results[i], depth+1) {
			return false
		}
		returns++
	}
	r.param = r.param || sub.param
	return returns > 0
}

// derived reports whether a call of another package's function, whose
// body the package does not see, derives what it returns from the
// callers' values: every argument, its receiver included, is rooted, one
// at least in a caller's parameter (gotd's value.Keys(), the names a peer
// is found by). A client's replies are not: they are read from Redis.
func (r *rooter) derived(call *ssa.Call, depth int) bool {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Object() == nil || fn.Object().Pkg() == r.l.g.pkg || r.l.g.IsClientPackage(fn.Object().Pkg()) || len(call.Call.Args) == 0 {
		return false
	}
	sub := rooter{l: r.l, seen: r.seen, fields: r.fields, args: r.args, memo: r.memo}
	for _, a := range call.Call.Args {
		if alloc, ok := a.(*ssa.Alloc); ok {
			// A value spilled to take its address: what is stored there.
			if a = storedOnce(alloc); a == nil {
				return false
			}
		}
		if !sub.root(a, depth+1) {
			return false
		}
	}
	r.param = r.param || sub.param
	return sub.param
}

// all reports whether every value of vs is rooted.
func (r *rooter) all(vs []ssa.Value, depth int) bool {
	for _, x := range vs {
		if !r.root(x, depth+1) {
			return false
		}
	}
	return true
}

// filledFrom reports whether every value stored into a local variable, a
// slice or a map the function makes is rooted, and nothing else may fill
// it: it is only read, sliced, appended to, or handed to a client.
func (r *rooter) filledFrom(v ssa.Value, depth int) bool {
	var stored []ssa.Value
	var addrs []ssa.Value
	addrs = append(addrs, v)
	// m is n of make([]T, 2*n) when only its first half are keys.
	var m ssa.Value
	if ms := halvedMake(v); r.half && ms != nil && (r.halved == nil || r.halved == ms) {
		r.halved, m = ms, doubled(ms.Len)
	}
	for i := 0; i < len(addrs); i++ {
		refs := addrs[i].Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			switch ref := ref.(type) {
			case *ssa.Store:
				if ref.Addr != addrs[i] {
					if cell, ok := ref.Addr.(*ssa.Alloc); ok && isCollection(deref(cell.Type())) {
						// The variable that holds the collection, a
						// closure's too: its loads are the collection.
						if !slices.Contains(addrs, ssa.Value(cell)) {
							addrs = append(addrs, cell)
						}
						continue
					}
					if r.commandArgsField(ref.Addr) {
						continue // &redis.XReadArgs{Streams: s}
					}
					if fa, ok := ref.Addr.(*ssa.FieldAddr); ok && r.fields[fieldVar(fa)] {
						continue // the write of the field being traced
					}
					if ref.Val == addrs[i] && isStructPointer(addrs[i].Type()) {
						// &handlerFc{Stream: stream} appended to a list:
						// the struct's own fields are what is traced.
						continue
					}
					return false // the collection itself stored away
				}
				stored = append(stored, ref.Val)
			case *ssa.MapUpdate:
				if ref.Map != addrs[i] {
					return false
				}
				stored = append(stored, ref.Key, ref.Value)
			case *ssa.IndexAddr:
				if m != nil && addsTo(ref.Index, m) {
					continue // the second half, stored at n+i
				}
				if !slices.Contains(addrs, ssa.Value(ref)) {
					addrs = append(addrs, ref)
				}
			case *ssa.FieldAddr:
				if !slices.Contains(addrs, ssa.Value(ref)) {
					addrs = append(addrs, ref)
				}
			case *ssa.MakeClosure:
				// A closure that captures the variable: its stores too.
				fn, _ := ref.Fn.(*ssa.Function)
				b := slices.Index(ref.Bindings, addrs[i])
				if fn == nil || b < 0 || b >= len(fn.FreeVars) {
					return false
				}
				if fv := fn.FreeVars[b]; !slices.Contains(addrs, ssa.Value(fv)) {
					addrs = append(addrs, fv)
				}
			case *ssa.Call:
				if b, ok := ref.Call.Value.(*ssa.Builtin); ok {
					switch {
					case b.Name() == "copy" && ref.Call.Args[0] == addrs[i]:
						stored = append(stored, ref.Call.Args[1]) // copy(dst, src)
						continue
					case b.Name() == "append" || b.Name() == "len" || b.Name() == "cap" || b.Name() == "copy":
						continue
					}
					return false
				}
				if !r.l.isKeySink(ref) && !r.filledBy(ref, addrs[i], depth) {
					return false
				}
			case *ssa.UnOp:
				if isCollection(ref.Type()) && !slices.Contains(addrs, ssa.Value(ref)) {
					// A load of the variable that holds the collection.
					addrs = append(addrs, ref)
				}
			case *ssa.DebugRef, *ssa.Slice, *ssa.Range, *ssa.Lookup, *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.Index, *ssa.Field, *ssa.Phi, *ssa.Return:
			default:
				return false
			}
		}
	}
	return r.all(stored, depth)
}

// halvedMake returns the slice made with make([]T, 2*n), v itself or the
// one a variable's cell holds, or nil.
func halvedMake(v ssa.Value) *ssa.MakeSlice {
	if a, ok := v.(*ssa.Alloc); ok {
		v = storedOnce(a)
	}
	if ms, ok := v.(*ssa.MakeSlice); ok && doubled(ms.Len) != nil {
		return ms
	}
	return nil
}

// isStructPointer reports whether t points to a struct.
func isStructPointer(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Struct)
	return ok
}

// isCollection reports whether t is a slice or a map.
func isCollection(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// filledBy reports whether what a function of the package that a
// collection is passed to stores into it is rooted, its parameters bound
// to the call's arguments (read(ids, buf) filling buf[i] from ids).
func (r *rooter) filledBy(call *ssa.Call, v ssa.Value, depth int) bool {
	fn := calleeOf(call)
	j := slices.Index(call.Call.Args, v)
	if fn == nil || j < 0 || len(fn.Blocks) == 0 || fn.Pkg == nil || fn.Pkg.Pkg != r.l.g.pkg || len(fn.Params) != len(call.Call.Args) || depth > 32 {
		return false
	}
	sub := rooter{l: r.l, seen: map[ssa.Value]bool{}, fields: r.fields, args: r.bind(fn, call), memo: r.memo}
	if !sub.filledFrom(fn.Params[j], depth+1) {
		return false
	}
	r.param = r.param || sub.param
	return true
}

// calleeOf returns the function a call calls, the generic function itself
// for an instance of one (copyMap[string, string]), whose body is a
// wrapper that calls it.
func calleeOf(call *ssa.Call) *ssa.Function {
	fn := call.Call.StaticCallee()
	if fn != nil && fn.Origin() != nil {
		return fn.Origin()
	}
	return fn
}

// bind returns the parameters of fn bound to the arguments of a call of
// it, with the bindings already made.
func (r *rooter) bind(fn *ssa.Function, call *ssa.Call) map[*ssa.Parameter]ssa.Value {
	args := map[*ssa.Parameter]ssa.Value{}
	for k, v := range r.args {
		args[k] = v
	}
	for j, p := range fn.Params {
		args[p] = call.Call.Args[j]
	}
	return args
}

// commandArgsField reports whether addr is a field of a struct of a
// client's package (the Streams of a redis.XReadArgs being built).
func (r *rooter) commandArgsField(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	named, ok := deref(fa.X.Type()).(*types.Named)
	return ok && r.l.g.IsClientPackage(named.Obj().Pkg())
}

// boundTo returns the value a closure's free variable is bound to where
// its one enclosing function makes the closure, or nil.
func boundTo(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	if i < 0 || fn.Parent() == nil {
		return nil
	}
	var found ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, ins := range b.Instrs {
			mc, ok := ins.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn || i >= len(mc.Bindings) {
				continue
			}
			if found != nil && found != mc.Bindings[i] {
				return nil
			}
			found = mc.Bindings[i]
		}
	}
	return found
}
