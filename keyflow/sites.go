package keyflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// A Site is one Redis call resolved through the rules: the command it
// sends and its keys, the script or function it runs, the transaction it
// opens. A call to a function that passes its parameters' keys to commands
// (a wrapper, by its summary or fact) gives one Site for each such command.
type Site struct {
	Call   *ast.CallExpr
	Callee *types.Func
	// Method is the rule of the call; nil for a call through a wrapper's
	// summary and for FunctionLoad.
	Method *ruleset.Method
	// Command is the Redis command, upper case ("RENAME"), when known.
	Command string
	// Name is how messages name the call: "RENAME", "WATCH transaction",
	// "RENAME (through swap at swap.go:12)".
	Name string
	// Keys are the key arguments, each with its possible values; Open is
	// true when the call has keys that cannot be seen (a slice from a
	// parameter). For a transaction they are all its keys: the watched
	// ones, then those of every command sent on its handles.
	Keys []Group
	Open bool
	// SortRefused are the options of a SORT that Redis Cluster refuses:
	// every GET, and BY with a '*' pattern (sortpatterns_test.go).
	SortRefused []SortOption
	// DB is the database argument of COPY or MOVE, when it is a constant.
	DB    ast.Expr
	DBNum int64
	// Cluster is true when the call is made on a client that may talk to
	// a Redis Cluster, by its static type (the rules' cluster types, or a
	// type that embeds one); false on a transaction or pipeline handle.
	Cluster bool

	// Read is true for a command that only reads its keys, Write for one
	// that may modify them (the command table's flags). KeyArgs are the
	// call's arguments that are keys or the command's name, not values.
	Read, Write bool
	KeyArgs     map[int]bool

	// Script is the script or function that the call runs, when its
	// source or name is known; ScriptDef a script made or loaded with no
	// call in sight; Library a function library loaded.
	Script    *ScriptRun
	ScriptDef *ScriptRef
	Library   *ScriptRef

	// Tx is the transaction or pipeline that the call opens.
	Tx *Tx
	// Handle is the transaction or pipeline the call is made on; nil for
	// a client.
	Handle *Handle
	// Through is true for a command sent by a wrapper that the call calls.
	Through bool
	// rawParam is 1 + the index of the function's variadic parameter that
	// a raw Do passes on as the command and its arguments; 0 otherwise.
	rawParam int
	// named is true for a raw command that the call names, through a
	// function that passes its arguments on to Do (addRawPassedOn): the
	// function is not reported for it, its callers are.
	named bool
	// records is 1 + the index of the function's parameter whose records
	// (maps of command names to their arguments) a raw send sends: its
	// callers give the commands as data (records.go).
	records int
	// scriptParam is 1 + the index of the function's parameter that holds
	// the script a call runs, when the caller chooses it; 0 otherwise.
	scriptParam int
	// scriptField is the field of the receiver that holds the script a
	// call runs (s.Source), when the callers' receiver chooses it.
	scriptField string
	// Queued is true for a command that a function the call calls sends on
	// the pipeline or transaction passed to it as onArg: it belongs to the
	// transaction of that handle.
	Queued bool
	onArg  ast.Expr
	// onField is the field of the struct onArg that holds the pipeline,
	// when it is one: opts.tx.
	onField string
	// exec is true for an Exec that a called function sends on the
	// pipeline passed to it as onArg (exec.go).
	exec bool
	// onConn is true for a command that a called function sends on the
	// connection passed to it as onArg: it belongs to the MULTI open on
	// that connection, if any (clients.go).
	onConn bool
	// SplitAlone is true for a command that the client splits by slot
	// when it is sent alone (MGET, DEL on go-redis's ClusterClient in a
	// package that installs the resolver of the rules' split-with): its
	// keys need not share a slot.
	SplitAlone bool

	// Col is the colocation verdict over Keys and PatternKeys, and Chosen
	// the keys that have it (when there are two groups or more).
	Col    keyspace.Colocation
	Chosen []Value
	// Carried is true when the keys may not share a slot only because one
	// is a parameter of the function, passed on as it is: the function's
	// callers are checked instead (Func.Carried).
	Carried bool
	// CallerKeys are the keys, one for each that a finding names, when
	// every key the call sends comes from its function's callers (keys
	// ...string, a []string, each joined to a prefix; parameters, such as
	// RPopLPush(source, destination)) and the function is one that
	// callers outside the module reach (reachedFromOutside). Those
	// callers are not checked (apicallers.go).
	CallerKeys Group
	// runArgs are the ARGV of a script that the callers choose
	// (scriptParam), when runArgsKnown; runArgsOpen when some are not seen.
	runArgs                   []Group
	runArgsOpen, runArgsKnown bool
	// keysChecked is true for a command that a called function sends with
	// keys of its own, checked there: only its script is the caller's.
	keysChecked bool
	// elemsHere is true for keys built from the elements of a slice
	// parameter that are checked where they are built, not carried: the
	// function has no caller in the package (carryElems).
	elemsHere bool
	// ScriptAtCallers is true when the script's KEYS or ARGV are
	// parameters of an unexported function, passed on as they are: the
	// Lua checks run at its callers, with their values (WrappedCall.Run).
	ScriptAtCallers bool
}

// callersScript reports whether the callers choose the script the site
// runs: by a parameter, or by their receiver's field.
func (site *Site) callersScript() bool {
	return site.scriptParam > 0 || site.scriptField != ""
}

// AllKeys returns the key groups that must share one slot.
func (s *Site) AllKeys() []Group { return s.Keys }

// A SortOption is a BY or GET option of a SORT, with its pattern.
type SortOption struct {
	Option  string // BY or GET
	Pattern Value
}

// A TxKind says what a Tx is.
type TxKind int

