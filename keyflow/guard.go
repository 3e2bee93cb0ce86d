package keyflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/slotlint/slotlint/ruleset"
)

// Code that may run on a Redis Cluster or on one server often asks which it
// is, and sends a multi-key command only on one server, where there are no
// slots:
//
//	if len(keys) > 1 && c.rds.Type == redis.ClusterType {
//		for _, k := range keys { c.rds.Del(ctx, k) }
//	} else {
//		c.rds.Del(ctx, keys...)
//	}
//
// (go-zero's cacheNode.DelCtx). A call that runs only where such a test has
// said "not a cluster" needs no common slot: its keys are not checked, nor
// carried to the callers. The test is recognized by name, as code writes
// it: a boolean whose name holds "cluster" (isCluster, c.IsCluster()) or
// "standalone", or a comparison with a constant that names the cluster
// (Type == redis.ClusterType, mode == "cluster"), negated or not; and, in
// the else branch of a conjunction, len(keys) > 1 of the key list the call
// passes on (on a cluster that branch sends one key at most). The call is
// in the branch the test chooses, or after an if on the test whose body
// returns. A case of a type switch that names only clients of one node
// is such a branch too: the rules' client types (rueidis's MDel switches
// on its *singleClient, *standalone and *sentinelClient, which its rules
// list), or a project's types named single, standalone or sentinel. A
// key that a function returns only there is not a key on a cluster: the
// function's summary leaves it out (clusterReturns).

// standaloneOnly reports whether the site's call runs only where the
// function has found that it is not on a Redis Cluster.
func (g *Engine) standaloneOnly(e *evaluator, site *Site) bool {
	return site.Call != nil && g.offCluster(e, site.Call.Pos(), site)
}

// clusterReturns leaves out the return statements that run only where the
// function has found that it is not on a Redis Cluster, unless all of
// them do: what those return is never a key on a cluster. Centrifuge's
// key helpers return prefix + ".presence.data." + ch on one server, and
// the channel in a hashtag on a cluster; two keys of the first form may
// be in different slots, but never meet on a cluster.
func (g *Engine) clusterReturns(e *evaluator, rets []*ast.ReturnStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	for _, r := range rets {
		if !g.offCluster(e, r.Pos(), nil) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return rets
	}
	return out
}

// offCluster reports whether the code at pos runs only where the function
// has found that it is not on a Redis Cluster. site is the call at pos, if
// it is one: a test that it sends one key at most is about its key list.
func (g *Engine) offCluster(e *evaluator, pos token.Pos, site *Site) bool {
	if e == nil || e.decl == nil || e.decl.Body == nil {
		return false
	}
	return e.guarded(pos,
		func(cond ast.Expr) bool { return e.notCluster(cond, true, site) },
		func(cond ast.Expr) bool { return e.notCluster(cond, false, site) },
		g.singleNodeCase)
}

// guarded reports whether the code at pos runs only where conditions say
// so: in the body of an if whose condition holds (then), in the else of
// one whose condition fails (otherwise), after an if without else whose
// body ends the function and whose condition fails, or in a clause of a
// switch that clause accepts.
func (e *evaluator) guarded(pos token.Pos, then, otherwise func(ast.Expr) bool, clause func(sw ast.Node, cc *ast.CaseClause) bool) bool {
	path := e.pathTo(pos)
	for k := 0; k+1 < len(path); k++ {
		child := path[k+1]
		switch n := path[k].(type) {
		case *ast.IfStmt:
			if child == n.Body && then(n.Cond) || n.Else != nil && child == n.Else && otherwise(n.Cond) {
				return true
			}
		case *ast.CaseClause:
			if k >= 2 && clause(path[k-2], n) {
				return true
			}
		}
		list, ok := stmtList(path[k])
		if !ok {
			continue
		}
		for _, st := range list {
			if st == child {
				break
			}
			if n, ok := st.(*ast.IfStmt); ok && n.Else == nil && e.endsFunction(n.Body.List) && otherwise(n.Cond) {
				return true
			}
		}
	}
	return false
}

