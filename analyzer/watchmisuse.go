package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/ruleset"
)

// Two WATCH mistakes leave a transaction with no protection at all,
// whatever it reads and writes:
//
//	watch-in-multi      a WATCH sent on the pipeliner of TxPipelined or on
//	                    a TxPipeline is queued inside MULTI, where Redis
//	                    refuses it: "ERR WATCH inside MULTI is not allowed"
//	pooled-transaction  a raw WATCH, MULTI or EXEC sent with Do on a pooled
//	                    client: each Do may take another connection from
//	                    the pool, so the WATCH protects nothing and a
//	                    connection goes back to the pool inside MULTI
//
// Both read the transaction model of package keyflow: the handle each
// command is sent on, and the receiver of each raw command.
//
// A lost update in a sequence reported as pooled-transaction is the same
// mistake, and is not reported again: a write of a value computed from a
// read of the same key, both sent with Do on that client after its raw
// WATCH, would be a check-and-set on one connection. Fixing the
// transaction as the finding says (Watch, or a Conn) fixes the update.
// With pooled-transaction turned off, the lost update is reported.

// watchMisuse runs the checks over a function's model, and returns the
// findings of the other checks, found, with theirs: the lost updates that
// a pooled-transaction finding covers are left out.
func (c *checker) watchMisuse(s *keyflow.Func, found []diag) []diag {
	var out []diag
	for _, site := range s.Sites {
		if d, ok := c.watchInMulti(site); ok {
			out = append(out, d)
		} else if d, ok := c.watchAfterMulti(s, site); ok {
			out = append(out, d)
		}
	}
	seqs := c.pooledSequences(s)
	for _, q := range seqs {
		out = append(out, c.pooledDiag(q))
	}
	if len(seqs) == 0 || c.report.off(checks.PooledTransaction) {
		return append(found, out...)
	}
	kept := found[:0:0]
	for _, d := range found {
		if d.category == checks.LostUpdate && coveredLostUpdate(s, seqs, d) {
			continue
		}
		kept = append(kept, d)
	}
	return append(kept, out...)
}

// watchInMulti reports a WATCH sent on a handle whose commands are queued
// in MULTI/EXEC: the pipeliner of TxPipelined, or a TxPipeline. Any method
// whose rule sends WATCH counts (go-redis's Do(ctx, "WATCH", ...), a
// client's Watch(ctx, keys...) command); a Watch(ctx, fn, keys...) opens a
// transaction of its own and is not one.
//
// A helper handed the pipeliner that sends WATCH on it is reported where
// it is called with the pipeliner of a transaction.
func (c *checker) watchInMulti(site *keyflow.Site) (diag, bool) {
	if site.Through && !site.Queued || !site.Through && (site.Method == nil || site.Method.Kind == ruleset.KindWatch) ||
		site.Command != "WATCH" || site.Handle == nil || site.Handle.Kind != keyflow.HandleMulti {
		return diag{}, false
	}
	h := site.Handle
	made := "a MULTI/EXEC transaction"
	if tx := h.Made; tx != nil && tx.Site != nil && tx.Site.Callee != nil {
		made = fmt.Sprintf("the %s at line %d", tx.Site.Callee.Name(), c.pass.Fset.Position(tx.Site.Call.Pos()).Line)
	}
	fix := "watch the keys before MULTI: use Watch(ctx, fn, keys...) and queue the writes with TxPipelined inside fn"
	if h.Watch != nil {
		fix = "watch the keys before MULTI: give them to Watch(ctx, fn, keys...), or call tx.Watch(ctx, keys...) in fn before TxPipelined"
	}
	return diag{
		pos: site.Call.Pos(), end: site.Call.End(), category: checks.WatchInMulti,
		message: fmt.Sprintf(`%s%s is queued inside the MULTI/EXEC of %s: Redis answers "ERR WATCH inside MULTI is not allowed" and watches nothing; %s`,
			showSite(site), strings.TrimPrefix(site.Name, site.Command), made, fix),
	}, true
}

// watchAfterMulti reports a WATCH sent one command at a time on a
// connection after its MULTI (redigo's c.Send("MULTI") then
// c.Send("WATCH", k), rueidis's DoMulti with Multi before Watch): Redis
// refuses it as it refuses a WATCH queued in TxPipelined. On a pooled
// client the sequence is a pooled-transaction finding instead.
func (c *checker) watchAfterMulti(s *keyflow.Func, site *keyflow.Site) (diag, bool) {
	if site.Through || site.Method == nil || site.Command != "WATCH" || site.Handle != nil ||
		site.Method.Kind != ruleset.KindRaw && site.Method.Kind != ruleset.KindSend || c.pooledCall(site.Call) {
		return diag{}, false
	}
	if _, inMulti := s.RawWatch(site); !inMulti {
		return diag{}, false
	}
	multi := 0
	for _, x := range s.Sites {
		if x.Command == "MULTI" && x.Tx != nil && x.Call.Pos() < site.Call.Pos() {
			multi = c.pass.Fset.Position(x.Call.Pos()).Line
		}
	}
	return diag{
		pos: site.Call.Pos(), end: site.Call.End(), category: checks.WatchInMulti,
		message: fmt.Sprintf(`%s is sent on the connection after its MULTI at line %d: Redis answers "ERR WATCH inside MULTI is not allowed" and watches nothing; send WATCH before MULTI`,
			showSite(site), multi),
	}, true
}

