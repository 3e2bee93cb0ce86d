package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/slotlint/slotlint/keyflow"
)

// The atomicity checks follow the results of read commands through the
// local variables of a function declaration and its function literals: a
// taint analysis that walks the statements once, in order.
//
// A value's taint is the set of reads it is computed from. A call's result
// carries the taint of its receiver and arguments, and a read command adds
// itself; so tx.Get(ctx, k).Int(), strconv.Atoi(s), n-30 and
// fmt.Sprint(n) all carry the read of k. Values of type error carry none:
// an error says whether a read worked, not what it read, and carrying it
// would taint every write after "if err != nil { return err }".
//
// Assigning to a variable replaces its taint, so a variable that is read,
// then set again from something else (a cache that is filled on a miss),
// no longer carries the read. The branches of if, switch and select are
// walked with copies of the taints, which are joined after them; a loop's
// body is walked once, and its taints joined with those before it. A
// function literal is walked where it is written, with the taints of that
// point (a Watch function held in a variable, where Watch is called), and
// what it assigns to the variables around it is joined in
// after it. &v passed to a call (Scan(&v), json.Unmarshal(b, &v)) takes
// the call's taint; a field, element or pointee that is set adds to the
// taint of its variable.
//
// Each write records the taint of its values (its arguments but the keys)
// and its guard: the taint of the conditions of the if, switch and for
// statements around it; of the conditions of earlier if and switch
// statements whose branches may return from the function ("if n <= 0 {
// return ErrSoldOut }"), even from inside a loop; and of those of earlier
// statements of its block that leave the block with break or continue. A
// function literal's statements are guarded by what guards the literal.
//
// The walk is linear in the size of the function, times the number of
// tainted variables at each branch.

// A taint is a set of reads, as indexes into atomicity.reads, sorted.
type taint []int32

// maxTaint bounds the reads a value is taken to depend on.
const maxTaint = 16