const (
	TxWatch TxKind = iota // Watch(ctx, fn, keys...)
	TxMulti               // TxPipelined or TxPipeline: MULTI/EXEC
	TxPlain               // Pipelined or Pipeline: sent together, not a transaction
)

// A Tx is one call of Watch, TxPipelined, TxPipeline, Pipelined or
// Pipeline.
type Tx struct {
	Site *Site
	Kind TxKind
	// Lit is the function literal given to Watch, TxPipelined or
	// Pipelined, when it is in sight.
	Lit *ast.FuncLit
	// Watched are the keys given to Watch.
	Watched     []Group
	WatchedOpen bool
	// OnTx is true for a TxPipelined or TxPipeline made on a *redis.Tx: its
	// commands belong to the Watch transaction of that Tx.
	OnTx bool
	// Sites are the calls made on the handles this Tx makes, and on the
	// handles of the pipelines made from those, in order.
	Sites []*Site
	// Sent is the Exec that sends the transaction, when it is in sight; a
	// transaction that later Execs send again has one site for each
	// (exec.go).
	Sent *Site
}

// A HandleKind says how the commands sent on a handle run.
type HandleKind int

const (
	HandleTx    HandleKind = iota // the *redis.Tx given to a Watch function: commands run at once
	HandleMulti                   // a TxPipelined or TxPipeline: commands queued in MULTI/EXEC
	HandlePlain                   // a Pipelined or Pipeline: commands sent together, not in MULTI
)

// A Handle is what a variable holding a *redis.Tx or a pipeline stands for.
type Handle struct {
	Kind HandleKind
	// Made is the call that made it; Watch is the Watch it derives from,
	// or nil.
	Made  *Tx
	Watch *Tx
	// From is the handle Made was called on, or nil for a client.
	From *Handle
}

// addSites resolves one call of s and adds its sites.
func (g *Engine) addSites(s *Func, call *ast.CallExpr) {
	e := s.e
	fn, m := g.Resolve(call)
	if fn == nil {
		return
	}
	if m == nil {
		if x := g.librarySource(call); x != nil {
			site := &Site{Call: call, Callee: fn, Name: fn.Name()}
			if ref, ok := g.scriptOf(e, x, "library"); ok {
				site.Library = &ref
			}
			s.Sites = append(s.Sites, site)
			return
		}
		g.addWrapperSites(s, call, fn)
		return
	}
	site := &Site{Call: call, Callee: fn, Method: m, Command: strings.ToUpper(m.Command), Name: commandName(m, fn), Cluster: g.clusterCapable(receiver(call))}
	switch m.Kind {
	case ruleset.KindCommand, ruleset.KindFunction:
		site.Keys, site.Open = g.selectKeys(e, call, m.Keys)
		site.SortRefused = g.sortRefused(e, call, m)
		site.DB, site.DBNum = g.dbArg(call, m)
		site.SplitAlone = g.splitAlone(call, fn, m)
		g.commandFlags(site, call, m)
		if m.Kind == ruleset.KindFunction {
			site.Script = g.functionRun(e, call, m, site.Keys, site.Open || hasSpread(site.Keys))
		}
	case ruleset.KindScript, ruleset.KindScriptSHA:
		site.Keys, site.Open = g.selectKeys(e, call, m.Keys)
		site.Script = g.scriptRun(e, call, m, site.Keys, site.Open || hasSpread(site.Keys))
		g.keyCountScript(e, call, m, site.Script)
		if site.Script == nil {
			site.scriptParam = g.scriptParamOf(e, call, m)
			if site.scriptParam == 0 {
				site.scriptField = g.scriptFieldOf(e, call, m)
			}
			if site.callersScript() && m.Args != nil {
				// The callers give the script; the arguments are these.
				site.runArgs, site.runArgsOpen = g.selectKeys(e, call, []ruleset.Selector{*m.Args})
				site.runArgsKnown = true
			}
		}
	case ruleset.KindNewScript, ruleset.KindScriptLoad:
		if m.Script >= 0 && m.Script < len(call.Args) {
			if ref, ok := g.scriptOf(e, call.Args[m.Script], g.initName(call)); ok {
				site.ScriptDef = &ref
			}
		}
	case ruleset.KindRaw:
		if m.Value && !g.valueSent(s, call) {
			return // a command value never sent here: a mock's reply
		}
		if !g.raw(e, site) {
			// Do(ctx, args...) of the function's own variadic arguments:
			// its callers name the command.
			if site.rawParam = g.rawParamOf(e, call, m); site.rawParam > 0 {
				site.Name = fn.Name()
			} else if site.records = g.recordsOf(e, site); site.records > 0 {
				// Send(cmd, args...) of the records its callers give.
				site.Name = fn.Name()
			} else if !g.rawSpread(e, site) {
				// Do(ctx, args...) of a slice the function builds.
				return
			}
		}
	case ruleset.KindSend:
		if !g.send(s, site) {
			return
		}
	case ruleset.KindBuilder, ruleset.KindBuilderKeys:
		return // a step of a command built for a send method (clients.go)
	case ruleset.KindWatch:
		site.Name = "WATCH transaction"
		tx := &Tx{Site: site, Kind: TxWatch, Lit: g.funcArg(e, call, m.Fn)}
		tx.Watched, tx.WatchedOpen = g.selectKeys(e, call, m.Keys)
		site.Tx = tx
	case ruleset.KindTxPipelined, ruleset.KindTxPipeline:
		site.Name = "MULTI/EXEC transaction"
		site.Tx = &Tx{Site: site, Kind: TxMulti, OnTx: g.onTx(call)}
		if m.Kind == ruleset.KindTxPipelined {
			site.Tx.Lit = g.funcArg(e, call, m.Fn)
		}
	case ruleset.KindPipelined, ruleset.KindPipeline:
		site.Tx = &Tx{Site: site, Kind: TxPlain}
		if m.Kind == ruleset.KindPipelined {
			site.Tx.Lit = g.funcArg(e, call, m.Fn)
		}
	}
	s.Sites = append(s.Sites, site)
	if site.Tx != nil {
		s.Txs = append(s.Txs, site.Tx)
	}
}

