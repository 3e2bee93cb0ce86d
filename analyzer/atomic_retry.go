package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/keyflow"
)

// A loop around Watch retries it when some error that Watch returns leads
// to the loop's next iteration while success leaves the loop, or when the
// error counts the iteration back (i--; continue). checkRetry finds out
// which errors do by walking the loop's body three times, once for each
// kind of error Watch may return: nil, redis.TxFailedErr, and any other
// error. Conditions on the error (err == nil, err != nil, err ==
// redis.TxFailedErr, errors.Is(err, redis.TxFailedErr), switch err, and !,
// && and || of those) are decided for that kind; other conditions may go
// either way. A loop is not taken to retry after any error when it tests
// the error in another way (errors.Is(err, context.Canceled),
// isRetryable(err)): that test may well pick the errors to retry.
//
// A retry loop is bounded by a condition of its for statement that
// compares (i < maxRetries), uses a counter or checks the context or the
// clock; by an if or case in its body on such a condition that leaves the
// loop or allows the retry; by a select that leaves when ctx.Done() or a
// timer made before the loop fires; by ranging over anything but a
// channel; or, when it retries only redis.TxFailedErr, by a deadline on
// the context given to Watch (context.WithTimeout before the loop), since
// Watch then fails with the context's error.

// errKind is the kind of error that Watch returned.
type errKind int

const (
	errNil      errKind = iota // success
	errTxFailed                // redis.TxFailedErr: a watched key changed
	errOther                   // any other error: the network, the context, a reply error
)

// A tri is a condition's value for one kind of error: true, false, or
// either.
type tri int

const (
	triMaybe tri = iota
	triTrue
	triFalse
)

func (t tri) not() tri {
	switch t {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triMaybe
}

// A retryWalk follows one kind of error through a loop's body.
type retryWalk struct {
	a      *atomicity
	w      *watchTx
	errVar *types.Var
	kind   errKind
	loop   ast.Stmt
	label  string

	// ran is true once the walk has passed the Watch call: conditions on
	// the error mean something only after it.
	ran bool
	// opaque is true when a condition tested the error in a way the walk
	// does not follow (errors.Is(err, redis.Nil), isRetryable(err)).
	opaque bool
	// exit and next say whether some path leaves the loop, and whether
	// some path goes on to its next iteration.
	exit, next bool
	// step maps the variables that the loop's post statement counts with
	// to the direction it counts them in, +1 or -1; undone is true when
	// the path walked since its last branch counted one back, which makes
	// the next iteration a retry of this one (i--; continue), and undoNext
	// records that such a path went on to the next iteration.
	step             map[*types.Var]int
	undone, undoNext bool
	// targets are the statements that an unlabeled break or continue
	// refers to inside the body: switch, select and inner loops.
	targets []ast.Stmt
	// broke marks the switch and select statements that a break left.
	broke map[ast.Stmt]bool
}

// checkRetry reports a loop that retries Watch with no bound
// (unbounded-watch-retry), or after any error (retry-on-any-error).
func (a *atomicity) checkRetry(w *watchTx) {
	var body *ast.BlockStmt
	switch l := w.loop.(type) {
	case *ast.ForStmt:
		body = l.Body
	case *ast.RangeStmt:
		body = l.Body
	}
	step := map[*types.Var]int{}
	if l, ok := w.loop.(*ast.ForStmt); ok && l.Post != nil {
		a.steps(l.Post, step)
	}
	walk := func(kind errKind) *retryWalk {
		r := &retryWalk{a: a, w: w, errVar: a.assigned[w.call], kind: kind, loop: w.loop, label: w.label, broke: map[ast.Stmt]bool{}, step: step}
		if l, ok := w.loop.(*ast.ForStmt); ok && (contains(l.Init, w.call) || contains(l.Post, w.call)) {
			r.ran = true
		}
		if r.block(body.List) {
			r.iterate()
		}
		return r
	}
	ok, txFailed, other := walk(errNil), walk(errTxFailed), walk(errOther)
	// An error retries when it goes on to the next iteration while success
	// leaves the loop, or when it counts the iteration back.
	retriesTx := txFailed.next && ok.exit || txFailed.undoNext
	retriesOther := other.next && ok.exit || other.undoNext
	if !retriesTx && !retriesOther {
		return
	}
	undone := map[*types.Var]bool{}
	if txFailed.undoNext || other.undoNext {
		for v := range step {
			undone[v] = true
		}
	}
	pos := w.loop.Pos()
	end := pos + token.Pos(len("for"))
	if retriesOther && !other.opaque {
		a.report(pos, end, checks.RetryOnAnyError,
			"this loop retries %s after any error, not only redis.TxFailedErr: after a network error EXEC may have run, and running the function again may apply its writes twice; retry only if errors.Is(err, redis.TxFailedErr), and return other errors",
			a.showWatch(w))
	}
	if !a.bounded(w, retriesOther, undone) {
		on := "on redis.TxFailedErr"
		if !retriesTx {
			on = "after errors"
		}
		a.report(pos, end, checks.UnboundedWatchRetry,
			"this loop retries %s %s with no bound on its attempts: under a hot key it spins forever; stop after a fixed number of attempts (for i := 0; i < maxRetries; i++), or when ctx.Err() != nil",
			a.showWatch(w), on)
	}
}

// contains reports whether node n holds the expression x.
func contains(n ast.Node, x ast.Expr) bool {
	return n != nil && n.Pos() <= x.Pos() && x.End() <= n.End()
}

// iterate records that the walk reached the end of the body, or a
// continue: the loop goes on unless its condition is false for the kind.
func (r *retryWalk) iterate() {
	if r.undone {
		r.undoNext = true
	}
	if l, ok := r.loop.(*ast.ForStmt); ok && l.Cond != nil && r.cond(l.Cond) == triFalse {
		r.exit = true
		return
	}
	r.next = true
}

// steps collects the variables that n counts with ++, --, += and -=, and
// the direction it counts them in.
func (a *atomicity) steps(n ast.Node, out map[*types.Var]int) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if v := a.local(n.X); v != nil {
				out[v] = direction(n.Tok)
			}
		case *ast.AssignStmt:
			if d := direction(n.Tok); d != 0 && len(n.Lhs) == 1 {
				if v := a.local(n.Lhs[0]); v != nil {
					out[v] = d
				}
			}
		}
		return true
	})
}

