package keyflow

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
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
// parameter is of a pipeline or transaction type, and whether it is of an
// interface of the client that such a type implements; -1 otherwise.
func (g *Engine) handleParam(s *Func, site *Site) (int, bool) {
	if s.Decl == nil || s.e == nil {
		return -1, false
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
		return -1, false
	}
	if h := site.Handle; h != nil {
		for h.From != nil {
			h = h.From
		}
		if h.Kind == HandleTx {
			return -1, false // the *redis.Tx of a Watch in this function
		}
		recv = receiver(h.Made.Site.Call)
	}
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return -1, false
	}
	v, ok := g.info.Uses[id].(*types.Var)
	if !ok {
		return -1, false
	}
	p, ok := s.e.params[v]
	if !ok || p == "$recv" {
		return -1, false
	}
	held, iface := g.mayHoldPipeline(v.Type())
	if !held {
		return -1, false
	}
	i, err := strconv.Atoi(strings.TrimPrefix(p, "$"))
	if err != nil {
		return -1, false
	}
	return i, iface
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
		if site.Tx != nil || len(site.Keys) == 0 && !site.Open {
			continue
		}
		i, iface := g.handleParam(s, site)
		if i < 0 {
			continue
		}
		// A helper typed to take a client interface is mostly handed the
		// client: what it sends reaches the transactions of the callers
		// of the package, and stays out of its facts.
		w := WrappedCall{Command: site.Name, Where: g.where(site.Call.Pos()), Pos: site.Call.Pos(), On: i + 1, Open: site.Open, local: iface}
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
// variable holding a *redis.Tx or a pipeline.
func (g *Engine) handleOfExpr(s *Func, x ast.Expr) *Handle {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := g.info.ObjectOf(id).(*types.Var)
	return s.Handles[v]
}