func commandName(m *ruleset.Method, fn *types.Func) string {
	if m.Command != "" {
		return strings.ToUpper(m.Command)
	}
	return fn.Name()
}

// commandFlags sets what a command does with its keys, from the command
// table, and which arguments are keys.
func (g *Engine) commandFlags(site *Site, call *ast.CallExpr, m *ruleset.Method) {
	if m.Command == "" {
		return
	}
	cmd := g.rules.Command(m.Command)
	if cmd == nil {
		return
	}
	site.KeyArgs = map[int]bool{}
	for _, sel := range m.Keys {
		if sel.Field != "" {
			continue
		}
		if sel.Variadic && !call.Ellipsis.IsValid() {
			for i := sel.Param; i < variadicEnd(sel, len(call.Args)); i += max(sel.Step, 1) {
				site.KeyArgs[i] = true
			}
		} else {
			site.KeyArgs[sel.Param] = true
		}
	}
	setFlags(site, cmd)
}

func setFlags(site *Site, cmd *ruleset.Command) {
	site.Write = cmd.IsWrite()
	site.Read = !site.Write && slices.Contains(cmd.Flags, "readonly") && len(cmd.Keys) > 0
}

// A rawCall is Do(ctx, "CMD", args...) with its constant arguments.
type rawCall struct {
	args []ast.Expr // from the command's name on
	argv []string   // their constant text, "" when not constant
	from int        // the index of args[0] in the call's arguments
	// open is true when arguments after args may hold keys that cannot be
	// placed: a flattened argument ends args.
	open bool
}

// flatScalar reports whether a value of type t is one argument when radix
// flattens it: a string, a number, a bool or a []byte. A map, a struct, a
// slice, or an interface whose dynamic type is unknown may be many.
func flatScalar(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsString|types.IsNumeric|types.IsBoolean) != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// constArgv returns the constant text of each argument, "" for one that
// is not a constant string.
func (g *Engine) constArgv(args []ast.Expr) []string {
	argv := make([]string, len(args))
	for i, a := range args {
		if tv := g.info.Types[a]; tv.Value != nil {
			argv[i], _ = constString(tv.Value)
		}
	}
	return argv
}

// rawArgs returns the arguments of a raw Do call, or false when its
// command's name is not a constant.
func (g *Engine) rawArgs(call *ast.CallExpr, m *ruleset.Method) (rawCall, bool) {
	if m.Args == nil || spread(call, m) || m.Args.Param >= len(call.Args) {
		return rawCall{}, false
	}
	r := rawCall{args: call.Args[m.Args.Param:], from: m.Args.Param}
	if m.Args.Flat {
		// radix's FlatCmd: a map, struct or slice argument is as many
		// arguments as it holds, so where those after it fall is unknown.
		for i, a := range r.args {
			if i > 0 && !flatScalar(g.info.TypeOf(a)) {
				r.args, r.open = r.args[:i], true
				break
			}
		}
	}
	r.argv = g.constArgv(r.args)
	return r, r.argv[0] != ""
}

// raw resolves Do(ctx, "CMD", args...) through the command's key specs:
// the one mapping of a raw call's arguments to keys. It reports false when
// the command is not known.
func (g *Engine) raw(e *evaluator, site *Site) bool {
	r, ok := g.rawArgs(site.Call, site.Method)
	if !ok {
		return false
	}
	return g.rawKeys(e, site, r)
}

// rawKeys resolves the arguments of a raw command, from its name on.
func (g *Engine) rawKeys(e *evaluator, site *Site, r rawCall) bool {
	call := site.Call
	cmd := g.rules.Command(r.argv[0])
	if len(r.argv) > 1 && r.argv[1] != "" {
		cmd = g.rules.Command(r.argv[0], r.argv[1])
	}
	if cmd == nil {
		return false
	}
	site.Command = strings.ToUpper(r.argv[0])
	site.Name = site.Command
	site.KeyArgs = map[int]bool{r.from: true}
	site.Open = site.Open || r.open
	pos, _ := cmd.KeyPositions(r.argv)
	var seen []int
	for _, p := range pos {
		if p < len(r.args) {
			site.Keys = append(site.Keys, e.keys(r.args[p]))
			site.KeyArgs[r.from+p] = true
			seen = append(seen, p)
		}
	}
	setFlags(site, cmd)
	if site.Command == "SORT" || site.Command == "SORT_RO" {
		site.SortRefused = rawSortRefused(e, r)
	}
	site.Script, site.Library = g.rawScript(e, call, r, seen, site.Keys)
	return true
}