func direction(tok token.Token) int {
	switch tok {
	case token.INC, token.ADD_ASSIGN:
		return 1
	case token.DEC, token.SUB_ASSIGN:
		return -1
	}
	return 0
}

// undoes reports whether st counts back a variable of the loop's post
// statement.
func (r *retryWalk) undoes(st ast.Stmt) bool {
	if len(r.step) == 0 {
		return false
	}
	var x ast.Expr
	var tok token.Token
	switch st := st.(type) {
	case *ast.IncDecStmt:
		x, tok = st.X, st.Tok
	case *ast.AssignStmt:
		if len(st.Lhs) != 1 {
			return false
		}
		x, tok = st.Lhs[0], st.Tok
	default:
		return false
	}
	v := r.a.local(x)
	d := direction(tok)
	return v != nil && d != 0 && r.step[v] == -d
}

// block walks a list of statements; it reports whether the end of the
// list is reached.
func (r *retryWalk) block(list []ast.Stmt) bool {
	for _, st := range list {
		if !r.stmt(st) {
			return false
		}
	}
	return true
}

// stmt walks one statement; it reports whether the statement after it is
// reached.
func (r *retryWalk) stmt(st ast.Stmt) bool {
	defer func() {
		if st != nil && contains(st, r.w.call) {
			r.ran = true
		}
	}()
	if r.undoes(st) {
		r.undone = true
	}
	switch st := st.(type) {
	case *ast.ReturnStmt:
		r.exit = true
		return false
	case *ast.BranchStmt:
		return r.branch(st)
	case *ast.ExprStmt:
		if r.a.noReturn(st.X) {
			r.exit = true
			return false
		}
	case *ast.BlockStmt:
		return r.block(st.List)
	case *ast.LabeledStmt:
		return r.stmt(st.Stmt)
	case *ast.IfStmt:
		if st.Init != nil {
			r.stmt(st.Init)
			if contains(st.Init, r.w.call) {
				r.ran = true
			}
		}
		if contains(st.Cond, r.w.call) {
			r.ran = true
		}
		c := r.cond(st.Cond)
		then, els := false, false
		undone := r.undone
		if c != triFalse {
			then = r.block(st.Body.List)
			r.undone = undone
		}
		if c != triTrue {
			els = st.Else == nil || r.stmt(st.Else)
			r.undone = undone
		}
		return then || els
	case *ast.SwitchStmt:
		if st.Init != nil {
			r.stmt(st.Init)
			if contains(st.Init, r.w.call) {
				r.ran = true
			}
		}
		if st.Tag != nil && contains(st.Tag, r.w.call) {
			r.ran = true
		}
		return r.switchStmt(st)
	case *ast.TypeSwitchStmt, *ast.SelectStmt:
		var body *ast.BlockStmt
		if ts, ok := st.(*ast.TypeSwitchStmt); ok {
			body = ts.Body
		} else {
			body = st.(*ast.SelectStmt).Body
		}
		r.targets = append(r.targets, st)
		falls, hasDefault := false, false
		for _, cc := range body.List {
			list, isDefault := clause(cc)
			hasDefault = hasDefault || isDefault
			falls = r.block(list) || falls
		}
		r.targets = r.targets[:len(r.targets)-1]
		return falls || !hasDefault || r.broke[st]
	case *ast.ForStmt, *ast.RangeStmt:
		// An inner loop: a return in it leaves; break and continue are its own.
		var body *ast.BlockStmt
		if l, ok := st.(*ast.ForStmt); ok {
			body = l.Body
		} else {
			body = st.(*ast.RangeStmt).Body
		}
		r.targets = append(r.targets, st)
		r.block(body.List)
		r.targets = r.targets[:len(r.targets)-1]
	}
	return true
}

