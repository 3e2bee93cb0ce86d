package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// This file follows the clients that do not name a command by their
// method: those that build a command as a value (rueidis, valkey-go:
// c.Do(ctx, c.B().Rename().Key(a).Newkey(b).Build())), those that send
// raw commands one call at a time, MULTI and EXEC included (redigo:
// c.Send("MULTI"); c.Send("INCR", a); c.Do("EXEC")), and those that build
// a raw command as a value and send it (radix: conn.Do(radix.Cmd(nil,
// "MULTI"))). All are data in the rules: the kinds builder, builder-keys
// and send, and raw.

// A built is a command that a builder chain builds.
type built struct {
	command string
	keys    []Group
	open    bool
}

// maxChain bounds how far a chain is followed through variables.
const maxChain = 8

// A link is one method call of a builder chain: c.B(), .Mget(), .Key(k),
// .Build().
type link struct {
	fn   *types.Func
	m    *ruleset.Method // the rules' builder or builder-keys entry, or nil
	recv ast.Expr        // the chain the method is called on
}

// chainLink returns the link that call x is, ok false when x is not a
// method of the client's packages called on a chain.
func (g *Engine) chainLink(x *ast.CallExpr) (l link, ok bool) {
	fn, m := g.Resolve(x)
	sel, isSel := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if fn == nil || !isSel || !g.IsClientPackage(fn.Pkg()) || fn.Signature().Recv() == nil {
		return link{}, false
	}
	l = link{fn: fn, recv: sel.X}
	if m != nil && (m.Kind == ruleset.KindBuilder || m.Kind == ruleset.KindBuilderKeys) {
		l.m = m
	}
	return l, true
}

// builtCommand follows a builder chain back from x, the value sent, to the
// Builder method that names its command, collecting the keys that its
// builder-keys methods take. Methods of the client's packages that the
// rules do not list (Build, Value, Arg, Cache) are passed through. ok is
// false when x is not such a chain.
func (g *Engine) builtCommand(e *evaluator, x ast.Expr) (b built, ok bool) {
	var chain []*ast.CallExpr // the key methods, last first
	var ms []*ruleset.Method
	var grown []Group // keys that later links of a chain grown in place add
	for depth := 0; depth < 64; depth++ {
		x = ast.Unparen(x)
		switch xx := x.(type) {
		case *ast.Ident:
			rhs := e.setOnce(xx)
			if rhs == nil {
				var more []Group
				var open bool
				if rhs, more, open = g.grownChain(e, xx); open {
					b.open = true
				}
				grown = append(more, grown...)
			}
			if rhs == nil || depth > maxChain*8 {
				return built{}, false
			}
			x = rhs
			continue
		case *ast.CallExpr:
			l, ok := g.chainLink(xx)
			switch {
			case !ok && len(chain) == 0 && len(grown) == 0:
				// DelCmd(ctx, c, k): a function of the package that
				// returns the command whole.
				return g.builtByCall(e, xx)
			case !ok:
				return built{}, false
			case l.m != nil && l.m.Kind == ruleset.KindBuilder:
				b.command = l.m.Command
				for i := len(chain) - 1; i >= 0; i-- {
					keys, open := g.selectKeys(e, chain[i], ms[i].Keys)
					b.keys = append(b.keys, keys...)
					b.open = b.open || open
				}
				b.keys = append(b.keys, grown...)
				return b, true
			case l.m != nil:
				chain = append(chain, xx)
				ms = append(ms, l.m)
			}
			x = l.recv
			continue
		}
		return built{}, false
	}
	return built{}, false
}

// builtByCall returns the command that a function of the package builds
// and returns whole (return c.B().Del().Key(k).Build()), with the
// caller's values in place of its parameters.
func (g *Engine) builtByCall(e *evaluator, call *ast.CallExpr) (built, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || fn.Pkg() != g.pkg || call.Ellipsis.IsValid() {
		return built{}, false
	}
	decl := g.decls[fn.Origin()]
	if decl == nil || g.building[decl] {
		return built{}, false
	}
	ret := g.oneReturn(decl)
	ev := g.writerEval(decl)
	if ret == nil || ev == nil {
		return built{}, false
	}
	if g.building == nil {
		g.building = map[*ast.FuncDecl]bool{}
	}
	g.building[decl] = true
	b, ok := g.builtCommand(ev, ret)
	delete(g.building, decl)
	if !ok {
		return built{}, false
	}
	for i, grp := range b.keys {
		var out Group
		for _, v := range grp {
			for _, k := range g.substitute(e, call, v.Key) {
				out = append(out, Value{k, v.Pos})
			}
		}
		b.keys[i] = out
	}
	return b, true
}

