package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/types/typeutil"
)

// Real code queues a transaction's commands in helpers handed its
// pipeline or its *redis.Tx:
//
//	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
//		addEvent(ctx, p, id)
//		enqueue(ctx, p, id)
//		return nil
//	})
//
// A command that a function sends on a parameter of a pipeline or
// transaction type of the rules, directly or through a TxPipelined or
// TxPipeline made on it, belongs to the transaction of whatever its caller
// passes there. The function carries it to its callers (a WrappedCall with
// On, in its KeyWrapper fact for other packages), with all its keys, and
// each caller adds it to the transaction of the handle it passes.

// handleParam returns the index of the parameter of s that a site's
// command is sent on, directly or through a pipeline made on it, when the
// parameter is of a pipeline or transaction type, or is a struct whose
// field of such a type (field) holds it, and whether that type is an
// interface of the client that such a type implements; recvParam for a
// field of the receiver that holds it (a wrapper's p.pipe, whose methods
// send on the pipeline it wraps); -1 otherwise. conn is true for a
// connection parameter that a command is sent on by a raw or send method
// (sentOnConn).
func (g *Engine) handleParam(s *Func, site *Site) (i int, field string, viaIface, conn bool) {
	if s.Decl == nil || s.e == nil {
		return -1, "", false, false
	}
	recv := site.onArg
	if recv == nil {
		recv = receiver(site.Call)
		if site.Method != nil && site.Method.Script == ruleset.ReceiverParam {
			// script.Run(ctx, pipe, keys, ...): the script is the
			// receiver, the client an argument.
			recv = g.pipelineArg(s, site.Call)
		}
	}
	if recv == nil {
		return -1, "", false, false
	}
	if h := site.Handle; h != nil {
		for h.From != nil {
			h = h.From
		}
		if h.Kind == HandleTx {
			return -1, "", false, false // the *redis.Tx of a Watch in this function
		}
		recv = receiver(h.Made.Site.Call)
	}
	field = site.onField
	if sel, ok := ast.Unparen(recv).(*ast.SelectorExpr); ok && field == "" {
		// opts.tx: a field of a parameter.
		if sn := g.info.Selections[sel]; sn != nil && sn.Kind() == types.FieldVal {
			recv, field = sel.X, sel.Sel.Name
		}
	}
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return -1, "", false, false
	}
	v, ok := g.info.Uses[id].(*types.Var)
	if !ok {
		return -1, "", false, false
	}
	p, ok := s.e.params[v]
	if !ok || p == "$recv" && field == "" {
		return -1, "", false, false
	}
	t := v.Type()
	if field != "" {
		f, _, _ := types.LookupFieldOrMethod(t, true, g.pkg, field)
		fv, ok := f.(*types.Var)
		if !ok {
			return -1, "", false, false
		}
		t = fv.Type()
	}
	held, iface := g.mayHoldPipeline(t)
	if !held && (field != "" || !g.sentOnConn(site) || g.TypeRole(t) == "" || controlsTx(s)) {
		return -1, "", false, false
	}
	if p == "$recv" {
		if !held || iface {
			return -1, "", false, false
		}
		return recvParam, field, false, false
	}
	i, err := strconv.Atoi(strings.TrimPrefix(p, "$"))
	if err != nil {
		return -1, "", false, false
	}
	return i, field, iface, !held
}

// recvParam is handleParam's index of the receiver.
const recvParam = -2

// controlsTx reports whether a function sends MULTI, EXEC or DISCARD
// itself, one command at a time: what it sends on a connection is its own
// transaction's, or sent after it, not the caller's.
func controlsTx(s *Func) bool {
	for _, site := range s.Sites {
		switch strings.ToUpper(site.Command) {
		case "MULTI", "EXEC", "DISCARD":
			if site.Method != nil && (site.Method.Kind == ruleset.KindRaw || site.Method.Kind == ruleset.KindSend) {
				return true
			}
		}
	}
	return false
}

// sentOnConn reports whether a site is a command, not MULTI, EXEC or a
// WATCH, that is sent one at a time on a connection, by a raw or send
// method (redigo's conn.Send("HMSET", ...)), here or in a function the
// site calls: a helper handed the connection queues it in the MULTI its
// caller has open there (izumin5210/ro's Put, whose set helper sends
// each model's commands).
func (g *Engine) sentOnConn(site *Site) bool {
	switch strings.ToUpper(site.Command) {
	case "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH":
		return false
	}
	if site.Through {
		return site.onConn
	}
	return site.Method != nil && (site.Method.Kind == ruleset.KindRaw || site.Method.Kind == ruleset.KindSend)
}

// pipelineArg returns the argument of a call that is a parameter of s
// that may hold a pipeline or a transaction, or nil.
func (g *Engine) pipelineArg(s *Func, call *ast.CallExpr) ast.Expr {
	for _, arg := range call.Args {
		id, ok := ast.Unparen(arg).(*ast.Ident)
		if !ok {
			continue
		}
		if v, ok := g.info.Uses[id].(*types.Var); ok {
			if _, isParam := s.e.params[v]; isParam {
				if held, _ := g.mayHoldPipeline(v.Type()); held {
					return arg
				}
			}
		}
	}
	return nil
}

