package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// The engine is flow-insensitive: a local variable holds every value it is
// ever given. Two shapes of Go code make that wrong often enough to matter,
// and both are decided on the syntax tree alone, without a control-flow
// graph:
//
//   - an assignment inside a block that cannot fall through (it ends in
//     return or panic) does not reach the code after that block:
//     keys = append(keys, unique); return run(keys) leaves keys as it was
//     for the other call;
//   - an assignment that every path to a use goes through hides what the
//     variable held before: var k string; if c { k = a } else { k = b }
//     gives a or b, never the zero value, and neither does a use in a block
//     that begins by assigning k.
//
// A block that ends in break or continue ends the life of a variable
// declared in the loop's body in the same way. An assignment after the
// use, outside any loop or function literal, does not reach it either. Everything else reaches: uses and assignments in
// function literals (a closure runs when it is called), in loops (the next
// iteration sees the last one's value), and whole functions that use goto.

// reaching returns the definitions of v that may reach a use at pos. When
// none of them is found to reach it (code the rules above do not cover) it
// returns them all.
func (e *evaluator) reaching(v *types.Var, defs []def, pos token.Pos) []def {
	if len(defs) == 0 || !e.flowSensitive() {
		return defs
	}
	var out []def
	for _, d := range defs {
		if d.rhs != nil && !d.inLoop && d.rhs.Pos() <= pos && pos < d.rhs.End() {
			continue // k = f(k): the assignment comes after its right side
		}
		if d.rhs == nil || d.rng != nil || e.reaches(v, d.pos, pos) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return defs
	}
	return out
}

// reachingAppends returns the appends to v that may reach a use at pos.
func (e *evaluator) reachingAppends(v *types.Var, apps []appendDef, pos token.Pos) []appendDef {
	if len(apps) == 0 || !e.flowSensitive() {
		return apps
	}
	var out []appendDef
	for _, a := range apps {
		if e.reaches(v, a.call.Pos(), pos) {
			out = append(out, a)
		}
	}
	return out
}

// flowSensitive reports whether the function's assignments can be ordered
// on its syntax: it has a body and no goto.
func (e *evaluator) flowSensitive() bool {
	if e.decl == nil || e.decl.Body == nil {
		return false
	}
	if e.hasGoto == 0 {
		e.hasGoto = 1
		ast.Inspect(e.decl.Body, func(n ast.Node) bool {
			if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO {
				e.hasGoto = 2
			}
			return e.hasGoto == 1
		})
	}
	return e.hasGoto == 1
}

// pathTo returns the nodes of the function's body that enclose pos, from
// the body down.
func (e *evaluator) pathTo(pos token.Pos) []ast.Node {
	if p, ok := e.paths[pos]; ok {
		return p
	}
	path := pathIn(e.decl.Body, pos)
	if e.paths == nil {
		e.paths = map[token.Pos][]ast.Node{}
	}
	e.paths[pos] = path
	return path
}

// pathIn returns the nodes of body that enclose pos, from body down.
func pathIn(body *ast.BlockStmt, pos token.Pos) []ast.Node {
	var path []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		path = append(path, n)
		return true
	})
	return path
}

// reaches reports whether the assignment of v at def may reach the use of
// v at use.
func (e *evaluator) reaches(v *types.Var, def, use token.Pos) bool {
	pd, pu := e.pathTo(def), e.pathTo(use)
	c := 0
	for c < len(pd) && c < len(pu) && pd[c] == pu[c] {
		c++
	}
	c-- // pd[c] is the innermost node that holds both
	if c < 0 || c+1 >= len(pd) || c+1 >= len(pu) {
		return true
	}
	for _, n := range pu[c+1:] {
		// A function literal around the use, not the assignment, that
		// assigns v before the use on every path from its start: what v
		// held before it ran is not what the use sees.
		//
		//	var id string
		//	rdb.Watch(ctx, func(tx *redis.Tx) error { id = newID(); ... "a:"+id ... })
		if fl, ok := n.(*ast.FuncLit); ok && e.assignsBefore(v, fl.Body, use) {
			return false
		}
	}
	for _, p := range [][]ast.Node{pd[c+1:], pu[c+1:]} {
		for _, n := range p {
			if _, ok := n.(*ast.FuncLit); ok {
				return true
			}
		}
	}
	// A block around the assignment, not around the use, that cannot fall
	// through.
	for k := c + 1; k < len(pd); k++ {
		if list, ok := stmtList(pd[k]); ok && e.endsScope(list, v, pd[:k]) {
			return false
		}
	}
	list, ok := stmtList(pd[c])
	if !ok {
		return true
	}
	i, j := indexOf(list, pd[c+1]), indexOf(list, pu[c+1])
	if i < 0 || j < 0 || i == j {
		return true
	}
	if i > j {
		// The assignment comes after the use: only a loop or a function
		// literal around both brings it back.
		for k := c; k >= 0; k-- {
			switch pd[k].(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
				return true
			}
		}
		return false
	}
	for _, s := range list[i+1 : j] {
		if e.assigns(v, s) {
			return false
		}
	}
	return !e.assignsBefore(v, list[j], use)
}