// grownChain follows a builder variable grown in place, as JSON.MSET of
// several entities is built:
//
//	cmd := c.B().Mset().KeyValue()
//	for _, id := range ids {
//		cmd = cmd.KeyValue("user:"+id, v)
//	}
//	c.Do(ctx, cmd.Build())
//
// It returns the chain the variable starts as, its one other assignment,
// and the keys of each link that an assignment of the variable to itself
// extended adds: twice for one in a loop, as two turns of it add them.
// rhs is nil when the variable is set otherwise.
func (g *Engine) grownChain(e *evaluator, id *ast.Ident) (rhs ast.Expr, keys []Group, open bool) {
	v := e.localVar(id)
	if v == nil || len(e.defs[v]) < 2 {
		return nil, nil, false
	}
	for _, d := range e.defs[v] {
		if d.rhs == nil || d.add {
			return nil, nil, false
		}
		more, o, self := g.extension(e, d.rhs, v)
		switch {
		case self:
			for _, grp := range more {
				keys = append(keys, grp)
				if d.inLoop {
					again := make(Group, len(grp))
					for i, a := range grp {
						again[i] = Value{e.vary(a.Key), a.Pos}
					}
					keys = append(keys, again)
				}
			}
			open = open || o
		case rhs == nil && !d.inLoop:
			rhs = d.rhs
		default:
			return nil, nil, false
		}
	}
	return rhs, keys, open
}

// extension returns the keys of the key methods of a builder chain x that
// starts from variable v itself (v.Key(k).Path(p)), self false when x is
// not such a chain.
func (g *Engine) extension(e *evaluator, x ast.Expr, v *types.Var) (keys []Group, open, self bool) {
	for depth := 0; depth < 64; depth++ {
		switch xx := ast.Unparen(x).(type) {
		case *ast.Ident:
			return keys, open, e.localVar(xx) == v
		case *ast.CallExpr:
			l, ok := g.chainLink(xx)
			if !ok {
				return nil, false, false
			}
			if l.m != nil && l.m.Kind == ruleset.KindBuilderKeys {
				k, o := g.selectKeys(e, xx, l.m.Keys)
				keys = append(k, keys...)
				open = open || o
			}
			x = l.recv
		default:
			return nil, false, false
		}
	}
	return nil, false, false
}

// chainArg returns the argument of the method of a builder chain whose
// one parameter has one of the names (Match(pattern string) of a SCAN), or
// nil.
func (g *Engine) chainArg(e *evaluator, x ast.Expr, names ...string) ast.Expr {
	for depth := 0; depth < 64; depth++ {
		switch xx := ast.Unparen(x).(type) {
		case *ast.Ident:
			rhs := e.setOnce(xx)
			if rhs == nil {
				return nil
			}
			x = rhs
		case *ast.CallExpr:
			l, ok := g.chainLink(xx)
			if !ok {
				return nil
			}
			if p := l.fn.Signature().Params(); p.Len() == 1 && len(xx.Args) == 1 && slices.Contains(names, p.At(0).Name()) {
				return xx.Args[0]
			}
			x = l.recv
		default:
			return nil
		}
	}
	return nil
}

