package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// The atomicity checks find the WATCH/MULTI/EXEC mistakes that lose
// updates, in go-redis's Watch(ctx, fn, keys...), TxPipelined and
// TxPipeline:
//
//	read-outside-watch      a value read before Watch, or outside its
//	                        function, decides what the function writes
//	tx-write-outside-multi  a write sent at once inside the function, not
//	                        queued in its MULTI/EXEC
//	unbounded-watch-retry   a loop that retries Watch with no bound
//	retry-on-any-error      a loop that retries Watch after any error, not
//	                        only redis.TxFailedErr
//	unwatched-decision-key  the function reads a key it does not watch, and
//	                        that key decides what it writes
//	lost-update             a read of a key, then a write of the same key
//	                        computed from it, with no WATCH around them
//
// They follow, within one function declaration and its function literals,
// what the results of read commands flow into (see atomicFlow), and where
// each command runs: inside a Watch function or not, on the *redis.Tx at
// once, or queued in its MULTI/EXEC.

// An atomicOp is a call that sends a command that reads or writes keys.
type atomicOp struct {
	call  *ast.CallExpr
	m     *ruleset.Method
	name  string // the command, upper case: "GET"
	read  bool   // the command is read-only: its result is the keys' data
	write bool   // the command may modify its keys
	// keyArgs are the arguments that are keys, not values written.
	keyArgs map[int]bool
	// raw holds the argument indexes of the keys of Do(ctx, "CMD", ...).
	raw []int
	// handle is the transaction or pipeline the call is made on; nil for
	// a client.
	handle *txHandle

	keysDone bool
	groups   []keyGroup
	open     bool
}

// A watchTx is one call of Watch(ctx, fn, keys...).
type watchTx struct {
	call *ast.CallExpr
	m    *ruleset.Method
	lit  *ast.FuncLit // fn, when it is a function literal in sight
	// loop is the innermost loop around the call, in the same function;
	// label is its label, if any.
	loop  ast.Stmt
	label string
	// txWatch are the calls of tx.Watch(ctx, keys...) in fn, which watch
	// more keys.
	txWatch []*atomicOp
}

type handleKind int

const (
	handleTx    handleKind = iota // the *redis.Tx given to fn: commands run at once
	handleMulti                   // a TxPipelined or TxPipeline: commands queued in MULTI/EXEC
	handlePlain                   // a Pipelined or Pipeline: commands sent together, not in MULTI
)

// A txHandle is what a variable holding a *redis.Tx or a Pipeliner stands
// for: the Watch it derives from, if any, and how its commands run.
type txHandle struct {
	watch *watchTx
	kind  handleKind
}

// A readSite is a read command, and the Watch function it lies in (nil
// for none).
type readSite struct {
	op     *atomicOp
	region *watchTx
}

// A writeSite is a write command, the Watch function it lies in, and the
// reads that its written values and the conditions that lead to it depend
// on.
type writeSite struct {
	op     *atomicOp
	region *watchTx
	value  taint
	guard  taint
}

// atomicity holds the state of the atomicity checks over one function
// declaration.
type atomicity struct {
	c    *checker
	e    *evaluator
	s    *summary
	info *types.Info

	ops      map[*ast.CallExpr]*atomicOp
	watches  []*watchTx
	byCall   map[*ast.CallExpr]*watchTx
	byLit    map[*ast.FuncLit]*watchTx
	handles  map[*types.Var]*txHandle
	assigned map[*ast.CallExpr]*types.Var // v := call, v = call, var v = call

	reads  []readSite
	writes []writeSite

	// loops are the loops around the statement being walked, innermost
	// last, within the current function; labels names the labeled ones.
	loops  []ast.Stmt
	labels map[ast.Stmt]string
	// walked marks the Watch functions walked: one passed as a variable is
	// walked where Watch is called, with the taints of that point.
	walked map[*ast.FuncLit]bool
}