// union returns the reads of both taints.
func union(a, b taint) taint {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make(taint, 0, min(len(a)+len(b), maxTaint))
	i, j := 0, 0
	for (i < len(a) || j < len(b)) && len(out) < maxTaint {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	if len(out) == len(a) {
		return a
	}
	return out
}

// A varState holds the taints of variables: those a branch set, over
// those of the state it forked from. A fork costs nothing, and joining a
// branch costs the variables it set, not all the tainted ones.
type varState struct {
	parent *varState
	own    map[*types.Var]taint // a nil taint hides the parent's
}

func (s *varState) get(v *types.Var) taint {
	for ; s != nil; s = s.parent {
		if t, ok := s.own[v]; ok {
			return t
		}
	}
	return nil
}

func (s *varState) put(v *types.Var, t taint) {
	if s.own == nil {
		s.own = map[*types.Var]taint{}
	}
	s.own[v] = t
}

// An atomicFlow is the state of the walk at one point: the taint of each
// tainted variable, the guard of the statements there, and the Watch
// function they lie in.
type atomicFlow struct {
	vars *varState
	// guard is the taint of the conditions of the statements around.
	guard taint
	// exits is the taint of the conditions under which the function may
	// have returned before this point; returned is true when the walk
	// since the last fork met a return.
	exits    taint
	returned bool
	region   *watchTx
}

// fork returns a copy of f for a branch.
func (f *atomicFlow) fork() *atomicFlow {
	return &atomicFlow{vars: &varState{parent: f.vars}, guard: f.guard, exits: f.exits, region: f.region}
}

// branch forks f for a branch taken under cond.
func (f *atomicFlow) branch(cond taint) *atomicFlow {
	g := f.fork()
	g.guard = union(g.guard, cond)
	return g
}

// merge sets f to the state after a statement whose branches forked from
// f were walked: the variables that the branches that reach its end set
// (ran) hold what any of them gives them, or what they held before if
// the statement may run none of its branches (skip).
func (f *atomicFlow) merge(ran []*atomicFlow, skip bool) {
	seen := map[*types.Var]bool{}
	for _, g := range ran {
		for v := range g.vars.own {
			if seen[v] {
				continue
			}
			seen[v] = true
			var t taint
			if skip {
				t = f.get(v)
			}
			for _, h := range ran {
				t = union(t, h.get(v))
			}
			f.set(v, t)
		}
	}
}

// get returns the taint of a variable.
func (f *atomicFlow) get(v *types.Var) taint {
	return f.vars.get(v)
}

// after records, once the branches of a statement under cond were walked,
// what they tell of the statements after it: if one may return, those
// depend on cond.
func (f *atomicFlow) after(cond taint, branches ...*atomicFlow) {
	for _, g := range branches {
		if g == nil {
			continue
		}
		f.exits = union(f.exits, g.exits)
		if g.returned {
			f.returned = true
			f.exits = union(f.exits, cond)
		}
	}
}

// guards is the taint that the statements at this point depend on.
func (f *atomicFlow) guards() taint {
	return union(f.guard, f.exits)
}

// local returns the variable an identifier denotes if it is not a
// package-level variable or a field.
func (a *atomicity) local(x ast.Expr) *types.Var {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := a.info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

// set gives a variable a taint, replacing the one it had.
func (f *atomicFlow) set(v *types.Var, t taint) {
	if len(t) == 0 && f.vars.get(v) == nil {
		return
	}
	f.vars.put(v, t)
}

// stmts walks a list of statements. An if or switch that leaves the list
// on some branch guards the statements after it.
func (a *atomicity) stmts(list []ast.Stmt, f *atomicFlow) {
	saved := f.guard
	for _, st := range list {
		if g := a.stmt(st, f); len(g) > 0 {
			f.guard = union(f.guard, g)
		}
	}
	f.guard = saved
}

// stmt walks one statement. It returns the taint of a condition that the
// statements after it depend on, because a branch of it left the block.
func (a *atomicity) stmt(st ast.Stmt, f *atomicFlow) taint {
	switch st := st.(type) {
	case *ast.ExprStmt:
		a.expr(st.X, f)
		if a.noReturn(st.X) {
			f.returned = true
		}
	case *ast.AssignStmt:
		a.assign(st, f)
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			break
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			ts := a.rhs(vs.Values, len(vs.Names), f)
			for i, id := range vs.Names {
				if v, ok := a.info.Defs[id].(*types.Var); ok {
					f.set(v, a.keep(v.Type(), ts[i]))
				}
			}
		}
	case *ast.IncDecStmt:
		a.expr(st.X, f)
	case *ast.SendStmt:
		a.expr(st.Chan, f)
		a.expr(st.Value, f)
	case *ast.GoStmt:
		a.expr(st.Call, f)
	case *ast.DeferStmt:
		a.expr(st.Call, f)
	case *ast.ReturnStmt:
		for _, r := range st.Results {
			a.expr(r, f)
		}
		f.returned = true
	case *ast.BlockStmt:
		a.stmts(st.List, f)
	case *ast.LabeledStmt:
		switch st.Stmt.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			a.labels[st.Stmt] = st.Label.Name
		}
		return a.stmt(st.Stmt, f)
	case *ast.IfStmt:
		if st.Init != nil {
			a.stmt(st.Init, f)
		}
		cond := a.expr(st.Cond, f)
		body := f.branch(cond)
		a.stmts(st.Body.List, body)
		bodyLeaves := a.leaves(st.Body)
		elseLeaves := false
		var els *atomicFlow
		if st.Else != nil {
			els = f.branch(cond)
			a.stmt(st.Else, els)
			elseLeaves = a.leaves(st.Else)
		}
		switch {
		case els == nil && !bodyLeaves:
			f.merge([]*atomicFlow{body}, true)
		case els != nil:
			var ran []*atomicFlow
			if !bodyLeaves {
				ran = append(ran, body)
			}
			if !elseLeaves {
				ran = append(ran, els)
			}
			f.merge(ran, false)
		}
		// A branch that always leaves reaches no statement after the if:
		// the conditions it tested on its way out decide nothing there,
		// only cond does.
		if bodyLeaves {
			body.exits = nil
		}
		if els != nil && elseLeaves {
			els.exits = nil
		}
		f.after(cond, body, els)
		if bodyLeaves || elseLeaves {
			return cond
		}
	case *ast.SwitchStmt:
		if st.Init != nil {
			a.stmt(st.Init, f)
		}
		cond := a.expr(st.Tag, f)
		for _, cc := range st.Body.List {
			for _, x := range cc.(*ast.CaseClause).List {
				cond = union(cond, a.expr(x, f))
			}
		}
		return a.clauses(st.Body, cond, f)
	case *ast.TypeSwitchStmt:
		if st.Init != nil {
			a.stmt(st.Init, f)
		}
		var x ast.Expr
		switch as := st.Assign.(type) {
		case *ast.AssignStmt:
			x = as.Rhs[0]
		case *ast.ExprStmt:
			x = as.X
		}
		cond := a.expr(x, f)
		for _, cc := range st.Body.List {
			if v, ok := a.info.Implicits[cc].(*types.Var); ok {
				f.set(v, cond)
			}
		}
		return a.clauses(st.Body, cond, f)
	case *ast.SelectStmt:
		for _, cc := range st.Body.List {
			if comm := cc.(*ast.CommClause).Comm; comm != nil {
				a.stmt(comm, f)
			}
		}
		a.clauses(st.Body, nil, f)
	case *ast.ForStmt:
		if st.Init != nil {
			a.stmt(st.Init, f)
		}
		a.loops = append(a.loops, st)
		cond := a.expr(st.Cond, f)
		body := f.branch(cond)
		a.stmts(st.Body.List, body)
		if st.Post != nil {
			a.stmt(st.Post, body)
		}
		a.loops = a.loops[:len(a.loops)-1]
		f.merge([]*atomicFlow{body}, true)
		f.after(cond, body)
	case *ast.RangeStmt:
		t := a.expr(st.X, f)
		a.loops = append(a.loops, st)
		body := f.branch(t)
		for _, x := range []ast.Expr{st.Key, st.Value} {
			if x != nil {
				a.store(x, t, true, body)
			}
		}
		a.stmts(st.Body.List, body)
		a.loops = a.loops[:len(a.loops)-1]
		f.merge([]*atomicFlow{body}, true)
		f.after(t, body)
	}
	return nil
}

