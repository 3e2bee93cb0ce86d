package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/slotlint/slotlint/keyspace"
)

// A transaction's keys are those of every command it queues or runs: the
// watched keys of Watch, the commands fn sends through its *redis.Tx, and
// those it queues in TxPipelined or a TxPipeline. All must share one slot;
// go-redis before 9.11 split a cross-slot MULTI/EXEC into one transaction
// per slot, silently giving up atomicity, and newer versions fail at run
// time. A plain pipeline is not a transaction: its commands may go to any
// slots, and only each multi-key command in it is checked.

// checkWatch checks Watch(ctx, fn, keys...).
func (c *checker) checkWatch(e *evaluator, s *summary, call *ast.CallExpr, m *keyspace.Method) {
	groups, _ := c.selectKeys(e, call, m.Keys)
	if lit := c.funcArg(e, call, m.Fn); lit != nil {
		groups = append(groups, c.handleKeys(e, lit.Body, funcParams(c, lit))...)
	}
	c.checkKeys(e, s, call, "WATCH transaction", groups)
}

// checkTxPipelined checks TxPipelined(ctx, fn). Inside a Watch function it
// is part of the Watch transaction, checked there.
func (c *checker) checkTxPipelined(e *evaluator, s *summary, call *ast.CallExpr, m *keyspace.Method) {
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
	v := c.assignedTo(s.decl.Body, call)
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

// assignedTo returns the local variable that call's result is assigned to.
func (c *checker) assignedTo(body *ast.BlockStmt, call *ast.CallExpr) *types.Var {
	var v *types.Var
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				if ast.Unparen(r) == call {
					if id, ok := as.Lhs[i].(*ast.Ident); ok {
						v, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
					}
				}
			}
		}
		return v == nil
	})
	return v
}

// handleKeys collects the keys of every command sent through one of the
// handles (a *redis.Tx or a Pipeliner) in body, following the pipelines
// made from them: TxPipelined and Pipelined functions, and TxPipeline and
// Pipeline values.
func (c *checker) handleKeys(e *evaluator, body *ast.BlockStmt, handles map[*types.Var]bool) []keyGroup {
	var groups []keyGroup
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !c.onHandle(call, handles) {
			return true
		}
		_, m := c.resolve(call)
		if m == nil {
			return true
		}
		switch m.Kind {
		case keyspace.KindCommand, keyspace.KindScript, keyspace.KindScriptSHA, keyspace.KindFunction:
			g, _ := c.selectKeys(e, call, m.Keys)
			groups = append(groups, g...)
		case keyspace.KindTxPipelined, keyspace.KindPipelined:
			if lit := c.funcArg(e, call, m.Fn); lit != nil {
				for v := range funcParams(c, lit) {
					handles[v] = true
				}
			}
		case keyspace.KindTxPipeline, keyspace.KindPipeline:
			if v := c.assignedTo(body, call); v != nil {
				handles[v] = true
			}
		}
		return true
	})
	return groups
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