// checkAtomicity runs the atomicity checks over a function declaration.
func (c *checker) checkAtomicity(e *evaluator, s *summary) {
	if s.decl == nil || s.decl.Body == nil {
		return
	}
	a := &atomicity{
		c:        c,
		e:        e,
		s:        s,
		info:     c.pass.TypesInfo,
		ops:      map[*ast.CallExpr]*atomicOp{},
		byCall:   map[*ast.CallExpr]*watchTx{},
		byLit:    map[*ast.FuncLit]*watchTx{},
		handles:  map[*types.Var]*txHandle{},
		assigned: map[*ast.CallExpr]*types.Var{},
		labels:   map[ast.Stmt]string{},
		walked:   map[*ast.FuncLit]bool{},
	}
	if !a.collect(s.decl.Body) {
		return
	}
	f := &atomicFlow{vars: &varState{}}
	a.stmts(s.decl.Body.List, f)

	a.checkWritesInWatch()
	a.checkReadsForWatch()
	a.checkLostUpdates()
	for _, w := range a.watches {
		if w.loop != nil {
			a.checkRetry(w)
		}
	}
}

// collect finds the commands, Watch calls and pipelines of a body, and the
// handles that derive from them. It reports whether there is anything to
// check: a Watch, or a read.
func (a *atomicity) collect(body *ast.BlockStmt) bool {
	var pipes []*ast.CallExpr
	pipeKind := map[*ast.CallExpr]*ruleset.Method{}
	anyRead := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					if call, ok := ast.Unparen(r).(*ast.CallExpr); ok {
						if id, ok := ast.Unparen(n.Lhs[i]).(*ast.Ident); ok {
							if v, ok := a.info.ObjectOf(id).(*types.Var); ok {
								a.assigned[call] = v
							}
						}
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, x := range n.Values {
					if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
						if v, ok := a.info.Defs[n.Names[i]].(*types.Var); ok {
							a.assigned[call] = v
						}
					}
				}
			}
		case *ast.CallExpr:
			_, m := a.c.resolve(n)
			if m == nil {
				return true
			}
			switch m.Kind {
			case ruleset.KindCommand, ruleset.KindRaw:
				if op := a.newOp(n, m); op != nil {
					a.ops[n] = op
					anyRead = anyRead || op.read
				}
			case ruleset.KindWatch:
				w := &watchTx{call: n, m: m}
				a.watches = append(a.watches, w)
				a.byCall[n] = w
			case ruleset.KindTxPipelined, ruleset.KindPipelined, ruleset.KindTxPipeline, ruleset.KindPipeline:
				pipes = append(pipes, n)
				pipeKind[n] = m
			}
		}
		return true
	})
	if len(a.watches) == 0 && !anyRead {
		return false
	}
	for _, w := range a.watches {
		if w.lit = a.c.funcArg(a.e, w.call, w.m.Fn); w.lit != nil {
			a.byLit[w.lit] = w
			for v := range funcParams(a.c, w.lit) {
				a.handles[v] = &txHandle{watch: w, kind: handleTx}
			}
		}
	}
	// Pipelines made from a handle belong to its Watch; in document order,
	// a pipeline's own pipelines come after it.
	for _, call := range pipes {
		m := pipeKind[call]
		h := &txHandle{kind: handleMulti}
		if m.Kind == ruleset.KindPipelined || m.Kind == ruleset.KindPipeline {
			h.kind = handlePlain
		}
		if from := a.handleOf(call); from != nil {
			h.watch = from.watch
		}
		switch m.Kind {
		case ruleset.KindTxPipelined, ruleset.KindPipelined:
			if lit := a.c.funcArg(a.e, call, m.Fn); lit != nil {
				for v := range funcParams(a.c, lit) {
					a.handles[v] = h
				}
			}
		default:
			if v := a.assigned[call]; v != nil {
				a.handles[v] = h
			}
		}
	}
	for call, op := range a.ops {
		op.handle = a.handleOf(call)
		if op.handle != nil && op.handle.kind == handleTx && op.name == "WATCH" {
			w := op.handle.watch
			w.txWatch = append(w.txWatch, op)
		}
	}
	return true
}