// send resolves Do(ctx, cmd) and DoMulti(ctx, cmds...): the commands that
// builder chains built. Do gives the site itself; DoMulti gives one site
// for each command, made at the call, in order. It reports false when the
// site itself is not to be added: a command it cannot follow, or DoMulti,
// whose commands are added instead.
func (g *Engine) send(s *Func, site *Site) bool {
	e, call, m := s.e, site.Call, site.Method
	if m.Args == nil || m.Args.Param >= len(call.Args) {
		return false
	}
	if !m.Args.Variadic {
		b, ok := g.builtCommand(e, call.Args[m.Args.Param])
		if !ok {
			return false
		}
		g.setBuilt(e, site, call.Args[m.Args.Param], b)
		return true
	}
	args := call.Args[m.Args.Param:]
	if call.Ellipsis.IsValid() {
		// cmds := valkey.Commands{...}, spread: the literal's commands;
		// a slice of commands built elsewhere is not followed.
		if args = sentList(e, call); args == nil {
			return false
		}
	}
	for _, a := range args {
		b, ok := g.builtCommand(e, a)
		if !ok {
			continue
		}
		// Each command is reported where it is built, and a transaction
		// at DoMulti, where its MULTI is sent.
		sub := &Site{Call: call, Callee: site.Callee, Method: m}
		if ac, ok := ast.Unparen(a).(*ast.CallExpr); ok && b.command != "MULTI" {
			sub.Call = ac
		}
		g.setBuilt(e, sub, a, b)
		s.Sites = append(s.Sites, sub)
	}
	return false
}

// sentList returns the commands of the slice that a send call spreads
// (c.DoMulti(ctx, cmds...)), when it is a composite literal or a local
// variable set once to one and grown by appends of single commands,
// in a loop or not (cmds = append(cmds, c.B().Del().Key(k).Build()) for
// each k): its elements, then the appended ones in the order of the
// code; nil otherwise.
func sentList(e *evaluator, call *ast.CallExpr) []ast.Expr {
	if e == nil || len(call.Args) == 0 {
		return nil
	}
	x := ast.Unparen(call.Args[len(call.Args)-1])
	var appended []ast.Expr
	if id, ok := x.(*ast.Ident); ok {
		x = ast.Unparen(e.setOnce(id))
		if v := e.localVar(id); v != nil {
			for _, a := range e.reachingAppends(v, e.appends[v], id.Pos()) {
				if a.call.Ellipsis.IsValid() {
					return nil // a list of commands appended whole
				}
				appended = append(appended, a.call.Args[1:]...)
			}
		}
	}
	lit, ok := x.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	for _, el := range lit.Elts {
		if _, kv := el.(*ast.KeyValueExpr); kv {
			return nil
		}
	}
	return append(slices.Clone(lit.Elts), appended...)
}

// sendParents maps each command argument of a send call in the function
// to the call: for the commands of a DoMulti, which send gave their own
// position, and for the raw commands that a package function builds as a
// value (radix's Cmd), sent by the Do they are handed to.
func (g *Engine) sendParents(s *Func) map[*ast.CallExpr]*ast.CallExpr {
	parents := map[*ast.CallExpr]*ast.CallExpr{}
	if s.Decl == nil || s.Decl.Body == nil {
		return parents
	}
	ast.Inspect(s.Decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if _, m := g.Resolve(call); m != nil && m.Kind == ruleset.KindSend && m.Args != nil {
			args := call.Args[min(m.Args.Param, len(call.Args)):]
			if call.Ellipsis.IsValid() && m.Args.Variadic {
				args = sentList(s.e, call)
			}
			for _, a := range args {
				if ac, ok := ast.Unparen(a).(*ast.CallExpr); ok {
					parents[ac] = call
				}
			}
		}
		return true
	})
	return parents
}

// valueSent reports whether the command value that call builds (go-redis's
// NewCmd(ctx, args...), a rule marked value) is sent in the function: the
// call itself, or a variable it is assigned to, handed to a send method
// (Process) or to a function value that takes the client's command
// interface (a hook's next, a cmdable func type), anywhere in the function.
func (g *Engine) valueSent(s *Func, call *ast.CallExpr) bool {
	if s.Decl == nil || s.Decl.Body == nil {
		return false
	}
	if s.sent == nil {
		s.sent = map[*ast.CallExpr]bool{}
		vars := map[*types.Var]bool{}
		ast.Inspect(s.Decl.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			for i, a := range c.Args {
				if !g.sendsArg(c, i) {
					continue
				}
				switch a := ast.Unparen(a).(type) {
				case *ast.CallExpr:
					s.sent[a] = true
				case *ast.Ident:
					if v, ok := g.info.ObjectOf(a).(*types.Var); ok {
						vars[v] = true
					}
				}
			}
			return true
		})
		for c, v := range g.assignments(s.Decl.Body) {
			if vars[v] {
				s.sent[c] = true
			}
		}
	}
	return s.sent[call]
}