// mayHoldPipeline reports whether a parameter of type t may be handed a
// pipeline or a transaction: t is one of the rules' pipeline or
// transaction types, or an interface of a client package that one of them
// implements (go-redis's redis.Cmdable, which a helper is typed to take
// both the client and a TxPipeline, as rsmq-go's enqueueMessage is); the
// second result is true in that case.
func (g *Engine) mayHoldPipeline(t types.Type) (held, viaIface bool) {
	switch g.TypeRole(t) {
	case ruleset.RolePipeline, ruleset.RoleTx:
		return true, false
	case "":
		return false, false
	}
	n := namedOf(t)
	iface, ok := n.Underlying().(*types.Interface)
	if !ok {
		return false, false
	}
	c := g.rules.ClientOf(n.Obj().Pkg().Path())
	scope := n.Obj().Pkg().Scope()
	for name, role := range c.Types {
		if role != ruleset.RolePipeline && role != ruleset.RoleTx {
			continue
		}
		obj, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if types.Implements(obj.Type(), iface) || types.Implements(types.NewPointer(obj.Type()), iface) {
			return true, true
		}
	}
	return false, false
}

// carryQueued carries to the callers of s the commands it sends on a
// pipeline or transaction parameter.
func (g *Engine) carryQueued(s *Func) {
	for _, site := range s.Sites {
		if site.Tx != nil || len(site.Keys) == 0 && !site.Open && !isExec(site) {
			continue
		}
		i, field, iface, conn := g.handleParam(s, site)
		if i < 0 && i != recvParam {
			continue
		}
		// A helper typed to take a client interface is mostly handed the
		// client: what it sends reaches the transactions of the callers
		// of the package, and stays out of its facts.
		w := WrappedCall{Command: site.Name, Where: g.where(site.Call.Pos()), Pos: site.Call.Pos(), OnField: field, Open: site.Open, Exec: isExec(site), local: iface}
		if i == recvParam {
			w.OnRecv = true
		} else {
			w.On = i + 1
		}
		w.Conn = conn
		for _, grp := range site.Keys {
			var alts []keyspace.Key
			for _, v := range grp {
				alts = append(alts, v.Key)
			}
			w.Groups = append(w.Groups, alts)
		}
		s.Carried = append(s.Carried, w)
	}
}

// handleOfExpr returns the handle that an expression of s holds: a
// variable holding a *redis.Tx or a pipeline, or the call that makes a
// pipeline.
func (g *Engine) handleOfExpr(s *Func, x ast.Expr) *Handle {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, _ := g.info.ObjectOf(x).(*types.Var)
		return s.Handles[v]
	case *ast.CallExpr:
		return s.inline[x]
	}
	return nil
}

// handleOfField returns the handle that field of a struct value of s
// holds, when the struct is a composite literal, or a variable set once to
// one: bidFloorOpts{tx: tx}. With no field, it is handleOfExpr's.
func (g *Engine) handleOfField(s *Func, x ast.Expr, field string) *Handle {
	if field == "" {
		return g.handleOfExpr(s, x)
	}
	if h := g.handleOfExpr(s, x); h != nil {
		// A wrapper that a function of the package made around the
		// pipeline it made (tx := q.client.TxPipeline(), a Pipeliner of
		// the package's own): the wrapper stands for the pipeline.
		return h
	}
	x = ast.Unparen(x)
	if id, ok := x.(*ast.Ident); ok && s.e != nil {
		if rhs := s.e.setOnce(id); rhs != nil {
			x = ast.Unparen(rhs)
		}
	}
	if call, ok := x.(*ast.CallExpr); ok {
		// newPipe(rdb.TxPipeline(), ctx), whose one return statement
		// puts its parameter in the field.
		if i, ok := g.wrappedParam(call, field); ok {
			return g.handleOfExpr(s, call.Args[i])
		}
		return nil
	}
	lit := fieldsLit(x)
	if lit == nil {
		return nil
	}
	if v := litField(lit, field); v != nil {
		return g.handleOfExpr(s, v)
	}
	return nil
}

// fieldsLit returns the composite literal that x is, or takes the address
// of.
func fieldsLit(x ast.Expr) *ast.CompositeLit {
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	lit, _ := x.(*ast.CompositeLit)
	return lit
}

// litField returns the value that a composite literal gives a field by
// name, or nil.
func litField(lit *ast.CompositeLit, field string) ast.Expr {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == field {
				return kv.Value
			}
		}
	}
	return nil
}

// wrappedParam reports which parameter of the package's function that
// call calls goes into field of the struct the function returns, when its
// body is one return of a literal of that struct (return &pipe{pipe: p,
// ctx: ctx}).
func (g *Engine) wrappedParam(call *ast.CallExpr, field string) (int, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil {
		return 0, false
	}
	lit := fieldsLit(oneReturn(g.decls[fn.Origin()]))
	if lit == nil {
		return 0, false
	}
	i := paramOf(g.info, fn, litField(lit, field))
	return i, i >= 0 && i < len(call.Args)
}

// paramOf returns the index of the parameter of fn that x names, or
// -1.
func paramOf(info *types.Info, fn *types.Func, x ast.Expr) int {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return -1
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if info.Uses[id] == params.At(i) {
			return i
		}
	}
	return -1
}