// handleOf returns the handle that a method call is made on, if any.
func (a *atomicity) handleOf(call *ast.CallExpr) *txHandle {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := a.info.ObjectOf(id).(*types.Var)
	if v == nil {
		return nil
	}
	return a.handles[v]
}

// newOp describes a command call, or returns nil for a command that
// neither reads nor writes keys (WATCH, UNWATCH, PING, ...).
func (a *atomicity) newOp(call *ast.CallExpr, m *ruleset.Method) *atomicOp {
	op := &atomicOp{call: call, m: m, keyArgs: map[int]bool{}}
	var cmd *ruleset.Command
	if m.Kind == ruleset.KindRaw {
		if m.Args == nil || call.Ellipsis.IsValid() || m.Args.Param >= len(call.Args) {
			return nil
		}
		args := call.Args[m.Args.Param:]
		argv := make([]string, len(args))
		for i, x := range args {
			if tv := a.info.Types[x]; tv.Value != nil {
				argv[i], _ = constString(tv.Value)
			}
		}
		if argv[0] == "" {
			return nil
		}
		cmd = a.c.rules.Command(argv[0])
		if len(argv) > 1 && argv[1] != "" {
			cmd = a.c.rules.Command(argv[0], argv[1])
		}
		if cmd == nil {
			return nil
		}
		pos, _ := cmd.KeyPositions(argv)
		for _, p := range pos {
			if p < len(args) {
				op.raw = append(op.raw, m.Args.Param+p)
				op.keyArgs[m.Args.Param+p] = true
			}
		}
		op.keyArgs[m.Args.Param] = true // the command's name
		op.name = strings.ToUpper(argv[0])
	} else {
		if m.Command == "" {
			return nil
		}
		cmd = a.c.rules.Command(m.Command)
		if cmd == nil {
			return nil
		}
		for _, sel := range m.Keys {
			if sel.Field != "" {
				continue
			}
			if sel.Variadic && !call.Ellipsis.IsValid() {
				for i := sel.Param; i < len(call.Args); i += max(sel.Step, 1) {
					op.keyArgs[i] = true
				}
			} else {
				op.keyArgs[sel.Param] = true
			}
		}
		op.name = strings.ToUpper(m.Command)
	}
	op.write = cmd.IsWrite()
	op.read = !op.write && slices.Contains(cmd.Flags, "readonly") && len(cmd.Keys) > 0
	if strings.ToLower(cmd.Name) == "watch" {
		op.name = "WATCH"
		return op // kept to find the keys that tx.Watch adds
	}
	if !op.read && !op.write {
		return nil
	}
	return op
}

// keys returns the keys of an op's command, each a group of alternatives;
// open is true when some keys are not seen.
func (a *atomicity) keys(op *atomicOp) ([]keyGroup, bool) {
	if !op.keysDone {
		op.keysDone = true
		if op.m.Kind == ruleset.KindRaw {
			for _, i := range op.raw {
				op.groups = append(op.groups, a.e.keys(op.call.Args[i]))
			}
		} else {
			op.groups, op.open = a.c.selectKeys(a.e, op.call, op.m.Keys)
		}
	}
	return op.groups, op.open
}

// watched returns the keys that a Watch watches, and whether they are all
// known, each as one key: those given to Watch and to tx.Watch in fn.
func (a *atomicity) watched(w *watchTx) ([]keyspace.Key, bool) {
	groups, open := a.c.selectKeys(a.e, w.call, w.m.Keys)
	for _, op := range w.txWatch {
		g, o := a.keys(op)
		groups = append(groups, g...)
		open = open || o
	}
	out := make([]keyspace.Key, 0, len(groups))
	complete := !open
	for _, g := range groups {
		if len(g) != 1 || !a.fixed(g[0].key) {
			complete = false
		}
		for _, k := range g {
			out = append(out, k.key)
		}
	}
	return out, complete
}