// endsFunction reports whether control that enters list leaves it only by
// ending the function.
func (e *evaluator) endsFunction(list []ast.Stmt) bool {
	if len(list) == 0 || !e.terminating(list[len(list)-1]) {
		return false
	}
	for _, s := range list {
		if leaves(s, false, false) {
			return false
		}
	}
	return true
}

// notCluster reports whether cond being holds (true or false) means that
// the code is not on a cluster, or that the site sends at most one key.
func (e *evaluator) notCluster(cond ast.Expr, holds bool, site *Site) bool {
	if holds {
		for _, t := range flatten(cond, token.LAND) {
			if e.clusterSign(t) < 0 {
				return true
			}
		}
		return false
	}
	for _, t := range flatten(cond, token.LOR) {
		if e.clusterSign(t) > 0 {
			return true
		}
	}
	// !(len(keys) > 1 && isCluster): on a cluster, one key at most.
	terms := flatten(cond, token.LAND)
	cluster := false
	for _, t := range terms {
		switch {
		case e.clusterSign(t) > 0:
			cluster = true
		case !e.oneKeyAtMost(t, site):
			return false
		}
	}
	return cluster && len(terms) > 1
}

// flatten splits x at the operator op: a && b && c gives a, b, c.
func flatten(x ast.Expr, op token.Token) []ast.Expr {
	x = ast.Unparen(x)
	if b, ok := x.(*ast.BinaryExpr); ok && b.Op == op {
		return append(flatten(b.X, op), flatten(b.Y, op)...)
	}
	return []ast.Expr{x}
}

// clusterAsserted reports whether a bool variable is the ok of a type
// assertion of a client to a cluster client (cc, ok :=
// s.client.(*redis.ClusterClient)), set there alone.
func (e *evaluator) clusterAsserted(id *ast.Ident) bool {
	v, ok := e.g.info.Uses[id].(*types.Var)
	if !ok || e.decl == nil || e.decl.Body == nil {
		return false
	}
	found, other := false, false
	ast.Inspect(e.decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, lhs := range as.Lhs {
			lid, ok := lhs.(*ast.Ident)
			if !ok || e.g.info.ObjectOf(lid) != v {
				continue
			}
			ta, isAssert := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr)
			if i == 1 && len(as.Lhs) == 2 && len(as.Rhs) == 1 && isAssert && ta.Type != nil && e.g.TypeRole(e.g.info.TypeOf(ta.Type)) == ruleset.RoleCluster {
				found = true
			} else {
				other = true
			}
		}
		return true
	})
	return found && !other
}

// clusterSign is 1 for a test that is true on a cluster, -1 for one that
// is true only off a cluster, 0 for anything else.
func (e *evaluator) clusterSign(x ast.Expr) int {
	info := e.g.info
	switch x := ast.Unparen(x).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return -e.clusterSign(x.X)
		}
	case *ast.BinaryExpr:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return 0
		}
		sign := 1
		if x.Op == token.NEQ {
			sign = -1
		}
		for _, side := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
			c := info.Types[side[1]].Value
			if c == nil || info.Types[side[0]].Value != nil {
				continue
			}
			if c.Kind() == constant.Bool {
				// isCluster == false
				if !constant.BoolVal(c) {
					sign = -sign
				}
				return sign * e.clusterSign(side[0])
			}
			// Type == redis.ClusterType, mode == "cluster"
			if nameSign(types.ExprString(side[1])+" "+c.ExactString()) > 0 {
				return sign
			}
		}
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr:
		t, ok := info.TypeOf(x).(*types.Basic)
		if !ok || t.Kind() != types.Bool && t.Kind() != types.UntypedBool {
			return 0
		}
		switch x := x.(type) {
		case *ast.Ident:
			if e.clusterAsserted(x) {
				return 1
			}
			return nameSign(x.Name)
		case *ast.SelectorExpr:
			return nameSign(x.Sel.Name)
		case *ast.CallExpr:
			switch f := ast.Unparen(x.Fun).(type) {
			case *ast.Ident:
				return nameSign(f.Name)
			case *ast.SelectorExpr:
				return nameSign(f.Sel.Name)
			}
		}
	}
	return 0
}