// branch walks break, continue, goto and fallthrough.
func (r *retryWalk) branch(st *ast.BranchStmt) bool {
	switch st.Tok {
	case token.FALLTHROUGH:
		return true
	case token.GOTO:
		r.exit = true
		return false
	}
	if st.Label != nil {
		if st.Label.Name == r.label {
			if st.Tok == token.CONTINUE {
				r.iterate()
			} else {
				r.exit = true
			}
		} else if !r.labelInside(st.Label.Name) {
			r.exit = true // to a statement around the loop
		}
		return false
	}
	// The innermost statement that break or continue refers to.
	for i := len(r.targets) - 1; i >= 0; i-- {
		switch t := r.targets[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return false // an inner loop's
		default:
			if st.Tok == token.BREAK {
				r.broke[t] = true
				return false
			}
		}
	}
	if st.Tok == token.CONTINUE {
		r.iterate()
	} else {
		r.exit = true
	}
	return false
}

// labelInside reports whether a label names a statement inside the loop.
func (r *retryWalk) labelInside(name string) bool {
	found := false
	ast.Inspect(r.loop, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok && ls.Label.Name == name && n != r.loop {
			found = true
		}
		return !found
	})
	return found
}

// switchStmt walks the clauses of a switch that its tag and cases may
// choose for the kind of error.
func (r *retryWalk) switchStmt(st *ast.SwitchStmt) bool {
	r.targets = append(r.targets, st)
	defer func() { r.targets = r.targets[:len(r.targets)-1] }()
	falls, sure := false, false
	var def *ast.CaseClause
	for _, s := range st.Body.List {
		cc := s.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
			continue
		}
		if sure {
			break
		}
		c := triFalse
		for _, x := range cc.List {
			var ci tri
			if st.Tag != nil {
				ci = r.equal(st.Tag, x)
			} else {
				ci = r.cond(x)
			}
			c = or(c, ci)
		}
		if c == triFalse {
			continue
		}
		undone := r.undone
		falls = r.block(cc.Body) || falls
		r.undone = undone
		sure = c == triTrue
	}
	if !sure {
		if def != nil {
			falls = r.block(def.Body) || falls
		} else {
			falls = true
		}
	}
	return falls || r.broke[st]
}

func or(a, b tri) tri {
	switch {
	case a == triTrue || b == triTrue:
		return triTrue
	case a == triFalse && b == triFalse:
		return triFalse
	}
	return triMaybe
}

func and(a, b tri) tri {
	return or(a.not(), b.not()).not()
}

// isErr reports whether x is the error that Watch returned: its variable,
// or the call itself.
func (r *retryWalk) isErr(x ast.Expr) bool {
	x = ast.Unparen(x)
	if x == r.w.call {
		return true
	}
	if r.errVar == nil {
		return false
	}
	id, ok := x.(*ast.Ident)
	return ok && r.a.info.ObjectOf(id) == r.errVar
}