// fixed reports whether a key is made of literal text and unknowns that
// have an identity and hold one value in the function, so that a key it is
// not Equal to is taken to be another key. A variable set in a loop, such
// as a range variable, holds many.
func (a *atomicity) fixed(k keyspace.Key) bool {
	for _, p := range k.Parts {
		if !p.Unknown {
			continue
		}
		if p.ID == "" {
			return false
		}
		for id := range a.e.loopIDs {
			if strings.Contains(p.ID, id) {
				return false
			}
		}
	}
	return true
}

// single returns the one key of a group with one alternative.
func single(g keyGroup) (keyspace.Key, bool) {
	if len(g) != 1 {
		return keyspace.Key{}, false
	}
	return g[0].key, true
}

// sameKey returns a key of op1 that is provably a key of op2.
func (a *atomicity) sameKey(op1, op2 *atomicOp) (keyspace.Key, bool) {
	g1, _ := a.keys(op1)
	g2, _ := a.keys(op2)
	for _, x := range g1 {
		kx, ok := single(x)
		if !ok {
			continue
		}
		for _, y := range g2 {
			if ky, ok := single(y); ok && kx.Equal(ky) {
				return kx, true
			}
		}
	}
	return keyspace.Key{}, false
}

// keyIn reports whether a key of op is provably one of keys.
func (a *atomicity) keyIn(op *atomicOp, keys []keyspace.Key) bool {
	groups, _ := a.keys(op)
	for _, g := range groups {
		if k, ok := single(g); ok {
			for _, x := range keys {
				if k.Equal(x) {
					return true
				}
			}
		}
	}
	return false
}

// written returns the keys that the writes in a Watch function write.
func (a *atomicity) written(w *watchTx) []keyspace.Key {
	var out []keyspace.Key
	for _, ws := range a.writes {
		if ws.region == w {
			out = append(out, a.singles(ws.op)...)
		}
	}
	return out
}

// txKeys returns the keys of a Watch's transaction that are known: those
// it watches, and those that its function reads or queues writes of.
func (a *atomicity) txKeys(w *watchTx) []keyspace.Key {
	out, _ := a.watched(w)
	for _, rs := range a.reads {
		if rs.region == w {
			out = append(out, a.singles(rs.op)...)
		}
	}
	for _, ws := range a.writes {
		if h := ws.op.handle; ws.region == w && h != nil && h.watch == w && h.kind == handleMulti {
			out = append(out, a.singles(ws.op)...)
		}
	}
	return out
}

// singles returns the keys of an op that have one alternative.
func (a *atomicity) singles(op *atomicOp) []keyspace.Key {
	groups, _ := a.keys(op)
	var out []keyspace.Key
	for _, g := range groups {
		if k, ok := single(g); ok {
			out = append(out, k)
		}
	}
	return out
}

// show is how messages name a command call: its command and first key.
func (a *atomicity) show(op *atomicOp) string {
	groups, _ := a.keys(op)
	if len(groups) == 0 || len(groups[0]) == 0 {
		return op.name
	}
	return op.name + " " + groups[0][0].key.Quote()
}

// showWatch is how messages name a Watch call: Watch on its keys.
func (a *atomicity) showWatch(w *watchTx) string {
	groups, _ := a.c.selectKeys(a.e, w.call, w.m.Keys)
	var keys []string
	for _, g := range groups {
		if len(g) > 0 {
			keys = append(keys, g[0].key.Quote())
		}
	}
	switch {
	case len(keys) == 0:
		return "Watch"
	case len(keys) > 3:
		keys = append(keys[:3], "...")
	}
	return "Watch on " + strings.Join(keys, ", ")
}

// line is a position's line, for messages about another call nearby.
func (a *atomicity) line(pos token.Pos) int {
	return a.c.pass.Fset.Position(pos).Line
}

func (a *atomicity) report(pos, end token.Pos, category, format string, args ...any) {
	a.s.diags = append(a.s.diags, diag{pos: pos, end: end, category: category, message: fmt.Sprintf(format, args...)})
}