// sendsArg reports whether argument i of call is a command the call sends: the
// args of a send method, or a parameter of a function value whose type is
// an interface of a client package (go-redis's Cmder).
func (g *Engine) sendsArg(call *ast.CallExpr, i int) bool {
	if fn, m := g.Resolve(call); m != nil {
		return m.Kind == ruleset.KindSend && m.Args != nil && !m.Args.Variadic && m.Args.Param == i
	} else if fn != nil {
		return false
	}
	if _, static := g.info.Uses[calleeIdent(call)].(*types.Func); static {
		return false
	}
	sig, ok := g.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok || i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
		return false
	}
	named, ok := types.Unalias(sig.Params().At(i).Type()).(*types.Named)
	return ok && types.IsInterface(named) && named.Obj().Pkg() != nil && g.IsClientPackage(named.Obj().Pkg())
}

// setBuilt makes site the command that x, a builder chain, built.
func (g *Engine) setBuilt(e *evaluator, site *Site, x ast.Expr, b built) {
	site.Command = b.command
	site.Name = b.command
	site.Keys, site.Open = b.keys, b.open
	if cmd := g.rules.Command(b.command); cmd != nil {
		setFlags(site, cmd)
	}
	site.Script = g.builtScript(e, site, x, b)
}

// builtScript is the script that a builder chain's EVAL runs,
// c.B().Eval().Script(src).Numkeys(1).Key(k).Arg(args...): its Lua is
// checked with the chain's keys, as a go-redis Eval's is.
func (g *Engine) builtScript(e *evaluator, site *Site, x ast.Expr, b built) *ScriptRun {
	if b.command != "EVAL" && b.command != "EVAL_RO" {
		return nil
	}
	src := g.chainArg(e, x, "script")
	if src == nil {
		return nil
	}
	ref, ok := g.scriptOf(e, src, "script")
	if !ok {
		return nil
	}
	return &ScriptRun{Ref: ref, Keys: b.keys, KeysOpen: b.open, ArgsOpen: true, Cluster: g.clusterCapable(receiver(site.Call)), ReadOnly: g.readOnlyCommand(b.command)}
}

// A connState is what the commands sent so far on one connection leave
// open: the keys WATCHed and the WATCH itself, until EXEC, DISCARD or
// UNWATCH, and the MULTI/EXEC transaction being queued.
type connState struct {
	watched []Group
	open    bool
	watch   *Site
	tx      *Tx
}

// connSites calls visit with each command that a function sends on a
// connection variable by a raw or send method, in the order of the
// function's text, with the state of that connection before the command.
//
// A connection variable assigned again (c = pool.Get()) or closed
// (c.Close(), which hands a pooled connection back, the pool sending
// DISCARD and UNWATCH) starts afresh: what was sent before is not on the
// connection that the next command goes to.
func (g *Engine) connSites(s *Func, visit func(site *Site, c *connState)) {
	conns := map[connVar]*connState{}
	last := map[connVar]token.Pos{}
	var resets map[connVar][]token.Pos
	var parents map[*ast.CallExpr]*ast.CallExpr
	for _, site := range s.Sites {
		var conn ast.Expr
		at := site.Call.Pos()
		switch {
		case site.Queued && site.onConn:
			// A command that a function sends on the connection it is
			// handed, here the argument.
			conn = site.onArg
		case site.Method == nil || site.Through ||
			site.Method.Kind != ruleset.KindRaw && site.Method.Kind != ruleset.KindSend:
			continue
		default:
			call := site.Call
			built := site.Method.Kind == ruleset.KindRaw && g.TypeRole(g.info.TypeOf(receiver(call))) == ""
			if built || site.Method.Kind == ruleset.KindSend && site.Method.Args != nil && site.Method.Args.Variadic {
				if parents == nil {
					parents = g.sendParents(s)
				}
				if p := parents[call]; p != nil {
					call = p
				}
			}
			conn, at = receiver(call), call.Pos()
		}
		if g.TypeRole(g.info.TypeOf(conn)) == "" {
			continue
		}
		v, ok := g.connVarOf(conn)
		if !ok {
			continue
		}
		c := conns[v]
		if c == nil {
			c = &connState{}
			conns[v] = c
		}
		if resets == nil {
			resets = g.connResets(s)
		}
		for _, r := range resetsOf(resets, v) {
			if r > last[v] && r < at {
				*c = connState{}
				break
			}
		}
		last[v] = at
		visit(site, c)
		switch strings.ToUpper(site.Command) {
		case "WATCH":
			if c.tx == nil {
				c.watched = append(c.watched, site.Keys...)
				c.open = c.open || site.Open
				c.watch = site
			}
		case "UNWATCH":
			c.watched, c.open, c.watch = nil, false, nil
		case "MULTI":
			c.tx = site.Tx
		case "EXEC", "DISCARD":
			if !g.endsBranch(s.Decl, site.Call) {
				*c = connState{}
			}
		}
	}
}