// selfAppend reports whether s is v = append(v, ...), which keeps what v
// held and adds to it.
func (e *evaluator) selfAppend(v *types.Var, s *ast.AssignStmt) bool {
	if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
		return false
	}
	call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
	if !ok || !isBuiltin(e.g.info, call.Fun, "append") || len(call.Args) == 0 {
		return false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	return ok && e.g.info.ObjectOf(id) == v
}

// stmtList returns the statements of a block or a clause.
func stmtList(n ast.Node) ([]ast.Stmt, bool) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List, true
	case *ast.CaseClause:
		return n.Body, true
	case *ast.CommClause:
		return n.Body, true
	}
	return nil, false
}

func indexOf(list []ast.Stmt, n ast.Node) int {
	for i, s := range list {
		if ast.Node(s) == n {
			return i
		}
	}
	return -1
}

// endsScope reports whether control that enters list never leaves it to
// where v lives on: its last statement is terminating, or a break or
// continue of a loop whose body declares v (the next iteration has a new
// v, and after the loop there is none), and no other break, continue or
// goto in it leaves it. outer are the nodes around list, outermost first.
func (e *evaluator) endsScope(list []ast.Stmt, v *types.Var, outer []ast.Node) bool {
	if len(list) == 0 {
		return false
	}
	last := list[len(list)-1]
	if b, ok := last.(*ast.BranchStmt); ok {
		if !endsIteration(b, v, outer) {
			return false
		}
		list = list[:len(list)-1]
	} else if !e.terminating(last) {
		return false
	}
	for _, s := range list {
		if leaves(s, false, false) {
			return false
		}
	}
	return true
}

// endsIteration reports whether b is an unlabeled break or continue of a
// loop whose body declares v.
func endsIteration(b *ast.BranchStmt, v *types.Var, outer []ast.Node) bool {
	if b.Label != nil || b.Tok != token.BREAK && b.Tok != token.CONTINUE {
		return false
	}
	for i := len(outer) - 1; i >= 0; i-- {
		var body *ast.BlockStmt
		switch n := outer[i].(type) {
		case *ast.FuncLit:
			return false
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if b.Tok == token.BREAK {
				return false
			}
			continue
		case *ast.ForStmt:
			body = n.Body
		case *ast.RangeStmt:
			body = n.Body
		default:
			continue
		}
		return body.Pos() <= v.Pos() && v.Pos() < body.End()
	}
	return false
}

// leaves reports whether s holds a break or continue that leaves it, or any
// labeled branch; inLoop and inBreakable say that s sits in a loop, or in a
// loop, switch or select, inside the statement list being judged.
func leaves(s ast.Node, inLoop, inBreakable bool) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			found = leaves(n.Body, true, true)
			return false
		case *ast.RangeStmt:
			found = leaves(n.Body, true, true)
			return false
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			found = leaves(bodyOf(n), inLoop, true)
			return false
		case *ast.BranchStmt:
			switch {
			case n.Label != nil, n.Tok == token.GOTO:
				found = true
			case n.Tok == token.BREAK:
				found = !inBreakable
			case n.Tok == token.CONTINUE:
				found = !inLoop
			}
		}
		return true
	})
	return found
}

func bodyOf(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.SwitchStmt:
		return n.Body
	case *ast.TypeSwitchStmt:
		return n.Body
	case *ast.SelectStmt:
		return n.Body
	}
	return nil
}

