package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// The cluster family reports what a Redis Cluster does unlike one server,
// beyond the slots of keys, where the client may be a cluster (its static
// type is one of the rules' cluster types):
//
//   - keyspace-wide: a command that the commands table marks
//     keyspace-wide (KEYS, SCAN, RANDOMKEY, DBSIZE, FLUSHDB, FLUSHALL;
//     from Redis's command tips) goes to one node and sees or changes only
//     its keys, with no error. Inside a Lua script the same commands see
//     the node of the script's KEYS (luacheck reports those).
//   - cluster-db: a database other than 0. Redis Cluster refuses COPY ...
//     DB and MOVE to another database; a go-redis UniversalOptions that
//     makes a ClusterClient (several addresses, IsClusterMode) drops its
//     DB, and ParseClusterURL drops the database of its URL's path: keys
//     land in database 0 with no error. Under target: valkey-9, whose
//     cluster has other databases, the check is silent.
//   - watch-without-keys: a Watch given no keys, whose cluster client
//     refuses it before running the function (the rules' needs-keys:
//     go-redis's "redis: Watch requires at least one key").

// cluster returns the keyspace-wide and cluster-db findings of one call.
func (c *checker) cluster(site *keyflow.Site) []diag {
	if !site.Cluster || site.Through {
		return nil
	}
	var out []diag
	if cmd := c.rules.Command(site.Command); cmd != nil && cmd.KeyspaceWide && !c.perNode(site.Call) {
		out = append(out, diag{
			pos:      site.Call.Pos(),
			end:      site.Call.End(),
			category: checks.KeyspaceWide,
			message:  fmt.Sprintf("%s on %s, a client that may be a cluster, %s one node's keys only, with no error; %s", site.Command, clientName(site.Call), keyspaceVerb(cmd), walkMasters(c.rules, site.Callee, cmd)),
		})
	}
	if m := site.Method; m != nil && m.Kind == ruleset.KindWatch && m.NeedsKeys && site.Tx != nil && len(site.Tx.Watched) == 0 && !site.Tx.WatchedOpen && !c.perNode(site.Call) {
		out = append(out, diag{
			pos:      site.Call.Pos(),
			end:      site.Call.End(),
			category: checks.WatchWithoutKeys,
			message:  fmt.Sprintf("%s on %s, a client that may be a cluster, is given no keys: a cluster client refuses it (\"redis: Watch requires at least one key\") and never runs the function; pass the keys the function reads and writes, under one hashtag", site.Callee.Name(), clientName(site.Call)),
		})
	}
	if site.DB != nil && site.DBNum != 0 && !c.rules.ClusterHasDatabases() {
		out = append(out, diag{
			pos:      site.DB.Pos(),
			end:      site.DB.End(),
			category: checks.ClusterDB,
			message:  fmt.Sprintf("%s to db %d fails on Redis Cluster, which has only db 0; keep the data in db 0 and tell it apart by a key prefix", site.Command, site.DBNum),
		})
	}
	return out
}

// dropTestKeyspaceWide drops the keyspace-wide findings of test files: a
// test runs on the test's own server, where KEYS or FLUSHDB is setup or a
// check of it, not what the program sends in production (the runtime
// hook's ClusterReadiness covers what tests send).
func (c *checker) dropTestKeyspaceWide(ds []diag) []diag {
	return slices.DeleteFunc(ds, func(d diag) bool {
		return d.category == checks.KeyspaceWide && strings.HasSuffix(c.pass.Fset.Position(d.pos).Filename, "_test.go")
	})
}

// perNode reports whether a call is made on a parameter of a function
// literal passed to a call: a client handed to a callback, as redisc's
// EachNode and the per-node walks hand one node's connection, is taken to
// be that node's.
func (c *checker) perNode(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	if c.callbackParams == nil {
		c.nodeParams()
	}
	return c.callbackParams[v]
}