// clauses walks the clauses of a switch or select statement, each guarded
// by cond, and joins what they leave. It returns cond when a clause leaves
// the block.
func (a *atomicity) clauses(body *ast.BlockStmt, cond taint, f *atomicFlow) taint {
	hasDefault, anyLeaves := false, false
	var walked, ran []*atomicFlow
	for _, cc := range body.List {
		list, isDefault := clause(cc)
		hasDefault = hasDefault || isDefault
		g := f.branch(cond)
		a.stmts(list, g)
		walked = append(walked, g)
		if a.leavesClause(list) {
			anyLeaves = true
			continue
		}
		ran = append(ran, g)
	}
	f.merge(ran, !hasDefault)
	f.after(cond, walked...)
	if anyLeaves {
		return cond
	}
	return nil
}

// clause returns the statements of a case or select clause, and whether
// it is the default: a case with no expressions, or any select clause,
// since a select waits until one of them runs.
func clause(cc ast.Stmt) (list []ast.Stmt, isDefault bool) {
	switch cc := cc.(type) {
	case *ast.CaseClause:
		return cc.Body, cc.List == nil
	case *ast.CommClause:
		return cc.Body, true
	}
	return nil, false
}

// leaves reports whether a statement always leaves its block: it ends in
// return, break, continue, goto, or a call that does not return.
func (a *atomicity) leaves(st ast.Stmt) bool { return keyflow.Terminates(a.info, st, true) }

// leavesClause reports whether the body of a switch or select clause
// always leaves the statement, where break leaves only the switch.
func (a *atomicity) leavesClause(list []ast.Stmt) bool {
	n := len(list)
	if n == 0 {
		return false
	}
	if br, ok := list[n-1].(*ast.BranchStmt); ok && br.Tok == token.BREAK && br.Label == nil {
		return false
	}
	return a.leaves(list[n-1])
}

// noReturn reports whether x is a call that does not return (keyflow's
// NoReturn: panic, os.Exit, log.Fatal and the like).
func (a *atomicity) noReturn(x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	return ok && keyflow.NoReturn(a.info, call)
}

// rhs returns the taints of the n values that a list of expressions gives.
func (a *atomicity) rhs(values []ast.Expr, n int, f *atomicFlow) []taint {
	ts := make([]taint, n)
	switch {
	case len(values) == n:
		for i, x := range values {
			ts[i] = a.expr(x, f)
		}
	case len(values) == 1:
		t := a.tupleExpr(values[0], f)
		for i := range ts {
			ts[i] = t
		}
	}
	return ts
}

// tupleExpr is expr for an expression with several values, a call or
// v, ok := m[k]: the error results are dropped by keep.
func (a *atomicity) tupleExpr(x ast.Expr, f *atomicFlow) taint {
	if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
		return a.call(call, f)
	}
	return a.expr(x, f)
}

// keep returns t, or nothing for a value of type error.
func (a *atomicity) keep(t types.Type, ts taint) taint {
	if isErrorType(t) {
		return nil
	}
	return ts
}