// endsBranch reports whether call, an EXEC or DISCARD, is sent in a branch
// that leaves the function, as a DISCARD on an error is:
//
//	c.Send("MULTI")
//	if err := c.Send("DEL", setKey); err != nil {
//		c.Do("DISCARD")
//		return err
//	}
//	c.Send("HMSET", hashKey, ...)
//	c.Do("EXEC")
//
// The commands after the branch are on the transaction it did not end.
func (g *Engine) endsBranch(decl *ast.FuncDecl, call *ast.CallExpr) bool {
	if decl == nil || decl.Body == nil {
		return false
	}
	path := pathIn(decl.Body, call.Pos())
	slices.Reverse(path)
	for _, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			return n != decl.Body && Terminates(g.info, n, false)
		case *ast.CaseClause:
			return len(n.Body) > 0 && Terminates(g.info, n.Body[len(n.Body)-1], false)
		}
	}
	return false
}

// A connVar is where a function keeps a connection: a variable, a field
// of one (ch.conn, a connection a handler holds), or what a pointer
// points to ((*conn), ".*"), by its path.
type connVar struct {
	v    *types.Var
	path string
}

// connVarOf returns where x, a variable or a field of one, keeps a
// connection.
func (g *Engine) connVarOf(x ast.Expr) (connVar, bool) {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, ok := g.info.ObjectOf(x).(*types.Var)
		return connVar{v: v}, ok
	case *ast.SelectorExpr:
		if sel, ok := g.info.Selections[x]; !ok || sel.Kind() != types.FieldVal {
			return connVar{}, false
		}
		base, ok := g.connVarOf(x.X)
		base.path += "." + x.Sel.Name
		return base, ok
	case *ast.StarExpr:
		// (*conn).Send("MULTI") of a conn *redis.Conn
		base, ok := g.connVarOf(x.X)
		base.path += ".*"
		return base, ok
	}
	return connVar{}, false
}

// connResets returns, for each variable of a function and each field of
// one, where it is assigned and where its Close method is called, not
// deferred: the places after which it holds another connection, or one
// that starts afresh (resetsOf adds what it is a field of).
func (g *Engine) connResets(s *Func) map[connVar][]token.Pos {
	out := map[connVar][]token.Pos{}
	if s.Decl == nil || s.Decl.Body == nil {
		return out
	}
	deferred := map[*ast.CallExpr]bool{}
	ast.Inspect(s.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			deferred[n.Call] = true
		case *ast.GoStmt:
			deferred[n.Call] = true
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if v, ok := g.connVarOf(lhs); ok {
					out[v] = append(out[v], n.Pos())
				}
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Close" || len(n.Args) != 0 || deferred[n] {
				break
			}
			if v, ok := g.connVarOf(sel.X); ok {
				out[v] = append(out[v], n.Pos())
			}
		}
		return true
	})
	return out
}

// resetsOf returns where v holds another connection, by resets: where it
// or what it is a field of is assigned (x = ... resets x.conn), and where
// it is closed.
func resetsOf(resets map[connVar][]token.Pos, v connVar) []token.Pos {
	out := resets[v]
	for p := v.path; p != ""; {
		p = p[:strings.LastIndex(p, ".")]
		out = append(out, resets[connVar{v.v, p}]...)
	}
	return out
}