// mentionsErr reports whether x uses the error that Watch returned.
func (r *retryWalk) mentionsErr(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && r.isErr(e) {
			found = true
		}
		return !found
	})
	return found
}

// cond is the value of a condition for the walk's kind of error.
func (r *retryWalk) cond(x ast.Expr) tri {
	if b, ok := r.a.constBool(x); ok {
		if b {
			return triTrue
		}
		return triFalse
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return r.cond(x.X).not()
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			return and(r.cond(x.X), r.cond(x.Y))
		case token.LOR:
			return or(r.cond(x.X), r.cond(x.Y))
		case token.EQL:
			return r.equal(x.X, x.Y)
		case token.NEQ:
			return r.equal(x.X, x.Y).not()
		}
	case *ast.CallExpr:
		if fn, ok := r.a.info.Uses[callName(x)].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && len(x.Args) == 2 && r.isErr(x.Args[0]) {
			switch {
			case !r.ran:
				return triMaybe
			case r.kind == errNil:
				return triFalse
			case fn.Name() == "Is":
				return r.is(x.Args[1])
			}
			r.opaque = r.opaque || r.kind == errOther
			return triMaybe
		}
	}
	if r.ran && r.kind == errOther && r.mentionsErr(x) {
		r.opaque = true
	}
	return triMaybe
}

// equal is the value of x == y for the walk's kind of error.
func (r *retryWalk) equal(x, y ast.Expr) tri {
	if r.isErr(y) {
		x, y = y, x
	}
	if !r.isErr(x) {
		if r.ran && r.kind == errOther && (r.mentionsErr(x) || r.mentionsErr(y)) {
			r.opaque = true
		}
		return triMaybe
	}
	if !r.ran {
		return triMaybe
	}
	if id, ok := ast.Unparen(y).(*ast.Ident); ok && id.Name == "nil" {
		if _, isNil := r.a.info.ObjectOf(id).(*types.Nil); isNil {
			if r.kind == errNil {
				return triTrue
			}
			return triFalse
		}
	}
	return r.is(y)
}

// is is the value of "the error is target", for a target other than nil.
func (r *retryWalk) is(target ast.Expr) tri {
	switch {
	case r.kind == errNil:
		return triFalse
	case r.a.isTxFailedErr(target):
		if r.kind == errTxFailed {
			return triTrue
		}
		return triFalse
	case r.kind == errTxFailed:
		return triFalse
	}
	r.opaque = true
	return triMaybe
}

// callName returns the identifier that names a called function.
func callName(call *ast.CallExpr) *ast.Ident {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return fun
	case *ast.SelectorExpr:
		return fun.Sel
	}
	return nil
}

// bounded reports whether a retry loop stops after a while; see above.
// anyError says that it retries other errors than redis.TxFailedErr, and
// undone holds the counters that a retry counts back, which bound nothing.
func (a *atomicity) bounded(w *watchTx, anyError bool, undone map[*types.Var]bool) bool {
	var body *ast.BlockStmt
	counters := map[*types.Var]bool{}
	switch l := w.loop.(type) {
	case *ast.RangeStmt:
		if t := a.info.TypeOf(l.X); t != nil {
			if _, ok := t.Underlying().(*types.Chan); ok {
				return false
			}
		}
		return true
	case *ast.ForStmt:
		body = l.Body
		a.counters(l.Post, counters)
		a.counters(l.Body, counters)
		// A counter that a retry counts back bounds nothing.
		for v := range undone {
			delete(counters, v)
		}
		if l.Cond != nil && a.boundExpr(l.Cond, counters, !a.uses(l.Cond, undone)) {
			return true
		}
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if a.boundExpr(n.Cond, counters, false) && (a.hasExit(n.Body, true) || n.Else != nil && a.hasExit(n.Else, true)) {
				found = true
			}
		case *ast.CaseClause:
			for _, x := range n.List {
				if a.boundExpr(x, counters, false) && a.hasExit(&ast.BlockStmt{List: n.Body}, true) {
					found = true
				}
			}
		case *ast.CommClause:
			if n.Comm != nil && a.stopsWaiting(n.Comm, w.loop) && a.hasExit(&ast.BlockStmt{List: n.Body}, false) {
				found = true
			}
		}
		return !found
	})
	if found {
		return true
	}
	return !anyError && a.hasDeadline(w)
}