// assign walks an assignment.
func (a *atomicity) assign(st *ast.AssignStmt, f *atomicFlow) {
	ts := a.rhs(st.Rhs, len(st.Lhs), f)
	for i, lhs := range st.Lhs {
		t := ts[i]
		if tv, ok := a.info.Types[lhs]; ok {
			t = a.keep(tv.Type, t)
		} else if id, ok := lhs.(*ast.Ident); ok {
			if obj := a.info.ObjectOf(id); obj != nil {
				t = a.keep(obj.Type(), t)
			}
		}
		if _, ok := ast.Unparen(lhs).(*ast.Ident); !ok {
			// x.f = v, m[k] = v: walk x and k; the element depends on k.
			t = union(t, a.expr(lhs, f))
		}
		replace := st.Tok == token.ASSIGN || st.Tok == token.DEFINE
		a.store(lhs, t, replace, f)
	}
}

// store records that lhs is set to a value of taint t: it replaces the
// taint of a variable, and adds to the taint of the variable whose field,
// element or pointee is set.
func (a *atomicity) store(lhs ast.Expr, t taint, replace bool, f *atomicFlow) {
	lhs = ast.Unparen(lhs)
	if v := a.local(lhs); v != nil {
		if replace {
			f.set(v, t)
		} else {
			f.set(v, union(f.get(v), t))
		}
		return
	}
	if v := a.root(lhs); v != nil {
		f.set(v, union(f.get(v), t))
	}
}

// root returns the local variable that x.f, x[i] or *x is part of.
func (a *atomicity) root(x ast.Expr) *types.Var {
	for {
		if v := a.local(x); v != nil {
			return v
		}
		switch y := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			x = y.X
		case *ast.IndexExpr:
			x = y.X
		case *ast.StarExpr:
			x = y.X
		default:
			return nil
		}
	}
}

// expr walks an expression and returns its taint.
func (a *atomicity) expr(x ast.Expr, f *atomicFlow) taint {
	var t taint
	switch x := x.(type) {
	case nil:
		return nil
	case *ast.Ident:
		if v := a.local(x); v != nil {
			t = f.get(v)
		}
	case *ast.BasicLit:
		return nil
	case *ast.FuncLit:
		if w := a.byLit[x]; w != nil && ast.Unparen(w.call.Args[w.m.Fn]) != x {
			return nil // walked at the Watch call
		}
		a.funcLit(x, f)
		return nil
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			t = union(t, a.expr(el, f))
		}
	case *ast.KeyValueExpr:
		t = union(a.expr(x.Key, f), a.expr(x.Value, f))
	case *ast.ParenExpr:
		return a.expr(x.X, f)
	case *ast.StarExpr:
		t = a.expr(x.X, f)
	case *ast.UnaryExpr:
		t = a.expr(x.X, f)
	case *ast.BinaryExpr:
		t = union(a.expr(x.X, f), a.expr(x.Y, f))
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if _, isPkg := a.info.ObjectOf(id).(*types.PkgName); isPkg {
				return nil
			}
		}
		t = a.expr(x.X, f)
	case *ast.IndexExpr:
		t = union(a.expr(x.X, f), a.expr(x.Index, f))
	case *ast.IndexListExpr:
		t = a.expr(x.X, f)
	case *ast.SliceExpr:
		t = a.expr(x.X, f)
		for _, y := range []ast.Expr{x.Low, x.High, x.Max} {
			t = union(t, a.expr(y, f))
		}
	case *ast.TypeAssertExpr:
		t = a.expr(x.X, f)
	case *ast.CallExpr:
		t = a.call(x, f)
	}
	if len(t) > 0 {
		if tv, ok := a.info.Types[x]; ok && isErrorType(tv.Type) {
			return nil
		}
	}
	return t
}