// nodeParams fills callbackParams: the parameters of function literals
// passed to a call (perNode), and those of the package's unexported
// functions that every call in the package gives one node's client (a
// *redis.Client, such a callback's parameter, or any client where the
// caller has found it is not a cluster's): a helper that a ForEachMaster
// callback and the *redis.Client case of a type switch both hand their
// client, typed redis.Cmdable, works on one node.
func (c *checker) nodeParams() {
	c.callbackParams = map[*types.Var]bool{}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				for _, a := range call.Args {
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						for _, fld := range lit.Type.Params.List {
							for _, name := range fld.Names {
								if pv, ok := c.pass.TypesInfo.Defs[name].(*types.Var); ok {
									c.callbackParams[pv] = true
								}
							}
						}
					}
				}
			}
			return true
		})
	}
	// for _, shard := range c.shards(ctx, client): each of the clients a
	// function of the package collects from a cluster's masters; for _,
	// node := range c.Nodes(): each client of a library's method that
	// returns one for each node (rules.yaml's node-clients), also through
	// a variable set to what it returns and to nothing else.
	lists := c.nodeLists()
	nodeCall := func(x ast.Expr) bool {
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		return ok && (lists[typeutil.StaticCallee(c.pass.TypesInfo, call)] || c.flow.NodeClientsCall(call))
	}
	// nodes := c.Nodes(), a variable set only so, ranged over later.
	heldNodes := map[*types.Var]bool{}
	sets := map[*types.Var]int{}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for i, lhs := range as.Lhs {
					id, ok := lhs.(*ast.Ident)
					if !ok {
						continue
					}
					v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
					if !ok {
						continue
					}
					sets[v]++
					if len(as.Lhs) == len(as.Rhs) && nodeCall(as.Rhs[i]) {
						heldNodes[v] = true
					}
				}
			}
			return true
		})
	}
	ranged := func(x ast.Expr) bool {
		if nodeCall(x) {
			return true
		}
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		return ok && heldNodes[v] && sets[v] == 1
	}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if r, ok := n.(*ast.RangeStmt); ok && r.Value != nil {
				if ranged(r.X) {
					if id, ok := r.Value.(*ast.Ident); ok {
						if v, ok := c.pass.TypesInfo.Defs[id].(*types.Var); ok {
							c.callbackParams[v] = true
						}
					}
				}
			}
			return true
		})
	}
	// Calls of the package's functions, and how often each is named: a
	// function named other than as a call's function has callers unseen.
	// So too of function literals held in a variable and only called
	// (scan := func(ctx, c redis.Cmdable) {...}; scan(ctx, node)).
	calls := map[*types.Func][]*ast.CallExpr{}
	uses := map[*types.Func]int{}
	lits := map[*types.Var]*ast.FuncLit{}
	litCalls := map[*types.Var][]*ast.CallExpr{}
	litUses := map[*types.Var]int{}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if fn := typeutil.StaticCallee(c.pass.TypesInfo, n); fn != nil && fn.Pkg() == c.pass.Pkg {
					calls[fn] = append(calls[fn], n)
				}
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
					if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok {
						litCalls[v] = append(litCalls[v], n)
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
					lit, isLit := ast.Unparen(n.Rhs[0]).(*ast.FuncLit)
					if id, ok := n.Lhs[0].(*ast.Ident); ok && isLit {
						if v, ok := c.pass.TypesInfo.Defs[id].(*types.Var); ok {
							lits[v] = lit
						}
					}
				}
			case *ast.Ident:
				switch obj := c.pass.TypesInfo.Uses[n].(type) {
				case *types.Func:
					uses[obj]++
				case *types.Var:
					litUses[obj]++
				}
			}
			return true
		})
	}
	oneNode := func(x ast.Expr) bool {
		if c.flow.TypeRole(c.pass.TypesInfo.TypeOf(x)) == ruleset.RoleClient {
			return true
		}
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		return ok && c.callbackParams[v]
	}
	// A call that runs only where its function has found that the client
	// is not a cluster's (the else of r.client.(*redis.ClusterClient))
	// hands the helper one node's client, whatever its static type.
	funcs := map[*ast.FuncDecl]*keyflow.Func{}
	for _, s := range c.flow.Funcs() {
		if s.Decl != nil {
			funcs[s.Decl] = s
		}
	}
	offCluster := func(call *ast.CallExpr) bool {
		for fd, s := range funcs {
			if fd.Pos() <= call.Pos() && call.Pos() < fd.End() {
				return s.OffClusterAt(call.Pos())
			}
		}
		return false
	}
	// grow marks parameter i of a function whose every call is cs when
	// each call hands it one node's client.
	grow := func(p *types.Var, i int, cs []*ast.CallExpr) bool {
		if c.callbackParams[p] || len(cs) == 0 {
			return false
		}
		for _, call := range cs {
			if i >= len(call.Args) || !oneNode(call.Args[i]) && !offCluster(call) {
				return false
			}
		}
		c.callbackParams[p] = true
		return true
	}
	for grown := true; grown; {
		grown = false
		for fn, cs := range calls {
			if fn.Exported() || uses[fn] != len(cs) {
				continue
			}
			params := fn.Signature().Params()
			for i := 0; i < params.Len(); i++ {
				if i == params.Len()-1 && fn.Signature().Variadic() {
					continue
				}
				grown = grow(params.At(i), i, cs) || grown
			}
		}
		for v, lit := range lits {
			cs := litCalls[v]
			if litUses[v] != len(cs) {
				continue // handed on, or called where it is not seen
			}
			i := 0
			for _, fld := range lit.Type.Params.List {
				for _, name := range fld.Names {
					if pv, ok := c.pass.TypesInfo.Defs[name].(*types.Var); ok {
						grown = grow(pv, i, cs) || grown
					}
					i++
				}
				if len(fld.Names) == 0 {
					i++
				}
			}
		}
	}
}