// rawTransactions finds the transactions that a function sends one
// command at a time on one connection: the commands sent by raw and send
// methods on the same variable from MULTI to EXEC, with the keys WATCHed
// on it before. Each is a Tx of kind TxMulti opened by the MULTI site,
// named "MULTI/EXEC transaction", and reported there. Sites are taken in
// the order of the function's text, which is the order they run in when
// there is no branch between them.
func (g *Engine) rawTransactions(s *Func) {
	g.connSites(s, func(site *Site, c *connState) {
		switch strings.ToUpper(site.Command) {
		case "MULTI":
			if site.Tx == nil {
				site.Tx = &Tx{Site: site, Kind: TxMulti, Watched: c.watched, WatchedOpen: c.open}
				site.Name = "MULTI/EXEC transaction"
				s.Txs = append(s.Txs, site.Tx)
			}
		case "WATCH", "UNWATCH", "EXEC", "DISCARD":
		default:
			if c.tx != nil {
				c.tx.Sites = append(c.tx.Sites, site)
			}
		}
	})
}

// RawWatch returns the raw WATCH that a command sent on a connection
// follows, on the same connection, with no EXEC, DISCARD or UNWATCH
// between them, or nil; inMulti is true when the command is queued in a
// MULTI after it. A read under a WATCH and a write queued after it in
// MULTI/EXEC are a check-and-set: the write fails if the key changed.
func (s *Func) RawWatch(site *Site) (watch *Site, inMulti bool) {
	if s.e == nil {
		return nil, false
	}
	s.e.g.connSites(s, func(x *Site, c *connState) {
		if x == site {
			watch, inMulti = c.watch, c.tx != nil
		}
	})
	return watch, inMulti
}

// keyCountKeys selects the keys of a redigo script call, Script.Do(conn,
// keysAndArgs...): the first K elements of the variadic parameter, K the
// key count that the receiver script was made with. open is true when
// the keys are not all seen.
func (g *Engine) keyCountKeys(e *evaluator, call *ast.CallExpr, sel ruleset.Selector) (groups []Group, open bool) {
	if call.Ellipsis.IsValid() && len(call.Args) == sel.Param+1 && g.callerScriptParam(e, receiver(call)) > 0 {
		// s.Do(conn, keysAndArgs...) of a runner handed the script and
		// its keys and arguments: the first as many as the callers'
		// script counts.
		if arg := call.Args[sel.Param]; e.spreadParam(arg) != "" {
			return []Group{{{keyspace.Unknown(e.spreadParam(arg)+"..."+spreadForm{Scripted: true}.String(), exprName(arg)+"...", false), arg.Pos()}}}, false
		}
	}
	keys, _, ok := g.keyCountSplit(e, call, sel)
	// Keys a loop adds are as many as its turns: how many is not known.
	return e.elemGroups(keys), !ok || hasMany(keys)
}