// call walks a call: its result carries the taint of its receiver and
// arguments, and a read command's result the read itself. It records the
// reads and writes that the call sends.
func (a *atomicity) call(call *ast.CallExpr, f *atomicFlow) taint {
	if tv, ok := a.info.Types[call.Fun]; ok && tv.IsType() {
		var t taint
		for _, arg := range call.Args {
			t = union(t, a.expr(arg, f))
		}
		return t
	}
	var t taint
	var recv ast.Expr
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := a.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
			recv = sel.X
		}
	}
	if recv != nil {
		t = a.expr(recv, f)
	} else {
		t = a.expr(call.Fun, f)
	}
	op := a.ops[call]
	w := a.byCall[call]
	if w != nil {
		w.loop = nil
		if n := len(a.loops); n > 0 {
			w.loop = a.loops[n-1]
			w.label = a.labels[w.loop]
		}
	}
	var values taint
	for i, arg := range call.Args {
		at := a.expr(arg, f)
		t = union(t, at)
		if op != nil && !op.keyArgs[i] {
			values = union(values, at)
		}
	}
	if w != nil && w.lit != nil && !a.walked[w.lit] {
		a.funcLit(w.lit, f)
	}
	// &v arguments receive what the call computes: Scan(&v).
	for _, arg := range call.Args {
		if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
			a.store(u.X, t, false, f)
		}
	}
	// A method with a pointer receiver on a variable may keep its
	// arguments: b.WriteString(s). One of the package that only reads
	// its receiver (a key builder, r.keyIdx(old)) keeps nothing.
	if recv != nil && len(t) > 0 {
		if fn, ok := a.info.Uses[ast.Unparen(call.Fun).(*ast.SelectorExpr).Sel].(*types.Func); ok && !a.isClient(fn.Pkg()) {
			if r := fn.Signature().Recv(); r != nil {
				if _, ptr := r.Type().(*types.Pointer); ptr && a.mayKeep(fn, 0) {
					if v := a.local(recv); v != nil {
						f.set(v, union(f.get(v), t))
					}
				}
			}
		}
	}
	if op != nil {
		if op.write {
			a.writes = append(a.writes, writeSite{op: op, region: f.region, value: values, guard: f.guards()})
		}
		if op.read {
			t = union(t, taint{int32(len(a.reads))})
			a.reads = append(a.reads, readSite{op: op, region: f.region})
		}
	}
	return t
}

// funcLit walks a function literal where it is written. A Watch function
// is a region of its own; the loops around the literal are not its loops.
func (a *atomicity) funcLit(lit *ast.FuncLit, f *atomicFlow) {
	a.walked[lit] = true
	g := &atomicFlow{vars: &varState{parent: f.vars}, guard: f.guards(), region: f.region}
	if w := a.byLit[lit]; w != nil {
		g.region = w
	}
	loops := a.loops
	a.loops = nil
	a.stmts(lit.Body.List, g)
	a.loops = loops
	// What the literal assigns to the variables around it.
	for v, t := range g.vars.own {
		if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
			f.set(v, union(f.get(v), t))
		}
	}
}

// refers reports whether a value of type t refers to other memory, which a
// call given it may write: a pointer, slice, map, channel, interface or
// function.
func refers(t types.Type) bool {
	if t == nil {
		return true
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Interface, *types.Signature:
		return true
	}
	return false
}

// mayKeep reports whether a method with a pointer receiver may keep what it
// is given in its receiver: one declared in another package, or one whose
// body assigns to something of its receiver, sends on a channel of it,
// takes its address, hands the receiver or a part of it that refers to
// more to a call, or calls a method of it that may keep (depth counts
// those calls).
func (a *atomicity) mayKeep(fn *types.Func, depth int) bool {
	decl := a.c.flow.FuncDecl(fn)
	if decl == nil || decl.Body == nil || decl.Recv == nil || len(decl.Recv.List) != 1 || depth > 3 {
		return true
	}
	names := decl.Recv.List[0].Names
	if len(names) == 0 || names[0].Name == "_" {
		return false // the body cannot name the receiver
	}
	recv, _ := a.info.Defs[names[0]].(*types.Var)
	rooted := func(x ast.Expr) bool { return recv != nil && a.root(x) == recv }
	keeps := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if keeps {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			keeps = slices.ContainsFunc(n.Lhs, rooted)
		case *ast.IncDecStmt:
			keeps = rooted(n.X)
		case *ast.UnaryExpr:
			keeps = n.Op == token.AND && rooted(n.X)
		case *ast.SendStmt:
			keeps = rooted(n.Chan)
		case *ast.CallExpr:
			// The receiver, or a part of it that refers to more (a
			// slice, a map, a pointer), handed to a call: copy(r.buf, s).
			if slices.ContainsFunc(n.Args, func(x ast.Expr) bool { return rooted(x) && refers(a.info.TypeOf(x)) }) {
				keeps = true
				break
			}
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && rooted(sel.X) {
				if m, ok := a.info.Uses[sel.Sel].(*types.Func); ok && m.Signature().Recv() != nil {
					if _, ptr := m.Signature().Recv().Type().(*types.Pointer); ptr {
						keeps = a.mayKeep(m, depth+1)
					}
				}
			}
		}
		return !keeps
	})
	return keeps
}