// checkWritesInWatch reports writes inside a Watch function that are not
// queued in its MULTI/EXEC: tx-write-outside-multi. A write on another
// client is reported when it is of a key of the transaction: one it
// watches, reads or writes.
func (a *atomicity) checkWritesInWatch() {
	watchedOf := map[*watchTx][]keyspace.Key{}
	keysOf := map[*watchTx][]keyspace.Key{}
	for _, ws := range a.writes {
		w := ws.region
		if w == nil {
			continue
		}
		h := ws.op.handle
		if h != nil && h.watch == w && h.kind == handleMulti {
			continue
		}
		if _, ok := watchedOf[w]; !ok {
			watchedOf[w], _ = a.watched(w)
		}
		txKeys := func() []keyspace.Key {
			if _, ok := keysOf[w]; !ok {
				keysOf[w] = a.txKeys(w)
			}
			return keysOf[w]
		}
		fails := ""
		if a.keyIn(ws.op, watchedOf[w]) {
			fails = "; it changes a watched key, so EXEC always fails"
		}
		call := ws.op.call
		what := a.show(ws.op)
		const fix = "it is not undone when EXEC fails, and each retry writes again%s; queue it in tx.TxPipelined"
		switch {
		case h != nil && h.watch == w && h.kind == handleTx:
			a.report(call.Pos(), call.End(), "tx-write-outside-multi",
				"%s runs at once on the *redis.Tx of %s, outside MULTI/EXEC: "+fix,
				what, a.showWatch(w), fails)
		case h != nil && h.watch == w:
			a.report(call.Pos(), call.End(), "tx-write-outside-multi",
				"%s is sent in a plain pipeline inside the function of %s, outside MULTI/EXEC: "+fix,
				what, a.showWatch(w), fails)
		case fails != "" || a.keyIn(ws.op, txKeys()):
			a.report(call.Pos(), call.End(), "tx-write-outside-multi",
				"%s is sent on %s inside the function of %s, outside its MULTI/EXEC: "+fix,
				what, a.receiver(call), a.showWatch(w), fails)
		}
	}
}

// receiver shows the value a method is called on.
func (a *atomicity) receiver(call *ast.CallExpr) string {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return a.c.exprName(sel.X)
	}
	return "another connection"
}

// checkReadsForWatch reports the reads that decide what a Watch function
// writes and that WATCH does not protect: those made outside the function
// (read-outside-watch) and those of keys it does not watch
// (unwatched-decision-key).
func (a *atomicity) checkReadsForWatch() {
	type pair struct {
		read  int
		watch *watchTx
	}
	done := map[pair]bool{}
	watchedOf := map[*watchTx][]keyspace.Key{}
	complete := map[*watchTx]bool{}
	writtenOf := map[*watchTx][]keyspace.Key{}
	for _, ws := range a.writes {
		w := ws.region
		if w == nil {
			continue
		}
		if _, ok := watchedOf[w]; !ok {
			watchedOf[w], complete[w] = a.watched(w)
			writtenOf[w] = a.written(w)
		}
		for _, r := range union(ws.value, ws.guard) {
			rs := a.reads[r]
			p := pair{int(r), w}
			if done[p] {
				continue
			}
			inValue := slices.Contains(ws.value, r)
			if rs.region != w {
				// A stale read. Through a condition it matters when it is
				// of a key that the transaction watches or writes.
				if !inValue && !a.keyIn(rs.op, watchedOf[w]) && !a.keyIn(rs.op, writtenOf[w]) {
					continue
				}
				done[p] = true
				how := "its value is written by"
				if !inValue {
					how = "its value decides whether to write"
				}
				a.report(rs.op.call.Pos(), rs.op.call.End(), "read-outside-watch",
					"%s is read outside the function of %s, and %s %s at line %d: WATCH sees only changes made after it, so the value is stale and the update can be lost; read the key inside the function, on the *redis.Tx, so that each retry reads it again",
					a.show(rs.op), a.showWatch(w), how, a.show(ws.op), a.line(ws.op.call.Pos()))
				continue
			}
			if !complete[w] {
				continue
			}
			k, ok := a.unwatched(rs.op, watchedOf[w])
			if !ok {
				continue
			}
			done[p] = true
			how := "its value is written by"
			if !inValue {
				how = "its value decides whether to write"
			}
			key := k.Quote()
			a.report(rs.op.call.Pos(), rs.op.call.End(), "unwatched-decision-key",
				"%s is read inside the function of %s, and %s %s at line %d, but %s is not watched: a change to it before EXEC goes unnoticed; add it to the keys of Watch",
				a.show(rs.op), a.showWatch(w), how, a.show(ws.op), a.line(ws.op.call.Pos()), key)
		}
	}
}