// A pooledSeq is the raw WATCH, MULTI, DISCARD and EXEC commands sent
// with Do on one pooled client, from the first to the EXEC that ends them.
type pooledSeq struct {
	recv  ast.Expr // the client, as the first call names it
	name  string   // its text
	typ   types.Type
	sites []*keyflow.Site
	end   token.Pos // the end of the EXEC; NoPos for none
}

// txControl are the commands that make a transaction on one connection.
var txControl = map[string]bool{"WATCH": true, "MULTI": true, "EXEC": true, "DISCARD": true}

// pooledSequences finds the raw WATCH, MULTI, EXEC and DISCARD commands
// sent with Do on pooled clients, in the order of the function's text,
// one sequence a client from its first such command to its EXEC. A
// DISCARD in a sequence, often on an error path before the EXEC, does not
// end it; one that starts nothing is left alone.
func (c *checker) pooledSequences(s *keyflow.Func) []*pooledSeq {
	var seqs []*pooledSeq
	open := map[string]*pooledSeq{}
	for _, site := range s.Sites {
		if site.Through || site.Method == nil || site.Method.Kind != ruleset.KindRaw || !txControl[site.Command] {
			continue
		}
		x := callReceiver(site.Call)
		if x == nil {
			continue
		}
		t := c.pass.TypesInfo.TypeOf(x)
		if !c.pooled(t) {
			continue
		}
		name := types.ExprString(x)
		q := open[name]
		if q == nil {
			if site.Command == "DISCARD" {
				continue
			}
			q = &pooledSeq{recv: x, name: name, typ: t}
			seqs = append(seqs, q)
			open[name] = q
		}
		q.sites = append(q.sites, site)
		if site.Command == "EXEC" {
			q.end = site.Call.End()
			delete(open, name)
		}
	}
	return seqs
}

// pooled reports whether t is a pooled client: a type that the rules'
// types: name a client or a cluster client and that has the rules' watch
// method, Watch(ctx, fn, keys...), which takes a connection from the pool
// for the transaction. go-redis's *redis.Client, *redis.ClusterClient,
// *redis.Ring and redis.UniversalClient are; a *redis.Conn, which holds
// one connection, has no such method, and a *redis.Tx or a pipeline has
// another role.
func (c *checker) pooled(t types.Type) bool {
	if t == nil {
		return false
	}
	if role := c.flow.TypeRole(t); role != ruleset.RoleClient && role != ruleset.RoleCluster {
		return false
	}
	return c.method(t, func(m *ruleset.Method) bool { return m.Kind == ruleset.KindWatch }) != nil
}

// pooledCall reports whether a method call is made on a pooled client. A
// raw WATCH sent on one is no check-and-set: the read and the write that
// follow it may run on other connections (see checkLostUpdates).
func (c *checker) pooledCall(call *ast.CallExpr) bool {
	x := callReceiver(call)
	return x != nil && c.pooled(c.pass.TypesInfo.TypeOf(x))
}

// method returns the method of t whose rule satisfies ok, or nil.
func (c *checker) method(t types.Type, ok func(*ruleset.Method) bool) *types.Func {
	mt := t
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		mt = types.NewPointer(t)
	}
	ms := types.NewMethodSet(mt)
	for i := range ms.Len() {
		fn, isFn := ms.At(i).Obj().(*types.Func)
		if !isFn || fn.Pkg() == nil {
			continue
		}
		recv := ""
		if r := fn.Signature().Recv(); r != nil {
			if n := namedType(r.Type()); n != nil {
				recv = n.Obj().Name()
			}
		}
		if m := c.rules.Method(fn.Pkg().Path(), recv, fn.Name()); m != nil && ok(m) {
			return fn
		}
	}
	return nil
}