// nodeLists returns the package's functions that collect a cluster's
// nodes and return them: a callback (callbackParams, as ForEachMaster's
// is handed each master) appends its node to a slice that the function
// returns, as newstack-cloud/celerity-go-sdk's shards does. Each client
// such a function returns is taken to be one node's: its other returns
// hand back the client that is no cluster's, or that has no master to
// walk.
func (c *checker) nodeLists() map[*types.Func]bool {
	info := c.pass.TypesInfo
	out := map[*types.Func]bool{}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			// masters = append(masters, node), node a callback's.
			collected := map[*types.Var]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					return true
				}
				app, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok || len(app.Args) != 2 {
					return true
				}
				if b, ok := typeutil.Callee(info, app).(*types.Builtin); !ok || b.Name() != "append" {
					return true
				}
				node, ok := ast.Unparen(app.Args[1]).(*ast.Ident)
				lhs, isID := ast.Unparen(as.Lhs[0]).(*ast.Ident)
				if nv, isVar := info.Uses[node].(*types.Var); ok && isID && isVar && c.callbackParams[nv] {
					if v, ok := info.Uses[lhs].(*types.Var); ok {
						collected[v] = true
					}
				}
				return true
			})
			if len(collected) == 0 {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) > 0 {
					if id, ok := ast.Unparen(ret.Results[0]).(*ast.Ident); ok {
						if v, ok := info.Uses[id].(*types.Var); ok && collected[v] {
							out[fn] = true
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// keyspaceVerb says what a keyspace-wide command does with the keys.
func keyspaceVerb(cmd *ruleset.Command) string {
	if cmd.IsWrite() {
		return "changes"
	}
	return "reads"
}

// walkMasters says how to reach every master with the client that the
// callee belongs to (its rules' every-master), and for a command that
// lists keys, how to need no listing.
func walkMasters(rules *ruleset.Rules, callee *types.Func, cmd *ruleset.Command) string {
	how := "run it on every master"
	if callee != nil && callee.Pkg() != nil {
		if c := rules.ClientOf(callee.Pkg().Path()); c != nil && c.EveryMaster != "" {
			how += " with " + c.EveryMaster
		}
	}
	if cmd.IsWrite() {
		return how
	}
	return how + ", or keep the keys you list in a set under one hashtag"
}

// clientName is how a message names the client a call is made on.
func clientName(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "the client"
	}
	return types.ExprString(sel.X)
}

// clientOptions returns the cluster-db findings of the package's option
// literals and cluster URLs, which need no command to be sent in the
// package: the client is often made in a package of its own.
func clientOptions(pass *analysis.Pass, rules *ruleset.Rules) []diag {
	if rules.ClusterHasDatabases() {
		return nil
	}
	var out []diag
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if d, ok := optionLiteral(pass, rules, n); ok {
					out = append(out, d)
				}
			case *ast.CallExpr:
				if d, ok := clusterURL(pass, rules, n); ok {
					out = append(out, d)
				}
			}
			return true
		})
	}
	return out
}