// nameSign reads a name: 1 when it names a cluster (isCluster,
// ClusterType), -1 when it names the opposite (standalone, notCluster,
// nonCluster), 0 otherwise.
func nameSign(name string) int {
	s := strings.ToLower(name)
	switch {
	case strings.Contains(s, "standalone"), strings.Contains(s, "notcluster"),
		strings.Contains(s, "noncluster"), strings.Contains(s, "nocluster"):
		return -1
	case strings.Contains(s, "cluster"):
		return 1
	}
	return 0
}

// oneKeyAtMost reports whether x is len(p) > 1 (or >= 2) of the key list
// p that the site sends as all its keys: false, it leaves one key at most.
func (e *evaluator) oneKeyAtMost(x ast.Expr, site *Site) bool {
	op, n, ok := e.lenTest(x, site)
	return ok && (op == token.GTR && n == 1 || op == token.GEQ && n == 2)
}

// lenTest reads x as len(p) op n, n a constant, of the key list p that
// the site sends as all its keys (a parameter, keys []string or keys
// ...string, passed on whole); 1 < len(p) is read len(p) > 1.
func (e *evaluator) lenTest(x ast.Expr, site *Site) (op token.Token, n int64, ok bool) {
	b, isBin := ast.Unparen(x).(*ast.BinaryExpr)
	if !isBin || site == nil {
		return 0, 0, false
	}
	lenArg, bound, op := b.X, b.Y, b.Op
	if call, ok := ast.Unparen(b.Y).(*ast.CallExpr); ok && isBuiltin(e.g.info, call.Fun, "len") {
		lenArg, bound = b.Y, b.X
		switch op {
		case token.LSS:
			op = token.GTR
		case token.LEQ:
			op = token.GEQ
		case token.GTR:
			op = token.LSS
		case token.GEQ:
			op = token.LEQ
		}
	}
	n, ok = constInt(valueOf(e.g.info, bound))
	if !ok || !e.isKeyList(lenArg, site) {
		return 0, 0, false
	}
	return op, n, true
}

// isKeyList reports whether x is len(p) of the key list p that the site
// sends as all its keys.
func (e *evaluator) isKeyList(x ast.Expr, site *Site) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || !isBuiltin(e.g.info, call.Fun, "len") || len(call.Args) != 1 {
		return false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := e.g.info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	p, ok := e.params[v]
	if !ok {
		return false
	}
	groups := site.AllKeys()
	if len(groups) == 0 {
		return false
	}
	for _, grp := range groups {
		if len(grp) != 1 || spreadIndex(grp[0].Key) < 0 || grp[0].Key.Parts[0].ID != p+"..." {
			return false
		}
	}
	return true
}