// terminating reports whether a statement never completes normally
// (Terminates, without branches).
func (e *evaluator) terminating(s ast.Stmt) bool { return Terminates(e.g.info, s, false) }

// Terminates reports whether a statement never completes normally: a
// return, a call that ends the function or the program (NoReturn: panic,
// os.Exit, log.Fatal, t.Fatal, ...), a block that ends in one, or an if
// whose both branches are terminating. With branches, a break, continue or
// goto counts too (a fallthrough does not): the statement then always
// leaves the block it is in, which is what the atomicity checks ask.
func Terminates(info *types.Info, s ast.Stmt, branches bool) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return branches && s.Tok != token.FALLTHROUGH
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		return ok && NoReturn(info, call)
	case *ast.BlockStmt:
		return len(s.List) > 0 && Terminates(info, s.List[len(s.List)-1], branches)
	case *ast.IfStmt:
		return s.Else != nil && Terminates(info, s.Body, branches) && Terminates(info, s.Else, branches)
	case *ast.LabeledStmt:
		return Terminates(info, s.Stmt, branches)
	}
	return false
}

// NoReturn reports whether a call never returns to its caller: panic,
// os.Exit, runtime.Goexit, and the Fatal, Panic, FailNow and Skip
// functions and methods of loggers and tests (package log's and testing's,
// and other loggers', zap's or logrus's, which exit or panic the same way).
// It goes by name rather than by x/tools' ctrlflow facts: the calls are
// often through interfaces (testing.TB, a logger interface), and under go
// vet the standard library is not analysed (cmd/slotlint's
// standardPackage), so no fact would say that log.Fatal never returns.
func NoReturn(info *types.Info, call *ast.CallExpr) bool {
	if isBuiltin(info, call.Fun, "panic") {
		return true
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return false
	}
	switch fn.FullName() {
	case "os.Exit", "runtime.Goexit":
		return true
	}
	return noReturnNames[fn.Name()]
}

var noReturnNames = map[string]bool{
	"Fatal": true, "Fatalf": true, "Fatalln": true,
	"Panic": true, "Panicf": true, "Panicln": true,
	"FailNow": true, "Skip": true, "Skipf": true, "SkipNow": true,
}

// assigns reports whether every normal completion of s has assigned v a
// value that does not depend on what v held. A statement that never
// completes normally assigns v vacuously; so does a break or continue,
// whose target is judged where it matters (a switch with a break that
// leaves it does not assign, and loops never do).
func (e *evaluator) assigns(v *types.Var, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
			return false
		}
		hit := false
		for _, lhs := range s.Lhs {
			if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && e.g.info.ObjectOf(id) == v {
				hit = true
			}
		}
		return hit && !e.selfAppend(v, s)
	case *ast.BlockStmt:
		return e.listAssigns(v, s.List)
	case *ast.LabeledStmt:
		// A break with this label completes it normally.
		return !leaves(s.Stmt, true, true) && e.assigns(v, s.Stmt)
	case *ast.IfStmt:
		if s.Init != nil && e.assigns(v, s.Init) {
			return true
		}
		return s.Else != nil && e.assigns(v, s.Body) && e.assigns(v, s.Else)
	case *ast.SwitchStmt:
		if s.Init != nil && e.assigns(v, s.Init) {
			return true
		}
		return e.clausesAssign(v, s.Body, true)
	case *ast.TypeSwitchStmt:
		if s.Init != nil && e.assigns(v, s.Init) {
			return true
		}
		return e.clausesAssign(v, s.Body, true)
	case *ast.SelectStmt:
		return e.clausesAssign(v, s.Body, false)
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.BREAK || s.Tok == token.CONTINUE
	case *ast.ExprStmt:
		return e.terminating(s)
	}
	return false
}

func (e *evaluator) listAssigns(v *types.Var, list []ast.Stmt) bool {
	for _, s := range list {
		if e.assigns(v, s) {
			return true
		}
	}
	return false
}

