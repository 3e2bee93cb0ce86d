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
// parameter is of a pipeline or transaction type; -1 otherwise.
func (g *Engine) handleParam(s *Func, site *Site) int {
	if s.Decl == nil || s.e == nil {
		return -1
	}
	recv := site.onArg
	if recv == nil {
		recv = receiver(site.Call)
	}
	if h := site.Handle; h != nil {
		for h.From != nil {
			h = h.From
		}
		if h.Kind == HandleTx {
			return -1 // the *redis.Tx of a Watch in this function
		}
		recv = receiver(h.Made.Site.Call)
	}
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return -1
	}
	v, ok := g.info.Uses[id].(*types.Var)
	if !ok {
		return -1
	}
	p, ok := s.e.params[v]
	if !ok || p == "$recv" {
		return -1
	}
	if role := g.TypeRole(v.Type()); role != ruleset.RolePipeline && role != ruleset.RoleTx {
		return -1
	}
	i, err := strconv.Atoi(strings.TrimPrefix(p, "$"))
	if err != nil {
		return -1
	}
	return i
}

// carryQueued carries to the callers of s the commands it sends on a
// pipeline or transaction parameter.
func (g *Engine) carryQueued(s *Func) {
	for _, site := range s.Sites {
		if site.Tx != nil || len(site.Keys) == 0 && !site.Open {
			continue
		}
		i := g.handleParam(s, site)
		if i < 0 {
			continue
		}
		w := WrappedCall{Command: site.Name, Where: g.where(site.Call.Pos()), Pos: site.Call.Pos(), On: i + 1, Open: site.Open}
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