// keyCountSplit splits the arguments of a redigo script call into its
// keys and its ARGV, by the key count the receiver script was made with.
// The arguments are the call's own, or a slice spread into it: one made
// of a few elements, the elements a loop appends for each of a
// collection, and a few more, as in
//
//	script := redis.NewScript(len(jobNames)+1, src)
//	args := []interface{}{deadKey}
//	for _, name := range jobNames {
//		args = append(args, queuePrefix+name)
//	}
//	args = append(args, now)
//	script.Do(conn, args...)
//
// A count of the form fixed + per*len(...) takes the fixed elements
// before the loop and the per elements the loop appends. false when the
// split is not known; keys are then those seen, when there are fewer
// arguments than keys.
func (g *Engine) keyCountSplit(e *evaluator, call *ast.CallExpr, sel ruleset.Selector) (keys, args []elem, ok bool) {
	k, ok := g.scriptKeyCount(e, receiver(call))
	if !ok || sel.Param >= len(call.Args) && !call.Ellipsis.IsValid() {
		return nil, nil, ok && k.per == 0 && k.fixed == 0
	}
	var all []elem
	if call.Ellipsis.IsValid() {
		if len(call.Args) != sel.Param+1 {
			return nil, nil, false
		}
		sl := g.keySlice(e, call, call.Args[sel.Param])
		if sl.open {
			// Keys, then ARGV the function's callers give ("$N...").
			ssl, ok := g.ssaSpread(e, call, call.Args[sel.Param])
			if !ok {
				return nil, nil, false
			}
			sl = ssl
		}
		all = sl.elems
	} else {
		for _, a := range call.Args[sel.Param:] {
			all = append(all, elem{alts: e.keys(a)})
		}
	}
	if k.fixed < 0 {
		// NewScript(-1, src): Do(conn, len(keys), keys..., args...).
		if len(all) == 0 {
			return nil, nil, false
		}
		count, rest := all[0], all[1:]
		k = keyCount{}
		if len(count.alts) != 1 || count.many {
			return nil, nil, false
		}
		if text, lit := count.alts[0].Key.Literal(); lit {
			n, err := strconv.Atoi(text)
			if err != nil || n < 0 {
				return nil, nil, false
			}
			k.fixed = n
		} else if strings.HasPrefix(unknownID(count.alts[0].Key), "len(") {
			// len(keys), then keys flattened: the elements a loop
			// added, one collection, each standing for many.
			m := 0
			for m < len(rest) && rest[m].many {
				m++
			}
			if m == 0 {
				return nil, nil, false
			}
			return rest[:m], rest[m:], true
		} else {
			return nil, nil, false
		}
		all = rest
	}
	n := k.fixed
	if k.per > 0 {
		// fixed elements, then exactly per elements that stand for many.
		if n > len(all) || hasMany(all[:n]) {
			return nil, nil, false
		}
		m := n
		for m < len(all) && all[m].many {
			m++
		}
		if m-n != k.per || hasMany(all[m:]) {
			return nil, nil, false
		}
		n = m
	}
	if n > len(all) {
		return all, nil, false // fewer arguments than keys: those seen
	}
	if hasMany(all[:n]) && k.per == 0 {
		return nil, nil, false
	}
	return all[:n], all[n:], true
}

// A keyCount is the number of keys a redigo script is made with: fixed,
// plus per for each element of a collection (NewScript(len(names)*2+1,
// src) is fixed 1, per 2); fixed -1 for NewScript(-1, src), whose count
// is the first argument of each run.
type keyCount struct{ fixed, per int }

// scriptKeyCount returns the key count of the script that x holds: the
// count argument of the new-script call that made it, found through
// variables set once and fields set to one count everywhere.
func (g *Engine) scriptKeyCount(e *evaluator, x ast.Expr) (keyCount, bool) {
	for depth := 0; depth < maxChain && x != nil; depth++ {
		switch xx := ast.Unparen(x).(type) {
		case *ast.Ident:
			v, ok := g.info.ObjectOf(xx).(*types.Var)
			if !ok {
				return keyCount{}, false
			}
			if init, ok := g.pkgVars[v]; ok && v.Pkg() == g.pkg {
				x, e = init, g.pkgEval
			} else if set, ok := g.setOnce(v); ok {
				x, e = set.rhs, g.writerEval(set.decl)
			} else {
				x = e.setOnce(xx)
			}
		case *ast.SelectorExpr:
			if v, ok := g.info.Uses[xx.Sel].(*types.Var); ok && v.Pkg() != g.pkg && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				// A script of another package: its fact's count.
				var f KeyScript
				if !g.facts.ImportObjectFact(v, &f) || !f.Counted {
					return keyCount{}, false
				}
				return keyCount{f.Fixed, f.Per}, true
			}
			return g.fieldKeyCount(xx)
		case *ast.CallExpr:
			_, m := g.Resolve(xx)
			if m == nil || m.Kind != ruleset.KindNewScript {
				// a function that makes the script: NewScript(n*4, src)
				if k, ok := g.makerKeyCount(e, xx); ok {
					return k, true
				}
				// a getter of the package that returns one script
				// (LPOPRPUSH(cnx), which makes it on first use)
				fn, _ := typeutil.Callee(g.info, xx).(*types.Func)
				if fn == nil || fn.Pkg() != g.pkg || g.decls[fn.Origin()] == nil {
					return keyCount{}, false
				}
				decl := g.decls[fn.Origin()]
				ret := g.oneReturn(decl)
				if ret == nil {
					return keyCount{}, false
				}
				x, e = ret, g.writerEval(decl)
				continue
			}
			for i, a := range xx.Args {
				if i != m.Script {
					if tv := g.info.Types[a]; tv.Value != nil && tv.Value.ExactString() == "-1" {
						return keyCount{fixed: -1}, true // the count is Do's first argument
					}
					return e.keyCount(a, 0)
				}
			}
			return keyCount{}, false
		default:
			return keyCount{}, false
		}
	}
	return keyCount{}, false
}