// optionLiteral reports a literal of a client's option struct (the
// rules' options) that makes a cluster client and sets its database to a
// constant other than 0.
func optionLiteral(pass *analysis.Pass, rules *ruleset.Rules, lit *ast.CompositeLit) (diag, bool) {
	t := pass.TypesInfo.TypeOf(lit)
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return diag{}, false
	}
	client := rules.ClientOf(n.Obj().Pkg().Path())
	if client == nil || client.Options[n.Obj().Name()] == nil {
		return diag{}, false
	}
	opt, typ := client.Options[n.Obj().Name()], n.Obj().Name()
	fields := map[string]ast.Expr{}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				fields[id.Name] = kv.Value
			}
		}
	}
	dbExpr := fields[opt.DB]
	db, ok := intConst(pass, dbExpr)
	if !ok || db == 0 {
		return diag{}, false
	}
	if m := fields[opt.Sentinel]; opt.Sentinel != "" && m != nil {
		if s, ok := stringConst(pass, m); !ok || s != "" {
			return diag{}, false // a Sentinel client may keep the database
		}
	}
	why := ""
	if x := fields[opt.Cluster]; opt.Cluster != "" && x != nil {
		if tv := pass.TypesInfo.Types[x]; tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value) {
			why = opt.Cluster + " set"
		}
	}
	if a, ok := fields[opt.Addrs].(*ast.CompositeLit); ok && len(a.Elts) > 1 && why == "" {
		why = fmt.Sprintf("%d addresses in %s", len(a.Elts), opt.Addrs)
	}
	if why == "" {
		return diag{}, false
	}
	return diag{
		pos:      dbExpr.Pos(),
		end:      dbExpr.End(),
		category: checks.ClusterDB,
		message:  fmt.Sprintf("%s with %s and %s %d: %s builds a ClusterClient, which drops %s, so every key goes to db 0 with no error; keep the data in db 0 and tell it apart by a key prefix", typ, why, opt.DB, db, opt.Constructor, opt.DB),
	}, true
}

// clusterURL reports a call of a client's cluster URL function (the
// rules' cluster-urls) given a constant URL whose path names a database
// other than 0.
func clusterURL(pass *analysis.Pass, rules *ruleset.Rules, call *ast.CallExpr) (diag, bool) {
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Signature().Recv() != nil || len(call.Args) == 0 {
		return diag{}, false
	}
	client := rules.ClientOf(fn.Pkg().Path())
	if client == nil || !slices.Contains(client.ClusterURLs, fn.Name()) {
		return diag{}, false
	}
	s, ok := stringConst(pass, call.Args[0])
	if !ok {
		return diag{}, false
	}
	u, err := url.Parse(s)
	if err != nil {
		return diag{}, false
	}
	db, err := strconv.Atoi(strings.Trim(u.Path, "/"))
	if err != nil || db == 0 {
		return diag{}, false
	}
	return diag{
		pos:      call.Args[0].Pos(),
		end:      call.Args[0].End(),
		category: checks.ClusterDB,
		message:  fmt.Sprintf("%s drops the database /%d of its URL: a cluster has only db 0, and every key goes there with no error; drop /%d from the URL and tell the data apart by a key prefix", fn.Name(), db, db),
	}, true
}

func intConst(pass *analysis.Pass, x ast.Expr) (int64, bool) {
	if x == nil {
		return 0, false
	}
	tv := pass.TypesInfo.Types[x]
	if tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

func stringConst(pass *analysis.Pass, x ast.Expr) (string, bool) {
	if x == nil {
		return "", false
	}
	tv := pass.TypesInfo.Types[x]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}