// clausesAssign reports whether every clause of a switch or select assigns
// v, none of them breaking out first; a switch needs a default clause.
func (e *evaluator) clausesAssign(v *types.Var, body *ast.BlockStmt, needDefault bool) bool {
	if body == nil || len(body.List) == 0 {
		return false
	}
	hasDefault := false
	// ok is whether the clause after the one being judged assigns, for a
	// clause that falls through into it.
	ok := false
	for i := len(body.List) - 1; i >= 0; i-- {
		var list []ast.Stmt
		var comm ast.Stmt
		switch c := body.List[i].(type) {
		case *ast.CaseClause:
			list = c.Body
			hasDefault = hasDefault || c.List == nil
		case *ast.CommClause:
			list, comm = c.Body, c.Comm
		default:
			return false
		}
		for _, s := range list {
			if breaks(s) {
				return false
			}
		}
		this := comm != nil && e.assigns(v, comm) || e.listAssigns(v, list)
		if !this && len(list) > 0 {
			if b, isBranch := list[len(list)-1].(*ast.BranchStmt); isBranch && b.Tok == token.FALLTHROUGH {
				this = ok
			}
		}
		if !this {
			return false
		}
		ok = this
	}
	return hasDefault || !needDefault
}

// breaks reports whether s holds an unlabeled break that is not inside a
// loop, switch or select of its own: one that leaves the enclosing switch.
func breaks(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.BREAK && n.Label == nil {
				found = true
			}
		}
		return !found
	})
	return found
}

// assignsBefore reports whether every path from the start of s to the use
// at pos inside it assigns v first.
func (e *evaluator) assignsBefore(v *types.Var, s ast.Stmt, pos token.Pos) bool {
	in := func(n ast.Node) bool { return n != nil && n.Pos() <= pos && pos < n.End() }
	list := func(l []ast.Stmt) bool {
		for _, s := range l {
			if in(s) {
				return e.assignsBefore(v, s, pos)
			}
			if e.assigns(v, s) {
				return true
			}
		}
		return false
	}
	switch s := s.(type) {
	case *ast.BlockStmt:
		return list(s.List)
	case *ast.LabeledStmt:
		return e.assignsBefore(v, s.Stmt, pos)
	case *ast.IfStmt:
		if s.Init != nil && !in(s.Init) && e.assigns(v, s.Init) {
			return true
		}
		if in(s.Body) {
			return list(s.Body.List)
		}
		if s.Else != nil && in(s.Else) {
			return e.assignsBefore(v, s.Else, pos)
		}
	case *ast.ForStmt:
		if s.Init != nil && !in(s.Init) && e.assigns(v, s.Init) {
			return true
		}
		if in(s.Body) {
			return list(s.Body.List)
		}
	case *ast.RangeStmt:
		if in(s.Body) {
			return list(s.Body.List)
		}
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		var init ast.Stmt
		if sw, ok := s.(*ast.SwitchStmt); ok {
			init = sw.Init
		} else {
			init = s.(*ast.TypeSwitchStmt).Init
		}
		if init != nil && !in(init) && e.assigns(v, init) {
			return true
		}
		clauses := bodyOf(s).List
		for i, c := range clauses {
			cc := c.(*ast.CaseClause)
			if !in(cc) || !inBody(cc.Body, pos) {
				continue
			}
			if i > 0 {
				// A clause that the one before falls through into.
				if prev := clauses[i-1].(*ast.CaseClause).Body; len(prev) > 0 {
					if b, ok := prev[len(prev)-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
						return false
					}
				}
			}
			return list(cc.Body)
		}
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			if in(cc) && inBody(cc.Body, pos) {
				return cc.Comm != nil && e.assigns(v, cc.Comm) || list(cc.Body)
			}
		}
	}
	return false
}

func inBody(list []ast.Stmt, pos token.Pos) bool {
	return len(list) > 0 && list[0].Pos() <= pos && pos < list[len(list)-1].End()
}

// loopAround reports whether a loop or a function literal that does not
// declare v holds pos: there, an append to v may run many times on one
// slice. A slice declared in the loop's body gets one element from each
// append in that body.
func (e *evaluator) loopAround(v *types.Var, pos token.Pos) bool {
	if e.decl == nil || e.decl.Body == nil {
		return true
	}
	for _, n := range e.pathTo(pos) {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			if v.Pos() < n.Pos() || v.Pos() >= n.End() {
				return true
			}
		}
	}
	return false
}