// selectKeys returns the keys that selectors pick out of a call's
// arguments. open is true when some keys cannot be seen.
func (g *Engine) selectKeys(e *evaluator, call *ast.CallExpr, sels []ruleset.Selector) (groups []Group, open bool) {
	args := call.Args
	for _, sel := range sels {
		if sel.Param >= len(args) {
			continue
		}
		if sel.KeyCount {
			keys, o := g.keyCountKeys(e, call, sel)
			groups, open = append(groups, keys...), open || o
			continue
		}
		arg := args[sel.Param]
		if sel.Field != "" {
			if sl, ok := g.ssaFieldSlice(e, call, arg, sel.Field); ok && (sel.Variadic || sel.Slice) && !sel.PerElement() && !sel.MapKeys {
				// args.Streams = append(args.Streams, k) after the literal.
				keys, o := sliceGroups(e, sl, sel)
				groups, open = append(groups, keys...), open || o
				continue
			}
			arg = g.fieldExpr(e, arg, sel.Field)
			if arg == nil {
				open = true
				continue
			}
		}
		switch {
		case sel.PerElement() || sel.MapKeys:
			keys, o := g.elemKeys(e, arg, sel)
			groups, open = append(groups, keys...), open || o
		case sel.Variadic && sel.Step >= 2 && len(args) == sel.Param+1 && !call.Ellipsis.IsValid() && g.flattened(call, arg) == flatSlice:
			// MSet(ctx, []interface{}{k1, v1, k2, v2}): the client sends
			// the slice's elements as the pairs (TestMSetFlattened).
			keys, o := sliceGroups(e, g.keySlice(e, call, arg), sel)
			groups, open = append(groups, keys...), open || o
		case sel.Variadic && sel.Step == 2 && len(args) == sel.Param+1 && !call.Ellipsis.IsValid() && g.flattened(call, arg) == flatMap:
			// MSet(ctx, map[string]interface{}{...}): the client sends the
			// map's keys as the pairs' keys (TestMSetFlattened).
			keys, o := g.elemKeys(e, arg, ruleset.Selector{Param: sel.Param, MapKeys: true, Step: 1})
			if o {
				if p := e.mapParam(arg); p != "" {
					keys, o = []Group{{{keyspace.Unknown(p+"...", exprName(arg)+"...", false), arg.Pos()}}}, false
				}
			}
			groups, open = append(groups, keys...), open || o
		case sel.Variadic && !(call.Ellipsis.IsValid() && len(args) == sel.Param+1):
			for i := sel.Param; i < variadicEnd(sel, len(args)); i += max(sel.Step, 1) {
				groups = append(groups, g.keyArg(e, args[i]))
			}
		case (sel.Variadic || sel.Slice) && !sel.Half && sel.Step <= 1 && e.spreadParam(arg) != "":
			// keys ...string or keys []string of the function, passed on:
			// its callers' keys.
			groups = append(groups, Group{{keyspace.Unknown(e.spreadParam(arg)+"...", exprName(arg)+"...", false), arg.Pos()}})
		case sel.Variadic || sel.Slice:
			sl := g.keySlice(e, call, arg)
			if sl.open && !sel.Half && sel.Step <= 1 {
				// append([]string{lock}, keys...) of the function's own
				// keys: its callers give them ("$N...").
				if ssl, ok := g.ssaSpread(e, call, arg); ok {
					sl = ssl
				}
			}
			keys, o := sliceGroups(e, sl, sel)
			groups, open = append(groups, keys...), open || o
		default:
			groups = append(groups, g.keyArg(e, arg))
		}
	}
	return groups, open
}

// sliceGroups returns the keys that a selector of a slice picks out of
// what is known of it: every element or every Step-th, of the first half
// for XREAD's streams, an element that stands for many twice.
func sliceGroups(e *evaluator, sl slice, sel ruleset.Selector) (groups []Group, open bool) {
	elems := sl.elems
	if sel.Half {
		half, ok := firstHalf(sl)
		if !ok {
			return nil, true
		}
		elems = half
	}
	for i := 0; i < len(elems); i += max(sel.Step, 1) {
		el := elems[i]
		groups = append(groups, el.alts)
		if el.many {
			groups = append(groups, e.again(el))
		}
	}
	return groups, sl.open
}

// firstHalf returns the first half of a slice whose two halves pair up,
// XREADGROUP's and XREAD's streams and then as many IDs. A slice of known
// elements splits at its middle. One built of loops, append(keys, ids...)
// with keys and ids each appended in a loop over the same streams, splits
// where its elements do when the halves are built alike, each element
// that stands for many against one that does: the command needs as many
// IDs as streams, so the first half is what the first loops added. One
// made twice as long as n and filled at i and n+i splits where the
// stores do. Anything else is not split.
func firstHalf(sl slice) ([]elem, bool) {
	if sl.open {
		return nil, false
	}
	n := len(sl.elems)
	if sl.half > 0 && sl.half < n {
		return sl.elems[:sl.half], true // stores at i and at n+i
	}
	if !hasMany(sl.elems) {
		return sl.elems[:n/2], true
	}
	if n%2 != 0 {
		return nil, false
	}
	for i := range n / 2 {
		if sl.elems[i].many != sl.elems[i+n/2].many {
			return nil, false
		}
	}
	return sl.elems[:n/2], true
}

// What a client makes of the only argument of a variadic pairs parameter.
const (
	flatNone  = iota // one argument, sent as it is
	flatSlice        // its elements are the pairs
	flatMap          // its keys and values are the pairs
)

// flattened says whether the client that call goes to spreads arg, the
// only argument of a pairs parameter, into the pairs: when the client's
// rules list arg's form in flattens (go-redis's appendArgs, whose type
// switch matches those exact types, and no named type).
func (g *Engine) flattened(call *ast.CallExpr, arg ast.Expr) int {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return flatNone
	}
	c := g.rules.ClientOf(fn.Pkg().Path())
	form := flatForm(g.info.TypeOf(arg))
	if c == nil || form == "" || !slices.Contains(c.Flattens, form) {
		return flatNone
	}
	if strings.HasPrefix(form, "map") {
		return flatMap
	}
	return flatSlice
}

// flatForm names t as a form of ruleset.FlatForms, or "": []string,
// []interface{}, map[string]interface{}, map[string]string, none of them
// a named type nor of named elements.
func flatForm(t types.Type) string {
	str := func(t types.Type) bool {
		b, ok := types.Unalias(t).(*types.Basic)
		return ok && b.Kind() == types.String
	}
	empty := func(t types.Type) bool {
		i, ok := types.Unalias(t).(*types.Interface)
		return ok && i.Empty()
	}
	switch t := types.Unalias(t).(type) {
	case *types.Slice:
		switch {
		case str(t.Elem()):
			return "[]string"
		case empty(t.Elem()):
			return "[]interface{}"
		}
	case *types.Map:
		switch {
		case !str(t.Key()):
		case empty(t.Elem()):
			return "map[string]interface{}"
		case str(t.Elem()):
			return "map[string]string"
		}
	}
	return ""
}