// fieldKeyCount returns the key count of the scripts a field is set to,
// when every write of the field gives the same one.
func (g *Engine) fieldKeyCount(x *ast.SelectorExpr) (keyCount, bool) {
	s, ok := g.info.Selections[x]
	if !ok || s.Kind() != types.FieldVal {
		return keyCount{}, false
	}
	v, _ := s.Obj().(*types.Var)
	writes, bad := g.fieldWrites()
	if bad[v] || len(writes[v]) == 0 {
		return keyCount{}, false
	}
	var k keyCount
	for i, w := range writes[v] {
		if _, isSel := ast.Unparen(w.value).(*ast.SelectorExpr); isSel {
			return keyCount{}, false // one field set from another
		}
		kw, ok := g.scriptKeyCount(g.writerEval(w.decl), w.value)
		if !ok || i > 0 && kw != k {
			return keyCount{}, false
		}
		k = kw
	}
	return k, true
}

// keyCount evaluates a script's key count: an integer constant, len(x),
// and their sums, differences and products by constants, through local
// variables set once.
func (e *evaluator) keyCount(x ast.Expr, depth int) (keyCount, bool) {
	info := e.g.info
	x = ast.Unparen(x)
	if tv := info.Types[x]; tv.Value != nil {
		n, ok := constInt(tv.Value)
		return keyCount{fixed: int(n)}, ok && n >= 0
	}
	if depth > maxChain {
		return keyCount{}, false
	}
	switch x := x.(type) {
	case *ast.CallExpr:
		if isBuiltin(info, x.Fun, "len") {
			return keyCount{per: 1}, true
		}
	case *ast.Ident:
		if rhs := e.setOnce(x); rhs != nil {
			return e.keyCount(rhs, depth+1)
		}
	case *ast.BinaryExpr:
		l, okl := e.keyCount(x.X, depth+1)
		r, okr := e.keyCount(x.Y, depth+1)
		if !okl || !okr {
			return keyCount{}, false
		}
		switch x.Op {
		case token.ADD:
			return keyCount{l.fixed + r.fixed, l.per + r.per}, true
		case token.SUB:
			if r.per == 0 && l.fixed >= r.fixed {
				return keyCount{l.fixed - r.fixed, l.per}, true
			}
		case token.MUL:
			if l.per == 0 {
				l, r = r, l
			}
			if r.per == 0 {
				return keyCount{l.fixed * r.fixed, l.per * r.fixed}, true
			}
		}
	}
	return keyCount{}, false
}

// keyCountScript fixes the run of a redigo script call: its ARGV are the
// arguments after the keys, and its client is the argument that is one.
func (g *Engine) keyCountScript(e *evaluator, call *ast.CallExpr, m *ruleset.Method, run *ScriptRun) {
	if run == nil || len(m.Keys) != 1 || !m.Keys[0].KeyCount {
		return
	}
	sel := m.Keys[0]
	for _, a := range call.Args[:min(sel.Param, len(call.Args))] {
		if g.TypeRole(g.info.TypeOf(a)) != "" {
			run.Cluster = g.clusterCapable(a)
		}
	}
	run.Args, run.ArgsOpen = nil, true
	_, args, ok := g.keyCountSplit(e, call, sel)
	if !ok || hasMany(args) {
		return
	}
	for _, el := range args {
		run.Args = append(run.Args, el.alts)
	}
	run.ArgsOpen = false
}