// oneKeyOnly reports whether the site's call runs only where the function
// has found that the key list it sends whole holds one key at most, which
// is in one slot: in the body of if len(keys) == 1 (or <= 1, < 2), in the
// else of if len(keys) > 1, after if len(keys) > 1 { ...; return }, or in
// case 0 or 1 of switch len(keys). OpenIM's DeleteCacheBySlot sends a
// slice of one key in case 1, and groups the others by slot.
func (g *Engine) oneKeyOnly(e *evaluator, site *Site) bool {
	if e == nil || e.decl == nil || e.decl.Body == nil || site.Call == nil {
		return false
	}
	// anyLenTest reports whether one of the terms that join makes of x
	// tests the keys' length so that one key at most is left.
	anyLenTest := func(x ast.Expr, join token.Token, leaves func(op token.Token, n int64) bool) bool {
		for _, t := range flatten(x, join) {
			if op, n, ok := e.lenTest(t, site); ok && leaves(op, n) {
				return true
			}
		}
		return false
	}
	// holds: x being true leaves one key at most; fails: x being false.
	holds := func(x ast.Expr) bool {
		return anyLenTest(x, token.LAND, func(op token.Token, n int64) bool {
			return op == token.EQL && n <= 1 || op == token.LEQ && n <= 1 || op == token.LSS && n <= 2
		})
	}
	fails := func(x ast.Expr) bool {
		return anyLenTest(x, token.LOR, func(op token.Token, n int64) bool {
			return op == token.GTR && n <= 1 || op == token.GEQ && n <= 2 || op == token.NEQ && n <= 1
		})
	}
	return e.guarded(site.Call.Pos(), holds, fails, func(sw ast.Node, cc *ast.CaseClause) bool {
		return len(cc.List) > 0 && g.oneKeyCase(e, sw, cc, site, holds)
	})
}

// oneKeyCase reports whether a clause of switch len(keys) lists only 0
// and 1, or a clause of a switch without a tag only tests that leave one
// key at most.
func (g *Engine) oneKeyCase(e *evaluator, sw ast.Node, cc *ast.CaseClause, site *Site, holds func(ast.Expr) bool) bool {
	st, ok := sw.(*ast.SwitchStmt)
	if !ok || st.Init != nil {
		return false
	}
	for _, x := range cc.List {
		if st.Tag == nil {
			if !holds(x) {
				return false
			}
			continue
		}
		n, ok := constInt(valueOf(g.info, x))
		if !ok || n > 1 || !e.isKeyList(st.Tag, site) {
			return false
		}
	}
	return true
}

func valueOf(info *types.Info, x ast.Expr) constant.Value {
	if v := info.Types[x].Value; v != nil {
		return v
	}
	return constant.MakeUnknown()
}

// singleNodeCase reports whether a clause of a type switch names only
// clients of one node: types the rules call a client (go-redis's
// *redis.Client; rueidis's *singleClient, *standalone, *sentinelClient,
// in MDel's switch client.(type)), or a project's types whose names say
// so. A type of a client library that its rules do not call a client is
// not taken by its name.
func (g *Engine) singleNodeCase(sw ast.Node, cc *ast.CaseClause) bool {
	if _, ok := sw.(*ast.TypeSwitchStmt); !ok || len(cc.List) == 0 {
		return false
	}
	for _, x := range cc.List {
		t := g.info.TypeOf(x)
		n := namedOf(t)
		if t == nil || n == nil {
			return false
		}
		if role := g.TypeRole(t); role != "" {
			if role != ruleset.RoleClient {
				return false
			}
			continue
		}
		if g.IsClientPackage(n.Obj().Pkg()) {
			// A client library's own types are what its rules say:
			// rueidis's list singleClient, standalone and sentinelClient.
			return false
		}
		name := strings.ToLower(n.Obj().Name())
		if strings.Contains(name, "cluster") || !strings.Contains(name, "single") && !strings.Contains(name, "standalone") && !strings.Contains(name, "sentinel") {
			return false
		}
	}
	return true
}

// OffCluster reports whether a call of the function runs only where the
// function has found that its client is not a Redis Cluster: in the branch
// of a test for a cluster client that is not taken on one, or in a type
// switch's case of clients of one node, whichever variable the call is
// made on.
func (s *Func) OffCluster(site *Site) bool {
	if site.Call == nil {
		return false
	}
	return s.OffClusterAt(site.Call.Pos())
}

// OffClusterAt reports whether the code of the function at pos runs only
// where the function has found that it is not on a Redis Cluster (the
// else branch of a type assertion to the cluster client).
func (s *Func) OffClusterAt(pos token.Pos) bool {
	if s.e == nil {
		return false
	}
	return s.e.g.offCluster(s.e, pos, nil)
}