// elemKeys returns the keys that N[].F, N[][K] or N{} pick out of a slice
// or map that x builds: a composite literal, or a local variable set once
// to one (for N{}, the keys mapKeys sees). Anything else (a parameter, a
// call, a slice that grows by append) holds keys that are not seen: open.
func (g *Engine) elemKeys(e *evaluator, x ast.Expr, sel ruleset.Selector) (groups []Group, open bool) {
	if sel.MapKeys {
		elems, ok := e.mapKeys(x, x.Pos())
		return e.elemGroups(elems), !ok
	}
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if id, isID := ast.Unparen(x).(*ast.Ident); isID {
		if v := e.localVar(id); v != nil && len(e.appends[v]) == 0 && !g.indexWritten()[v] {
			lit, ok = ast.Unparen(e.setOnce(id)).(*ast.CompositeLit)
		}
	}
	if !ok {
		return nil, true
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		var k ast.Expr
		if sel.ElemField != "" {
			k = g.fieldExpr(e, el, sel.ElemField)
		} else {
			k = innerElem(e, el, sel.ElemIndex)
		}
		if k == nil {
			open = true
			continue
		}
		groups = append(groups, e.keys(k))
	}
	return groups, open
}

// innerElem returns element i of the slice literal that x builds, or nil.
func innerElem(e *evaluator, x ast.Expr, i int) ast.Expr {
	x = ast.Unparen(x)
	if id, ok := x.(*ast.Ident); ok {
		if rhs := e.setOnce(id); rhs != nil {
			x = ast.Unparen(rhs)
		}
	}
	lit, ok := x.(*ast.CompositeLit)
	if !ok || i >= len(lit.Elts) {
		return nil
	}
	for _, el := range lit.Elts[:i+1] {
		if _, ok := el.(*ast.KeyValueExpr); ok {
			return nil // indexed elements: [][]interface{}{{2: v, 0: key}}
		}
	}
	return lit.Elts[i]
}

// variadicEnd returns where the keys of a variadic selector end among a
// call's n arguments: at the end, or half way for N...half.
func variadicEnd(sel ruleset.Selector, n int) int {
	if sel.Half {
		return sel.Param + (n-sel.Param)/2
	}
	return n
}

// elemGroups returns the key groups of elements: one for each, and one
// more, as another turn of its loop builds it, for an element that
// stands for many.
func (e *evaluator) elemGroups(elems []elem) []Group {
	var groups []Group
	for _, el := range elems {
		groups = append(groups, el.alts)
		if el.many {
			groups = append(groups, e.again(el))
		}
	}
	return groups
}

func hasMany(elems []elem) bool {
	for _, el := range elems {
		if el.many {
			return true
		}
	}
	return false
}

// fieldExpr returns the expression that sets field name of the struct that
// x builds: &T{Name: v}, T{Name: v}, or a variable set once to one.
func (g *Engine) fieldExpr(e *evaluator, x ast.Expr, name string) ast.Expr {
	switch x := ast.Unparen(x).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return g.fieldExpr(e, x.X, name)
		}
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
					return kv.Value
				}
			}
		}
	case *ast.Ident:
		if rhs := e.setOnce(x); rhs != nil {
			return g.fieldExpr(e, rhs, name)
		}
	}
	return nil
}

// sortRefused returns the BY and GET options of a SORT that Redis Cluster
// refuses: Redis 7.0 in cluster mode denies every GET and every BY with a
// '*' pattern, whatever hashtag the pattern carries; BY without one
// (nosort) does not sort, and is accepted.
func (g *Engine) sortRefused(e *evaluator, call *ast.CallExpr, m *ruleset.Method) []SortOption {
	var out []SortOption
	for _, sel := range m.Patterns {
		groups, _ := g.selectKeys(e, call, []ruleset.Selector{sel})
		for _, grp := range groups {
			out = appendRefused(out, strings.ToUpper(sel.Field), grp)
		}
	}
	return out
}

// rawSortRefused returns the refused BY and GET options of a raw SORT or
// SORT_RO: the argument after each BY and GET (golang/gddo's
// c.Do("SORT", key, "BY", "pkg:*->score", "GET", "pkg:*->path")).
func rawSortRefused(e *evaluator, r rawCall) []SortOption {
	return argvSortRefused(r.argv, func(i int) Group { return e.keys(r.args[i]) })
}

// argvSortRefused returns the refused BY and GET options of a SORT's
// arguments argv, the command's name first, pattern(i) the values of
// argument i.
func argvSortRefused(argv []string, pattern func(i int) Group) []SortOption {
	var out []SortOption
	for i := 2; i+1 < len(argv); i++ {
		if opt := strings.ToUpper(argv[i]); opt == "BY" || opt == "GET" {
			out = appendRefused(out, opt, pattern(i+1))
			i++
		}
	}
	return out
}

// appendRefused appends option opt of pattern grp when Redis Cluster
// refuses it: a GET, or a BY whose literal text holds a '*'.
func appendRefused(out []SortOption, opt string, grp Group) []SortOption {
	if len(grp) == 0 {
		return out
	}
	v := grp[0]
	if opt == "BY" && !slices.ContainsFunc(v.Key.Parts, func(p keyspace.Part) bool { return !p.Unknown && strings.Contains(p.Lit, "*") }) {
		return out
	}
	return append(out, SortOption{opt, v})
}

