package analyzer

import (
	"container/heap"
	"go/ast"
	"go/types"

	"github.com/slotlint/slotlint/ruleset"
)

// A transaction's keys are those of every command it queues or runs: the
// watched keys of Watch, the commands fn sends through its *redis.Tx, and
// those it queues in TxPipelined or a TxPipeline. All must share one slot;
// go-redis before 9.11 split a cross-slot MULTI/EXEC into one transaction
// per slot, silently giving up atomicity, and newer versions fail at run
// time. A plain pipeline is not a transaction: its commands may go to any
// slots, and only each multi-key command in it is checked.

// checkWatch checks Watch(ctx, fn, keys...).
func (c *checker) checkWatch(e *evaluator, s *summary, call *ast.CallExpr, m *ruleset.Method) {
	groups, _ := c.selectKeys(e, call, m.Keys)
	if lit := c.funcArg(e, call, m.Fn); lit != nil {
		groups = append(groups, c.handleKeys(e, lit.Body, funcParams(c, lit))...)
	}
	c.checkKeys(e, s, call, "WATCH transaction", groups)
}

// checkTxPipelined checks TxPipelined(ctx, fn). Inside a Watch function it
// is part of the Watch transaction, checked there.
func (c *checker) checkTxPipelined(e *evaluator, s *summary, call *ast.CallExpr, m *ruleset.Method) {
	if c.inWatch(e, call) {
		return
	}
	lit := c.funcArg(e, call, m.Fn)
	if lit == nil {
		return
	}
	c.checkKeys(e, s, call, "MULTI/EXEC transaction", c.handleKeys(e, lit.Body, funcParams(c, lit)))
}

// checkTxPipeline checks p := TxPipeline() and the commands queued on p in
// the same function.
func (c *checker) checkTxPipeline(e *evaluator, s *summary, call *ast.CallExpr) {
	if c.inWatch(e, call) || s.decl == nil {
		return
	}
	v := c.assignedTo(e, s.decl.Body, call)
	if v == nil {
		return
	}
	c.checkKeys(e, s, call, "MULTI/EXEC transaction", c.handleKeys(e, s.decl.Body, map[*types.Var]bool{v: true}))
}

// inWatch reports whether call is made on a *redis.Tx handle given to a
// Watch function, directly or through a pipeline made from it.
func (c *checker) inWatch(e *evaluator, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	t := c.pass.TypesInfo.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "Tx"
}

// funcArg returns the function literal passed as parameter i, directly or
// through a local variable set once.
func (c *checker) funcArg(e *evaluator, call *ast.CallExpr, i int) *ast.FuncLit {
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	x := ast.Unparen(call.Args[i])
	if id, ok := x.(*ast.Ident); ok {
		if v := e.localVar(id); v != nil {
			if defs := e.defs[v]; len(defs) == 1 && defs[0].rhs != nil {
				x = ast.Unparen(defs[0].rhs)
			}
		}
	}
	lit, _ := x.(*ast.FuncLit)
	return lit
}

func funcParams(c *checker, lit *ast.FuncLit) map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	for _, f := range lit.Type.Params.List {
		for _, n := range f.Names {
			if v, ok := c.pass.TypesInfo.Defs[n].(*types.Var); ok {
				vars[v] = true
			}
		}
	}
	return vars
}

// assignedTo returns the local variable that call's result is assigned to,
// looked up in the index of the function around body.
func (c *checker) assignedTo(e *evaluator, body *ast.BlockStmt, call *ast.CallExpr) *types.Var {
	return e.callIndex(body).assigned[call]
}

// A callIndex holds, for one function declaration (or package-level
// initializer), what checking its transactions looks up: the method calls
// on each local variable, and the variable that each call's result is
// assigned to.
type callIndex struct {
	calls    []*ast.CallExpr              // method calls on a variable, in ast.Inspect order
	recv     []*types.Var                 // the variable of each call
	byVar    map[*types.Var][]int         // the indexes in calls of each variable's calls
	assigned map[*ast.CallExpr]*types.Var // v = call(...)
}

