package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/keyflow"
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
	site  *keyflow.Site
	name  string // the command, upper case: "GET"
	read  bool   // the command is read-only: its result is the keys' data
	write bool   // the command may modify its keys
	// keyArgs are the arguments that are keys, not values written.
	keyArgs map[int]bool
	// handle is the transaction or pipeline the call is made on; nil for
	// a client.
	handle *keyflow.Handle
}

// A watchTx is one call of Watch(ctx, fn, keys...).
type watchTx struct {
	call *ast.CallExpr
	m    *ruleset.Method
	tx   *keyflow.Tx
	lit  *ast.FuncLit // fn, when it is a function literal in sight
	// loop is the innermost loop around the call, in the same function;
	// label is its label, if any.
	loop  ast.Stmt
	label string
	// txWatch are the calls of tx.Watch(ctx, keys...) in fn, which watch
	// more keys.
	txWatch []*atomicOp
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
	s    *keyflow.Func
	info *types.Info

	ops      map[*ast.CallExpr]*atomicOp
	watches  []*watchTx
	byCall   map[*ast.CallExpr]*watchTx
	byLit    map[*ast.FuncLit]*watchTx
	assigned map[*ast.CallExpr]*types.Var // v := call, v = call, var v = call
	diags    []diag

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

// atomicity runs the atomicity checks over a function declaration. They
// read the function's transaction model from the key-flow engine: its
// commands, its Watch calls, and the handle each command is sent on.
func (c *checker) atomicity(s *keyflow.Func) []diag {
	a := c.atomicWalk(s)
	if a == nil {
		return nil
	}
	a.checkWritesInWatch()
	a.checkReadsForWatch()
	a.checkLostUpdates()
	for _, w := range a.watches {
		if w.loop != nil {
			a.checkRetry(w)
		}
	}
	return a.diags
}

// atomicWalk finds the commands and Watch calls of a function in its model
// and walks its statements once (atomic_flow.go), recording each read, and
// each write with the reads that its values and its guard depend on. It
// returns nil when there is nothing to check: no Watch, and no read.
func (c *checker) atomicWalk(s *keyflow.Func) *atomicity {
	if s.Decl == nil || s.Decl.Body == nil {
		return nil
	}
	a := &atomicity{
		c:        c,
		s:        s,
		info:     c.pass.TypesInfo,
		ops:      map[*ast.CallExpr]*atomicOp{},
		byCall:   map[*ast.CallExpr]*watchTx{},
		byLit:    map[*ast.FuncLit]*watchTx{},
		assigned: s.Assigned,
		labels:   map[ast.Stmt]string{},
		walked:   map[*ast.FuncLit]bool{},
	}
	if !a.collect() {
		return nil
	}
	f := &atomicFlow{vars: &varState{}}
	a.stmts(s.Decl.Body.List, f)
	return a
}

// collect finds the commands and Watch calls of the function in its model.
// It reports whether there is anything to check: a Watch, or a read.
func (a *atomicity) collect() bool {
	anyRead := false
	byTx := map[*keyflow.Tx]*watchTx{}
	for _, site := range a.s.Sites {
		if site.Method == nil || site.Through {
			continue
		}
		switch site.Method.Kind {
		case ruleset.KindCommand, ruleset.KindRaw:
			if op := newOp(site); op != nil {
				a.ops[site.Call] = op
				anyRead = anyRead || op.read
			}
		case ruleset.KindWatch:
			w := &watchTx{call: site.Call, m: site.Method, tx: site.Tx, lit: site.Tx.Lit}
			a.watches = append(a.watches, w)
			a.byCall[site.Call] = w
			byTx[site.Tx] = w
			if w.lit != nil {
				a.byLit[w.lit] = w
			}
		}
	}
	if len(a.watches) == 0 && !anyRead {
		return false
	}
	// tx.Watch(ctx, keys...) in a Watch function watches more keys.
	for _, site := range a.s.Sites {
		if op := a.ops[site.Call]; op != nil && op.name == "WATCH" && op.handle != nil && op.handle.Kind == keyflow.HandleTx {
			if w := byTx[op.handle.Watch]; w != nil {
				w.txWatch = append(w.txWatch, op)
			}
		}
	}
	return true
}

// newOp describes a command call, or returns nil for a command that
// neither reads nor writes keys (UNWATCH, PING, ...). WATCH is kept, to
// find the keys that tx.Watch adds.
func newOp(site *keyflow.Site) *atomicOp {
	if site.KeyArgs == nil {
		return nil
	}
	op := &atomicOp{call: site.Call, site: site, name: site.Command, read: site.Read, write: site.Write, keyArgs: site.KeyArgs, handle: site.Handle}
	if op.name == "WATCH" {
		return op
	}
	if !op.read && !op.write {
		return nil
	}
	return op
}

// inWatch reports whether a handle belongs to the transaction of w.
func inWatch(h *keyflow.Handle, w *watchTx) bool {
	return h != nil && h.Watch != nil && h.Watch == w.tx
}

// keys returns the keys of an op's command, each a group of alternatives;
// open is true when some keys are not seen.
func (a *atomicity) keys(op *atomicOp) ([]keyflow.Group, bool) {
	return op.site.Keys, op.site.Open
}

// watched returns the keys that a Watch watches, and whether they are all
// known, each as one key: those given to Watch and to tx.Watch in fn.
func (a *atomicity) watched(w *watchTx) ([]keyspace.Key, bool) {
	groups, open := slices.Clone(w.tx.Watched), w.tx.WatchedOpen
	for _, op := range w.txWatch {
		g, o := a.keys(op)
		groups = append(groups, g...)
		open = open || o
	}
	out := make([]keyspace.Key, 0, len(groups))
	complete := !open
	for _, g := range groups {
		// Each watched key known: one value, or fixed alternatives (a
		// configured prefix or its default), all of them in out.
		if len(g) == 0 || slices.ContainsFunc(g, func(v keyflow.Value) bool { return !a.fixed(v.Key) }) {
			complete = false
		}
		for _, k := range g {
			out = append(out, k.Key)
		}
	}
	return out, complete
}

// fixed reports whether a key is made of literal text and unknowns that
// have an identity and hold one value in the function, so that a key it is
// not Equal to is taken to be another key. A variable set in a loop, such
// as a range variable, holds many.
func (a *atomicity) fixed(k keyspace.Key) bool {
	if keyflow.PassedOn(k) {
		return false
	}
	for _, p := range k.Parts {
		if p.Unknown && p.ID == "" {
			return false
		}
	}
	return !a.s.LoopVarying(k)
}

// single returns the one key of a group with one alternative.
func single(g keyflow.Group) (keyspace.Key, bool) {
	if len(g) != 1 {
		return keyspace.Key{}, false
	}
	return g[0].Key, true
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
		if h := ws.op.handle; ws.region == w && inWatch(h, w) && h.Kind == keyflow.HandleMulti {
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
	return op.name + " " + groups[0][0].Key.Quote()
}

// showWatch is how messages name a Watch call: Watch on its keys.
func (a *atomicity) showWatch(w *watchTx) string {
	groups := w.tx.Watched
	var keys []string
	for _, g := range groups {
		if len(g) > 0 {
			keys = append(keys, g[0].Key.Quote())
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
	a.diags = append(a.diags, diag{pos: pos, end: end, category: category, message: fmt.Sprintf(format, args...)})
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
		if inWatch(h, w) && h.Kind == keyflow.HandleMulti {
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
		if !execs(w) {
			// No EXEC runs: nothing can fail, and WATCH guards nothing.
			const noExec = "the function queues no MULTI/EXEC: WATCH guards nothing and each retry writes again; queue it in tx.TxPipelined"
			switch {
			case inWatch(h, w) && h.Kind == keyflow.HandleTx:
				a.report(call.Pos(), call.End(), checks.TxWriteOutsideMulti,
					"%s runs at once on the *redis.Tx of %s, and "+noExec, what, a.showWatch(w))
			case inWatch(h, w):
				a.report(call.Pos(), call.End(), checks.TxWriteOutsideMulti,
					"%s is sent in a plain pipeline inside the function of %s, and "+noExec, what, a.showWatch(w))
			case a.keyIn(ws.op, watchedOf[w]) || a.keyIn(ws.op, txKeys()):
				a.report(call.Pos(), call.End(), checks.TxWriteOutsideMulti,
					"%s is sent on %s inside the function of %s, and "+noExec, what, a.receiver(call), a.showWatch(w))
			}
			continue
		}
		switch {
		case inWatch(h, w) && h.Kind == keyflow.HandleTx:
			a.report(call.Pos(), call.End(), checks.TxWriteOutsideMulti,
				"%s runs at once on the *redis.Tx of %s, outside MULTI/EXEC: "+fix,
				what, a.showWatch(w), fails)
		case inWatch(h, w):
			a.report(call.Pos(), call.End(), checks.TxWriteOutsideMulti,
				"%s is sent in a plain pipeline inside the function of %s, outside MULTI/EXEC: "+fix,
				what, a.showWatch(w), fails)
		case fails != "" || a.keyIn(ws.op, txKeys()):
			a.report(call.Pos(), call.End(), checks.TxWriteOutsideMulti,
				"%s is sent on %s inside the function of %s, outside its MULTI/EXEC: "+fix,
				what, a.receiver(call), a.showWatch(w), fails)
		}
	}
}

// receiver shows the value a method is called on.
func (a *atomicity) receiver(call *ast.CallExpr) string {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return keyflow.ExprName(sel.X)
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
				a.report(rs.op.call.Pos(), rs.op.call.End(), checks.ReadOutsideWatch,
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
			a.report(rs.op.call.Pos(), rs.op.call.End(), checks.UnwatchedDecisionKey,
				"%s is read inside the function of %s, and %s %s at line %d, but %s is not watched: a change to it before EXEC goes unnoticed; add it to the keys of Watch",
				a.show(rs.op), a.showWatch(w), how, a.show(ws.op), a.line(ws.op.call.Pos()), key)
		}
	}
}

// unwatched returns a key of a read that is provably none of the watched
// keys: a key whose every possible value (a configured prefix or its
// default) is fixed and none of them.
func (a *atomicity) unwatched(op *atomicOp, watched []keyspace.Key) (keyspace.Key, bool) {
	groups, open := a.keys(op)
	if open {
		return keyspace.Key{}, false
	}
	for _, g := range groups {
		if len(g) > 0 && !slices.ContainsFunc(g, func(v keyflow.Value) bool {
			return !a.fixed(v.Key) || slices.ContainsFunc(watched, v.Key.Equal)
		}) {
			return g[0].Key, true
		}
	}
	return keyspace.Key{}, false
}

// onWatchHandle reports whether a write is queued in a MULTI/EXEC opened
// on the handle of a WATCH transaction (go-redis's *redis.Tx) that the
// function is given: the function is a Watch function, passed by name
// (rdb.Watch(ctx, c.doDecr, c.key), anyufly/go_async_tasks) rather than
// as a literal in sight, and its keys are watched there.
func (a *atomicity) onWatchHandle(op *atomicOp) bool {
	h := op.handle
	if h == nil || h.Kind != keyflow.HandleMulti || h.Made == nil || h.From != nil {
		return false
	}
	sel, ok := ast.Unparen(h.Made.Site.Call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := a.info.Uses[id].(*types.Var)
	return ok && v.Parent() != nil && a.c.flow.TypeRole(v.Type()) == ruleset.RoleTx && isParamOf(v, a.s.Decl)
}

// isParamOf reports whether v is a parameter of decl.
func isParamOf(v *types.Var, decl *ast.FuncDecl) bool {
	if decl == nil {
		return false
	}
	for _, f := range decl.Type.Params.List {
		for _, n := range f.Names {
			if n.Pos() == v.Pos() {
				return true
			}
		}
	}
	return false
}

// checkLostUpdates reports writes, outside any Watch function, of a value
// computed from a read of the same key: lost-update.
func (a *atomicity) checkLostUpdates() {
	for _, ws := range a.writes {
		if ws.region != nil {
			continue
		}
		if !replaces(a.c.rules, ws.op.name) || safeWrite(a.c.rules, ws.op, a.info) {
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
			if w, _ := a.s.RawWatch(rs.op.site); w != nil && !a.c.pooledCall(w.Call) {
				if w2, inMulti := a.s.RawWatch(ws.op.site); w2 == w && inMulti {
					continue // WATCH, read, MULTI, write, EXEC on one connection
				}
			}
			if a.onWatchHandle(ws.op) {
				continue // queued on a Watch function's handle, out of sight
			}
			multi := ""
			if h := ws.op.handle; h != nil && h.Kind == keyflow.HandleMulti {
				multi = " (MULTI/EXEC alone does not help: the read ran before it)"
			}
			a.report(ws.op.call.Pos(), ws.op.call.End(), checks.LostUpdate,
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
	id := keyflow.IdentOf(x)
	if id == nil {
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
	return a.c.flow.IsClientPackage(pkg)
}