// dbArg returns COPY's database argument when it is a constant.
func (g *Engine) dbArg(call *ast.CallExpr, m *ruleset.Method) (ast.Expr, int64) {
	if m.DB < 0 || m.DB >= len(call.Args) {
		return nil, 0
	}
	x := call.Args[m.DB]
	if tv := g.info.Types[x]; tv.Value != nil {
		if db, ok := constInt(tv.Value); ok {
			return x, db
		}
	}
	return nil, 0
}

// addWrapperSites adds the commands that a called function sends with
// keys built from its parameters: its summary here, or a fact from its
// package.
func (g *Engine) addWrapperSites(s *Func, call *ast.CallExpr, fn *types.Func) {
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		// A method of a project's interface: what each of its
		// implementations in sight sends (ifaceimpl.go).
		impls, calls := g.interfaceCalls(call, fn)
		for i, impl := range impls {
			g.addWrapped(s, call, impl, calls[i])
		}
		return
	}
	if wrapped, ok := g.wrapperCalls(fn); ok {
		g.addWrapped(s, call, fn, wrapped)
	}
}

// addWrapped adds at a call of fn the commands that fn carries to its
// callers.
func (g *Engine) addWrapped(s *Func, call *ast.CallExpr, fn *types.Func, wrapped []WrappedCall) {
	for _, w := range wrapped {
		site := &Site{Call: call, Callee: fn, Command: w.Command, Through: true, SplitAlone: w.Split,
			Name: fmt.Sprintf("%s (through %s at %s)", w.Command, fn.Name(), w.Where)}
		if w.Raw > 0 {
			g.addRawPassedOn(s, site, call, fn, w)
			continue
		}
		if w.Records > 0 {
			g.addRecords(s, call, fn, w)
			continue
		}
		if w.On == 0 && !w.OnRecv && (len(w.Groups) > 0 || w.Script > 0 || w.Run != nil) {
			g.addPassedOn(s, site, call, fn, w)
			continue
		}
		if w.On > 0 || w.OnRecv {
			var on ast.Expr
			switch {
			case w.OnRecv:
				on = receiver(call)
			case w.On-1 < len(call.Args):
				on = call.Args[w.On-1]
			}
			if on == nil {
				continue
			}
			site.Queued, site.onArg, site.onField, site.Open, site.exec, site.onConn = true, on, w.OnField, w.Open, w.Exec, w.Conn
			keys, open := g.passedGroups(s.e, call, fn.Signature(), w.Groups)
			site.Keys, site.Open = keys, site.Open || open
			s.Sites = append(s.Sites, site)
			continue
		}
		for _, k := range w.Keys {
			var grp Group
			for _, sk := range g.substitute(s.e, call, k) {
				grp = append(grp, Value{sk, call.Pos()})
			}
			site.Keys = append(site.Keys, grp)
		}
		s.Sites = append(s.Sites, site)
	}
}

// wrapperCalls returns the commands that fn carries to its callers: its
// summary here, or its fact.
func (g *Engine) wrapperCalls(fn *types.Func) ([]WrappedCall, bool) {
	if decl := g.decls[fn]; decl != nil && decl.Body != nil {
		ws := g.summarize(decl)
		if ws.busy {
			return nil, false
		}
		return ws.Carried, true
	}
	var f KeyWrapper
	if !g.facts.ImportObjectFact(fn, &f) {
		return nil, false
	}
	return f.Calls, true
}

// funcArg returns the function literal passed as parameter i, directly or
// through a local variable set once.
func (g *Engine) funcArg(e *evaluator, call *ast.CallExpr, i int) *ast.FuncLit {
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	x := ast.Unparen(call.Args[i])
	if id, ok := x.(*ast.Ident); ok {
		if rhs := e.setOnce(id); rhs != nil {
			x = ast.Unparen(rhs)
		}
	}
	lit, _ := x.(*ast.FuncLit)
	return lit
}

// params returns the parameters of a function literal.
func (g *Engine) params(lit *ast.FuncLit) []*types.Var {
	var vars []*types.Var
	for _, f := range lit.Type.Params.List {
		for _, n := range f.Names {
			if v, ok := g.info.Defs[n].(*types.Var); ok {
				vars = append(vars, v)
			}
		}
	}
	return vars
}