// unwatched returns a key of a read that is provably none of the watched
// keys.
func (a *atomicity) unwatched(op *atomicOp, watched []keyspace.Key) (keyspace.Key, bool) {
	groups, open := a.keys(op)
	if open {
		return keyspace.Key{}, false
	}
next:
	for _, g := range groups {
		k, ok := single(g)
		if !ok || !a.fixed(k) {
			continue
		}
		for _, x := range watched {
			if k.Equal(x) {
				continue next
			}
		}
		return k, true
	}
	return keyspace.Key{}, false
}

// checkLostUpdates reports writes, outside any Watch function, of a value
// computed from a read of the same key: lost-update.
func (a *atomicity) checkLostUpdates() {
	for _, ws := range a.writes {
		if ws.region != nil {
			continue
		}
		for _, r := range ws.value {
			rs := a.reads[r]
			if rs.region != nil {
				continue
			}
			k, ok := a.sameKey(rs.op, ws.op)
			if !ok {
				continue
			}
			multi := ""
			if h := ws.op.handle; h != nil && h.kind == handleMulti {
				multi = " (MULTI/EXEC alone does not help: the read ran before it)"
			}
			a.report(ws.op.call.Pos(), ws.op.call.End(), "lost-update",
				"%s %s writes a value computed from %s at line %d, with no WATCH around them%s: two clients that both read before either writes lose an update; %s",
				ws.op.name, k.Quote(), a.show(rs.op), a.line(rs.op.call.Pos()), multi, atomicFix(ws.op.name))
			break
		}
	}
}

// atomicFix suggests how to make a read-modify-write of a command atomic.
func atomicFix(write string) string {
	const watch = "Watch with a bounded retry, or a Lua script"
	switch write {
	case "SET", "SETEX", "PSETEX", "SETNX":
		return "use an atomic command (INCRBY, DECRBY, INCRBYFLOAT, SET with GET), or " + watch
	case "HSET", "HMSET", "HSETNX":
		return "use HINCRBY or HINCRBYFLOAT, or " + watch
	case "ZADD":
		return "use ZINCRBY or ZADD with INCR, or " + watch
	}
	return "use " + watch
}

// isTxFailedErr reports whether x is go-redis's TxFailedErr.
func (a *atomicity) isTxFailedErr(x ast.Expr) bool {
	var id *ast.Ident
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return false
	}
	obj := a.info.ObjectOf(id)
	if obj == nil || obj.Name() != "TxFailedErr" || obj.Pkg() == nil {
		return false
	}
	switch obj.(type) {
	case *types.Const, *types.Var:
		return a.isClient(obj.Pkg())
	}
	return false
}

// isErrorType reports whether t is the error interface.
func isErrorType(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// constBool returns the value of a boolean constant expression.
func (a *atomicity) constBool(x ast.Expr) (bool, bool) {
	tv, ok := a.info.Types[x]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(tv.Value), true
}

// isClient reports whether pkg is a client library of the rules.
func (a *atomicity) isClient(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	for _, cl := range a.c.rules.Clients {
		if slices.Contains(cl.Packages, pkg.Path()) {
			return true
		}
	}
	return false
}