// counters collects the variables that n counts with ++, --, += or -=.
func (a *atomicity) counters(n ast.Node, out map[*types.Var]bool) {
	if n == nil {
		return
	}
	// A Watch function may count the attempts too.
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if v := a.local(n.X); v != nil {
				out[v] = true
			}
		case *ast.AssignStmt:
			if n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN {
				for _, l := range n.Lhs {
					if v := a.local(l); v != nil {
						out[v] = true
					}
				}
			}
		}
		return true
	})
}

// boundExpr reports whether a condition bounds a loop: it uses a counter,
// the context's Err, Done or Deadline, or the clock; in a for statement's
// condition, any ordered comparison (i < maxRetries).
func (a *atomicity) boundExpr(x ast.Expr, counters map[*types.Var]bool, loopCond bool) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			switch n.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				found = found || loopCond
			}
		case *ast.Ident:
			if v, ok := a.info.Uses[n].(*types.Var); ok && counters[v] {
				found = true
			}
		case *ast.CallExpr:
			found = found || a.isContextCheck(n) || a.isClock(n)
		}
		return !found
	})
	return found
}

// isContextCheck reports whether call is ctx.Err(), ctx.Done() or
// ctx.Deadline() on a context.Context.
func (a *atomicity) isContextCheck(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !slices.Contains([]string{"Err", "Done", "Deadline"}, sel.Sel.Name) {
		return false
	}
	return keyflow.IsContext(a.info.TypeOf(sel.X))
}

// isClock reports whether call reads the clock: time.Since, time.Until,
// time.Now, or a time.Time's Before or After.
func (a *atomicity) isClock(call *ast.CallExpr) bool {
	fn, ok := a.info.Uses[callName(call)].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
		return false
	}
	switch fn.Name() {
	case "Since", "Until", "Now", "Before", "After":
		return fn.Name() != "After" || fn.Signature().Recv() != nil
	}
	return false
}

// stopsWaiting reports whether a select case receives from ctx.Done(), or
// from a channel made before the loop (a timer for the whole retry).
func (a *atomicity) stopsWaiting(comm ast.Stmt, loop ast.Stmt) bool {
	var x ast.Expr
	switch c := comm.(type) {
	case *ast.ExprStmt:
		x = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			x = c.Rhs[0]
		}
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok {
		return a.isContextCheck(call)
	}
	if v := a.root(u.X); v != nil {
		return v.Pos() < loop.Pos()
	}
	return false
}

// hasExit reports whether a statement holds a return, a break, a goto or a
// call that does not return, outside function literals; or, with cont, a
// continue: a retry that a bound condition allows.
func (a *atomicity) hasExit(n ast.Node, cont bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			found = found || n.Tok == token.BREAK || n.Tok == token.GOTO || cont && n.Tok == token.CONTINUE
		case *ast.ExprStmt:
			found = found || a.noReturn(n.X)
		}
		return !found
	})
	return found
}

// hasDeadline reports whether the context given to Watch is made with a
// timeout or a deadline before the loop, and set nowhere else.
func (a *atomicity) hasDeadline(w *watchTx) bool {
	if len(w.call.Args) == 0 {
		return false
	}
	v := a.local(w.call.Args[0])
	if v == nil {
		return false
	}
	deadline, other := false, false
	ast.Inspect(a.s.Decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return !other
		}
		for i, lhs := range as.Lhs {
			if id, ok := ast.Unparen(lhs).(*ast.Ident); !ok || a.info.ObjectOf(id) != v {
				continue
			}
			var rhs ast.Expr
			switch {
			case len(as.Lhs) == len(as.Rhs):
				rhs = as.Rhs[i]
			case i == 0:
				rhs = as.Rhs[0]
			}
			if a.isDeadline(rhs) && as.Pos() < w.loop.Pos() {
				deadline = true
			} else {
				other = true
			}
		}
		return !other
	})
	return deadline && !other
}

// isDeadline reports whether x is a call of context.WithTimeout or
// context.WithDeadline.
func (a *atomicity) isDeadline(x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := a.info.Uses[callName(call)].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "context" {
		return false
	}
	switch fn.Name() {
	case "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause":
		return true
	}
	return false
}

// uses reports whether x uses one of vars.
func (a *atomicity) uses(x ast.Expr, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := a.info.Uses[id].(*types.Var); ok && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}