// finish builds the transaction model of a function once its sites are
// known: the handles that Watch, the pipelines and the variables they are
// kept in make; the handle each call is made on; each transaction's keys;
// and the commands whose keys the function's callers are checked for.
func (g *Engine) finish(s *Func) {
	g.rawTransactions(s)
	s.Handles = map[*types.Var]*Handle{}
	s.inline = map[*ast.CallExpr]*Handle{}
	s.Assigned = map[*ast.CallExpr]*types.Var{}
	if s.Decl != nil {
		s.Assigned = g.assignments(s.Decl.Body)
	}
	kept := map[*types.Var][]*Handle{} // the pipelines a variable is set to, in order
	handleOf := func(call *ast.CallExpr) *Handle {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := g.info.ObjectOf(id).(*types.Var)
		// A variable set to several pipelines in turn (p = rdb.TxPipeline()
		// again after an Exec) stands at each call for the last one made
		// before it.
		if kept := kept[v]; len(kept) > 1 {
			var last *Handle
			for _, h := range kept {
				if h.Made.Site.Call.Pos() < call.Pos() {
					last = h
				}
			}
			if last != nil {
				return last
			}
		}
		return s.Handles[v]
	}
	// The *redis.Tx of each Watch function first, then the pipelines in
	// document order: a pipeline's own pipelines come after it.
	for _, tx := range s.Txs {
		if tx.Kind == TxWatch && tx.Lit != nil {
			h := &Handle{Kind: HandleTx, Made: tx, Watch: tx}
			for _, v := range g.params(tx.Lit) {
				s.Handles[v] = h
			}
		}
	}
	for _, tx := range s.Txs {
		if tx.Kind == TxWatch {
			continue
		}
		h := &Handle{Kind: HandleMulti, Made: tx, From: handleOf(tx.Site.Call)}
		if tx.Kind == TxPlain {
			h.Kind = HandlePlain
		}
		if h.From != nil {
			h.Watch = h.From.Watch
		}
		switch {
		case tx.Lit != nil:
			for _, v := range g.params(tx.Lit) {
				s.Handles[v] = h
			}
		case tx.Site.Method != nil && (tx.Site.Method.Kind == ruleset.KindTxPipeline || tx.Site.Method.Kind == ruleset.KindPipeline):
			if v := s.Assigned[tx.Site.Call]; v != nil {
				s.Handles[v] = h
				kept[v] = append(kept[v], h)
			} else {
				s.inline[tx.Site.Call] = h // passed on as it is made
			}
		}
	}
	for _, site := range s.Sites {
		switch {
		case site.Queued:
			site.Handle = g.handleOfField(s, site.onArg, site.onField)
		case site.Through:
			continue
		default:
			site.Handle = handleOf(site.Call)
			if site.Handle == nil && site.Method != nil && site.Method.Script == ruleset.ReceiverParam {
				// script.Run(ctx, pipe, keys, ...): a script that its
				// receiver holds runs on the client it is given, here a
				// transaction's or a pipeline's.
				for _, arg := range site.Call.Args {
					if site.Handle = g.handleOfExpr(s, arg); site.Handle != nil {
						break
					}
				}
			}
		}
		for h := site.Handle; h != nil; h = h.From {
			h.Made.Sites = append(h.Made.Sites, site)
		}
	}
	// A function held in a variable may be given to several Watch calls:
	// its handle is the last one's, and its commands belong to each.
	byLit := map[*ast.FuncLit]*Tx{}
	for _, tx := range s.Txs {
		if tx.Kind == TxWatch && tx.Lit != nil {
			byLit[tx.Lit] = tx
		}
	}
	for _, tx := range s.Txs {
		if last := byLit[tx.Lit]; tx.Kind == TxWatch && last != nil && last != tx {
			tx.Sites = last.Sites
		}
	}
	// A transaction's keys: the watched ones, then those of every command
	// sent on its handles, up to the Exec that sends them (exec.go).
	for _, tx := range s.Txs {
		if tx.Kind == TxPlain || tx.OnTx || s.Decl == nil && tx.Kind == TxMulti && tx.Lit == nil {
			continue
		}
		g.transactionKeys(s, tx)
	}
	for _, site := range s.Sites {
		if !site.Queued {
			g.verdict(s, site)
		}
	}
	g.carryQueued(s)
}

// verdict sets a site's colocation verdict, and carries to the function's
// callers the commands that may not share a slot only because of a
// parameter passed on as it is. A call that runs only off a cluster, or
// only where its key list holds one key (guard.go), gets neither.
func (g *Engine) verdict(s *Func, site *Site) {
	if g.standaloneOnly(s.e, site) || g.oneKeyOnly(s.e, site) {
		return
	}
	groups := site.AllKeys()
	if site.rawParam > 0 {
		site.Carried = true
		s.Carried = append(s.Carried, WrappedCall{Command: site.Name, Where: g.where(site.Call.Pos()), Pos: site.Call.Pos(), Raw: site.rawParam})
		return
	}
	if site.records > 0 {
		site.Carried = true
		s.Carried = append(s.Carried, WrappedCall{Command: site.Name, Where: g.where(site.Call.Pos()), Pos: site.Call.Pos(), Records: site.records})
		return
	}
	if g.callersCanGive(s, site) {
		// Keys that no group names as the callers', traced on SSA to
		// them (callerroots.go).
		switch {
		case site.Open:
			site.CallerKeys = g.openCallerKeys(s, site, groups)
		case site.Tx != nil:
			site.CallerKeys = g.txCallerKeys(s, site, groups)
		case site.CallerKeys == nil && !hasSpread(groups) && !hasElems(groups):
			// (Keys of the callers' own collection are carried below.)
			site.CallerKeys = g.manyCallerKeys(s, site, groups)
		}
	}
	carryRun := g.scriptForCallers(s, site)
	if site.callersScript() || hasSpread(groups) && !uniqueOwn(groups) || carryRun {
		// The callers give the keys, or the script, or the script's keys
		// and arguments: they are checked. (Beside a key in a slot of its
		// own, the callers' keys are in another whatever they are.)
		site.Carried = true
		w := WrappedCall{Command: site.Name, Where: g.where(site.Call.Pos()), Pos: site.Call.Pos(), Split: site.SplitAlone, Script: site.scriptParam, ScriptField: site.scriptField, Open: site.Open, KeysChecked: site.keysChecked}
		if !site.keysChecked && site.callersScript() && !hasSpread(groups) && !carryRun && g.keysConflict(site, groups) {
			// The callers choose the script alone (an EVALSHA digest
			// loaded at run time, a source): the keys are the
			// function's, checked here, and the callers check only the
			// script with them.
			site.Carried, w.KeysChecked = false, true
		}
		if site.Method != nil {
			w.ReadOnly = g.readOnlyCommand(site.Method.Command)
			w.Cluster = g.clusterCapable(receiver(site.Call))
		}
		for _, grp := range site.Keys {
			w.Groups = append(w.Groups, keysOf(grp))
		}
		if site.callersScript() && site.runArgsKnown {
			w.ArgsKnown, w.ArgsOpen = true, site.runArgsOpen
			for _, grp := range site.runArgs {
				w.Args = append(w.Args, keysOf(grp))
			}
		}
		if carryRun {
			site.ScriptAtCallers = true
			run := site.Script
			ref := run.Ref
			w.Run, w.ArgsOpen, w.ReadOnly, w.Cluster = &ref, run.ArgsOpen, run.ReadOnly, run.Cluster
			for _, grp := range run.Args {
				w.Args = append(w.Args, keysOf(grp))
			}
		}
		s.Carried = append(s.Carried, w)
		site.CallerKeys = g.callerKeys(s, site, groups)
		return
	}
	if hasElems(groups) {
		if g.carryElems(s, site, groups) {
			site.Carried = true
			site.CallerKeys = g.callerKeys(s, site, groups)
			return
		}
		if site.elemsHere {
			return
		}
	}
	if len(groups) < 2 || site.keysChecked || g.keysConflict(site, groups) {
		return
	}
	if s.Obj != nil && g.behindForeign(s.Obj) {
		// Its callers reach it only through an interface of another
		// package, and never check what it would carry: checked here.
		return
	}
	site.Carried = true
	w := WrappedCall{Command: site.Name, Where: g.where(site.Call.Pos()), Pos: site.Call.Pos(), Split: site.SplitAlone}
	// The keys of the worst combination but for placeholders, an empty
	// string beside a key's other values (limitedKey := "" that a branch
	// sets): a caller would read one carried alone as a key of its own.
	_, chosen := Colocate(WithoutPlaceholders(groups))
	for _, k := range chosen {
		w.Keys = append(w.Keys, k.Key)
	}
	s.Carried = append(s.Carried, w)
	site.CallerKeys = g.paramCallerKeys(s, site)
}