// callIndex returns the index of the function declaration around body,
// built in one walk and kept: a walk of the body for each TxPipeline call
// made checking a function quadratic in its size. For a package-level
// initializer, which has no declaration, it indexes body itself.
func (e *evaluator) callIndex(body *ast.BlockStmt) *callIndex {
	root := body
	if e.decl != nil && e.decl.Body != nil {
		root = e.decl.Body
	}
	if idx := e.calls[root]; idx != nil {
		return idx
	}
	info := e.c.pass.TypesInfo
	idx := &callIndex{byVar: map[*types.Var][]int{}, assigned: map[*ast.CallExpr]*types.Var{}}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				break
			}
			for i, r := range n.Rhs {
				call, ok := ast.Unparen(r).(*ast.CallExpr)
				if !ok {
					continue
				}
				if _, seen := idx.assigned[call]; seen {
					continue
				}
				var v *types.Var
				if id, ok := n.Lhs[i].(*ast.Ident); ok {
					v, _ = info.ObjectOf(id).(*types.Var)
				}
				idx.assigned[call] = v
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok {
				break
			}
			id, ok := ast.Unparen(sel.X).(*ast.Ident)
			if !ok {
				break
			}
			if v, _ := info.ObjectOf(id).(*types.Var); v != nil {
				idx.byVar[v] = append(idx.byVar[v], len(idx.calls))
				idx.calls = append(idx.calls, n)
				idx.recv = append(idx.recv, v)
			}
		}
		return true
	})
	if e.calls == nil {
		e.calls = map[*ast.BlockStmt]*callIndex{}
	}
	e.calls[root] = idx
	return idx
}

// handleKeys collects the keys of every command sent through one of the
// handles (a *redis.Tx or a Pipeliner) in body, following the pipelines
// made from them: TxPipelined and Pipelined functions, and TxPipeline and
// Pipeline values.
func (c *checker) handleKeys(e *evaluator, body *ast.BlockStmt, handles map[*types.Var]bool) []keyGroup {
	var groups []keyGroup
	visit := func(call *ast.CallExpr) {
		_, m := c.resolve(call)
		if m == nil {
			return
		}
		switch m.Kind {
		case ruleset.KindCommand, ruleset.KindScript, ruleset.KindScriptSHA, ruleset.KindFunction:
			g, _ := c.selectKeys(e, call, m.Keys)
			groups = append(groups, g...)
		case ruleset.KindTxPipelined, ruleset.KindPipelined:
			if lit := c.funcArg(e, call, m.Fn); lit != nil {
				for v := range funcParams(c, lit) {
					handles[v] = true
				}
			}
		case ruleset.KindTxPipeline, ruleset.KindPipeline:
			if v := c.assignedTo(e, body, call); v != nil {
				handles[v] = true
			}
		}
	}
	idx := e.callIndex(body)
	// The calls on the handles, in the order of a walk of body, as a walk
	// of the whole body would find them; only the handles' own calls are
	// visited. A handle made at call i counts from call i on.
	in := func(call *ast.CallExpr) bool { return body.Pos() <= call.Pos() && call.End() <= body.End() }
	var next callHeap
	added := map[*types.Var]bool{}
	add := func(v *types.Var, from int) {
		if added[v] {
			return
		}
		added[v] = true
		for _, i := range idx.byVar[v] {
			if i > from && in(idx.calls[i]) {
				heap.Push(&next, i)
			}
		}
	}
	for v := range handles {
		add(v, -1)
	}
	last := -1
	for next.Len() > 0 {
		i := heap.Pop(&next).(int)
		if i == last {
			continue
		}
		last = i
		visit(idx.calls[i])
		for v := range handles {
			add(v, i)
		}
	}
	return groups
}

// callHeap is a min-heap of indexes into a callIndex's calls.
type callHeap []int

func (h callHeap) Len() int           { return len(h) }
func (h callHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h callHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *callHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *callHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// onHandle reports whether call is a method call on one of the handles.
func (c *checker) onHandle(call *ast.CallExpr, handles map[*types.Var]bool) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	return v != nil && handles[v]
}

// exprName is how messages show an expression: its source text, shortened.
func (c *checker) exprName(x ast.Expr) string {
	s := types.ExprString(x)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