// pooledDiag reports a sequence at its first command, naming the others.
func (c *checker) pooledDiag(q *pooledSeq) diag {
	first := q.sites[0]
	var rest []string
	hasWatch, hasMulti := false, false
	for i, site := range q.sites {
		hasWatch = hasWatch || site.Command == "WATCH"
		hasMulti = hasMulti || site.Command == "MULTI"
		if i > 0 {
			rest = append(rest, fmt.Sprintf("%s at line %d", site.Command, c.pass.Fset.Position(site.Call.Pos()).Line))
		}
	}
	what := first.Command
	if first.Command == "WATCH" {
		what = showSite(first)
	}
	if len(rest) > 0 {
		what += ", then " + strings.Join(rest, ", ")
	}
	var effect string
	switch {
	case hasWatch && hasMulti:
		effect = "so the WATCH protects nothing, and a connection goes back to the pool inside MULTI"
	case hasWatch:
		effect = "so the WATCH protects nothing"
	case hasMulti:
		effect = "so a connection goes back to the pool inside MULTI, and the commands meant for the transaction may run outside it"
	default:
		effect = "so EXEC may run on another connection than its MULTI"
	}
	name := keyflow.ExprName(q.recv)
	fix := fmt.Sprintf("queue the commands with %s.TxPipelined(ctx, fn)", name)
	if hasWatch {
		fix = fmt.Sprintf("use %s.Watch(ctx, fn, keys...) with TxPipelined inside fn", name)
	}
	if conn := c.connMethod(q.typ); conn != nil {
		args := ""
		if conn.Signature().Params().Len() > 0 {
			args = "ctx"
		}
		fix += fmt.Sprintf(", or hold one connection with %s.%s(%s)", name, conn.Name(), args)
	}
	return diag{
		pos: first.Call.Pos(), end: first.Call.End(), category: checks.PooledTransaction,
		message: fmt.Sprintf("%s sent with Do on %s, a pooled %s: each Do may take another connection from the pool, %s; %s",
			what, name, typeName(q.typ), effect, fix),
	}
}

// connMethod returns the method of a pooled client that hands out one of
// its connections, a client of the rules that is not pooled (go-redis's
// Client.Conn), or nil.
func (c *checker) connMethod(t types.Type) *types.Func {
	mt := t
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		mt = types.NewPointer(t)
	}
	ms := types.NewMethodSet(mt)
	for i := range ms.Len() {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		res := fn.Signature().Results()
		if res.Len() != 1 {
			continue
		}
		rt := res.At(0).Type()
		if c.flow.TypeRole(rt) == ruleset.RoleClient && !c.pooled(rt) {
			return fn
		}
	}
	return nil
}

// coveredLostUpdate reports whether a lost-update finding is a
// check-and-set sent with Do on a pooled client: its write and the read it
// names follow the raw WATCH of a pooled-transaction sequence on the same
// client, before its EXEC.
func coveredLostUpdate(s *keyflow.Func, seqs []*pooledSeq, d diag) bool {
	var write *keyflow.Site
	for _, site := range s.Sites {
		if !site.Through && site.Call.Pos() == d.pos && site.Call.End() == d.end {
			write = site
			break
		}
	}
	if write == nil || write.Method == nil || write.Method.Kind != ruleset.KindRaw {
		return false
	}
	wx := callReceiver(write.Call)
	if wx == nil {
		return false
	}
	for _, q := range seqs {
		if q.name != types.ExprString(wx) {
			continue
		}
		i := slices.IndexFunc(q.sites, func(x *keyflow.Site) bool { return x.Command == "WATCH" })
		if i < 0 {
			continue
		}
		watch := q.sites[i].Call.Pos()
		if d.pos < watch || q.end != token.NoPos && d.pos > q.end {
			continue
		}
		for _, r := range s.Sites {
			p := r.Call.Pos()
			if r.Through || !r.Read || p < watch || p > d.pos || r.Method == nil || r.Method.Kind != ruleset.KindRaw {
				continue
			}
			if rx := callReceiver(r.Call); rx != nil && types.ExprString(rx) == q.name && shareKey(r, write) {
				return true
			}
		}
	}
	return false
}

// shareKey reports whether two sites have a key in common, each a key with
// one possible value.
func shareKey(a, b *keyflow.Site) bool {
	for _, x := range a.Keys {
		kx, ok := single(x)
		if !ok {
			continue
		}
		for _, y := range b.Keys {
			if ky, ok := single(y); ok && kx.Equal(ky) {
				return true
			}
		}
	}
	return false
}

// showSite is how the messages name a command: its command and first key.
func showSite(site *keyflow.Site) string {
	if len(site.Keys) == 0 || len(site.Keys[0]) == 0 {
		return site.Command
	}
	return site.Command + " " + site.Keys[0][0].Key.Quote()
}

// callReceiver returns the value a method is called on, or nil.
func callReceiver(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// namedType returns the named type of t or of what t points to.
func namedType(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

// typeName shows a type with its package's name: *redis.Client.
func typeName(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}