// keysConflict sets a site's colocation verdict over its key groups, and
// reports whether the site is checked where it is: its keys may not share
// a slot, and not only because one is a parameter passed on as it is, or
// built around one that the callers give (shapedByCallers).
func (g *Engine) keysConflict(site *Site, groups []Group) bool {
	site.Col, site.Chosen = Colocate(groups)
	return site.Col.Verdict != keyspace.Maybe || !passesParam(site.Chosen) && !shapedByCallers(site.Chosen) || ownConflict(groups) || uniqueOwn(groups)
}

// uniqueOwn reports whether one of several groups is a key in a slot of
// its own (Unique), which no key a caller passes shares: the keys are
// checked where they are.
func uniqueOwn(groups []Group) bool {
	if len(groups) < 2 {
		return false
	}
	return slices.ContainsFunc(groups, Group.Unique)
}

// assignments maps each call in body to the variable its result is
// assigned to: v := call, v = call, var v = call.
func (g *Engine) assignments(body *ast.BlockStmt) map[*ast.CallExpr]*types.Var {
	out := map[*ast.CallExpr]*types.Var{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				// pipe, err := s.TxPipeline(), a function that returns
				// the pipeline with an error.
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					if id, ok := ast.Unparen(n.Lhs[0]).(*ast.Ident); ok {
						if v, ok := g.info.ObjectOf(id).(*types.Var); ok {
							out[call] = v
						}
					}
				}
			}
			if len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					if call, ok := ast.Unparen(r).(*ast.CallExpr); ok {
						if id, ok := ast.Unparen(n.Lhs[i]).(*ast.Ident); ok {
							if v, ok := g.info.ObjectOf(id).(*types.Var); ok {
								out[call] = v
							}
						}
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, x := range n.Values {
					if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
						if v, ok := g.info.Defs[n.Names[i]].(*types.Var); ok {
							out[call] = v
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// passesParam reports whether one of the keys is a parameter of the
// function, passed on as it is: only the function's callers know that key,
// so they are checked instead. A function that builds keys around its
// parameters ("emq:{" + queue + "}:pending") owns their design, and is
// checked itself.
func passesParam(keys []Value) bool {
	for _, k := range keys {
		if p := k.Key.Parts; len(p) == 1 && p[0].Unknown && (isParamID(p[0].ID) || isParamGetter(p[0].ID)) {
			return true
		}
	}
	return false
}

// shapedByCallers reports whether keys that show nothing of their slot
// here, none with literal text, are built around a parameter of the
// function: a prefix that its callers give, joined to each element of a
// slice ("<prefix><id>"). The callers' values give them a shape, and
// they are checked there.
func shapedByCallers(keys []Value) bool {
	param := false
	for _, k := range keys {
		if HasShape(k.Key) || Listed(k.Key) {
			// Keys a listing command's reply holds are many different
			// keys, in doubt here whatever prefix the callers give.
			return false
		}
		for _, p := range k.Key.Parts {
			param = param || p.Unknown && isParamID(p.ID)
		}
	}
	return param
}

// ownConflict reports whether the keys that a function builds itself,
// leaving out the parameters it passes on as they are, may already be in
// different slots, between keys that have a shape (HasShape): whatever
// the callers pass, the function's own keys are in doubt, so it is
// checked itself, not carried. dtm's RedisCheckAdjustAmount(rd, key, ...)
// runs a script with KEYS key, bkey1 and bkey2, the last two built from
// different values without a hashtag.
func ownConflict(groups []Group) bool {
	var own []Group
	for _, g := range groups {
		var keep Group
		for _, v := range g.WithoutPlaceholders() {
			if p := v.Key.Parts; len(p) == 1 && p[0].Unknown && isParamID(p[0].ID) {
				continue
			}
			if HasShape(v.Key) {
				keep = append(keep, v)
			}
		}
		if len(keep) > 0 {
			own = append(own, keep)
		}
	}
	if len(own) < 2 {
		return false
	}
	col, _ := Colocate(own)
	return col.Verdict != keyspace.Same
}

// isParamID reports whether id is a summary's "$N".
func isParamID(id string) bool {
	if len(id) < 2 || id[0] != '$' {
		return false
	}
	for _, c := range id[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
