package keyflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// Wrappers pass whole key lists and scripts on:
//
//	func (b *B) del(ctx context.Context, keys ...string) error { return b.rdb.Del(ctx, keys...).Err() }
//	func (b *B) run(ctx context.Context, s *redis.Script, keys []string, args ...any) error {
//		return s.Run(ctx, b.rdb, keys, args...).Err()
//	}
//
// A key list that is the function's own parameter, keys ...string or
// keys []string, passed on as it is, stands for its callers' keys: an
// unknown "$N..." in the model. A command with such keys, or running a
// script that is the function's parameter, is carried to the callers
// (WrappedCall with Groups, and Script), and each caller checks it with
// its own keys and its own script.

// spreadParam returns "$N" when x is a parameter of the function that
// holds a list of keys, passed on whole: one the function never sets
// (args = append([]any{"MSET"}, args...) holds more than the callers').
func (e *evaluator) spreadParam(x ast.Expr) string {
	v, p := e.paramOf(x)
	if v == nil || e.paramSet(v) {
		return ""
	}
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return ""
	}
	return p
}

// paramSet reports whether the function assigns to parameter v.
func (e *evaluator) paramSet(v *types.Var) bool {
	if e.decl == nil || e.decl.Body == nil {
		return false
	}
	if e.setParams == nil {
		e.setParams = map[*types.Var]bool{}
		ast.Inspect(e.decl.Body, func(n ast.Node) bool {
			var lhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs = n.Lhs
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					lhs = []ast.Expr{n.Key, n.Value}
				}
			case *ast.IncDecStmt:
				lhs = []ast.Expr{n.X}
			}
			for _, x := range lhs {
				if id, ok := ast.Unparen(x).(*ast.Ident); ok {
					if p, ok := e.g.info.Uses[id].(*types.Var); ok {
						if _, isParam := e.params[p]; isParam {
							e.setParams[p] = true
						}
					}
				}
			}
			return true
		})
	}
	return e.setParams[v]
}

// paramList returns the key group of slice parameter n passed on whole
// ("$N...").
func (e *evaluator) paramList(n int, pos token.Pos) Group {
	id := "$" + strconv.Itoa(n)
	return Group{{keyspace.Unknown(id+"...", e.paramName(id)+"...", false), pos}}
}

// paramName returns the name of the parameter whose identity is id, or
// "" for another.
func (e *evaluator) paramName(id string) string {
	for v, p := range e.params {
		if p == id {
			return v.Name()
		}
	}
	return ""
}

// paramOf returns the parameter of the function that x names, the
// receiver aside, and its identity "$N"; nil otherwise.
func (e *evaluator) paramOf(x ast.Expr) (*types.Var, string) {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil, ""
	}
	v, ok := e.g.info.Uses[id].(*types.Var)
	if !ok || !isParamID(e.params[v]) {
		return nil, ""
	}
	return v, e.params[v]
}

// spreadIndex returns N of a "$N..." key, or of one of its forms
// ("$N...-K", "$N...%S", "$N...#": spreadForm), or -1.
func spreadIndex(k keyspace.Key) int {
	if len(k.Parts) != 1 || !k.Parts[0].Unknown {
		return -1
	}
	id, suffix, ok := strings.Cut(k.Parts[0].ID, "...")
	if !ok || !isParamID(id) {
		return -1
	}
	if _, ok := parseSpreadForm(suffix); !ok {
		return -1
	}
	n, err := strconv.Atoi(id[1:])
	if err != nil {
		return -1
	}
	return n
}

// allDigits reports whether s is a non-empty run of decimal digits.
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// A spreadForm says which elements of a key list passed on whole are
// keys: all of them ("$N..."), all but the last Tail, which are not keys
// (BLPOP's timeout after the keys: "$N...-K"), every Step-th from the
// first (MSET's key value pairs: "$N...%2"), when Counted, the elements
// that the first counts, after it (ZUNION's numkeys and keys, options
// after them: "$N...#"), the first Head ("$N...^3"), or, when Scripted,
// the first as many as the key count of the redigo script the caller
// passes beside them (a runner's s.Do(conn, keysAndArgs...): "$N...@"),
// which each caller turns into Head.
type spreadForm struct {
	Tail, Step, Head  int
	Counted, Scripted bool
}

func parseSpreadForm(suffix string) (spreadForm, bool) {
	switch {
	case suffix == "":
		return spreadForm{}, true
	case suffix == "#":
		return spreadForm{Counted: true}, true
	case suffix == "@":
		return spreadForm{Scripted: true}, true
	case len(suffix) > 1 && allDigits(suffix[1:]):
		n, err := strconv.Atoi(suffix[1:])
		if err != nil || n < 1 {
			return spreadForm{}, false
		}
		switch suffix[0] {
		case '-':
			return spreadForm{Tail: n}, true
		case '%':
			return spreadForm{Step: n}, true
		case '^':
			return spreadForm{Head: n}, true
		}
	}
	return spreadForm{}, false
}

func (f spreadForm) String() string {
	switch {
	case f.Counted:
		return "#"
	case f.Scripted:
		return "@"
	case f.Head > 0:
		return "^" + strconv.Itoa(f.Head)
	case f.Tail > 0:
		return "-" + strconv.Itoa(f.Tail)
	case f.Step > 1:
		return "%" + strconv.Itoa(f.Step)
	}
	return ""
}

// spreadFormOf returns the form of a key list passed on whole.
func spreadFormOf(k keyspace.Key) spreadForm {
	if spreadIndex(k) < 0 {
		return spreadForm{}
	}
	_, suffix, _ := strings.Cut(k.Parts[0].ID, "...")
	f, _ := parseSpreadForm(suffix)
	return f
}

// withForm returns the key group of a key list passed on whole, in form
// f.
func withForm(grp Group, f spreadForm) Group {
	if f == (spreadForm{}) || len(grp) != 1 || spreadIndex(grp[0].Key) < 0 {
		return grp
	}
	return Group{{inForm(grp[0].Key, f), grp[0].Pos}}
}

// inForm returns k, a key list passed on whole ("$N..."), in form f.
func inForm(k keyspace.Key, f spreadForm) keyspace.Key {
	p := k.Parts[0]
	id, _, _ := strings.Cut(p.ID, "...")
	return keyspace.Unknown(id+"..."+f.String(), p.Name, p.NoBraces)
}

// selectKeys returns the keys among the groups of the arguments a caller
// gives to a key list passed on whole, in form f, or open when they are
// not all known.
func (f spreadForm) selectKeys(groups []Group, open bool) ([]Group, bool) {
	if f == (spreadForm{}) {
		return groups, open
	}
	last := len(groups) - 1
	whole := last >= 0 && len(groups[last]) == 1 && spreadIndex(groups[last][0].Key) >= 0
	switch {
	case open, whole && spreadFormOf(groups[last][0].Key) != (spreadForm{}):
		return nil, true
	case whole:
		// The caller's own list, passed on whole after its fixed
		// arguments, if any (append([]any{key}, args...)): its callers',
		// in the same form.
		fixed, list := groups[:last], withForm(groups[last], f)
		switch {
		case len(fixed) == 0:
			return []Group{list}, false
		case f.Tail > 0:
			return append(slices.Clone(fixed), list), false
		case f.Step > 1 && len(fixed)%f.Step == 0:
			return append(everyStep(fixed, f.Step), list), false
		}
		return nil, true
	case f.Tail > 0:
		if len(groups) < f.Tail {
			return nil, true
		}
		return groups[:len(groups)-f.Tail], false
	case f.Head > 0:
		return groups[:min(f.Head, len(groups))], false
	case f.Scripted:
		return nil, true // the caller's script is not known
	case f.Step > 1:
		return everyStep(groups, f.Step), false
	case f.Counted:
		if len(groups) == 0 || len(groups[0]) != 1 {
			return nil, true
		}
		text, ok := groups[0][0].Key.Literal()
		n, err := strconv.Atoi(text)
		if !ok || err != nil || n < 0 || 1+n > len(groups) {
			return nil, true
		}
		return groups[1 : 1+n], false
	}
	return groups, false
}

// everyStep returns every step-th group, from the first.
func everyStep(groups []Group, step int) []Group {
	var out []Group
	for i := 0; i < len(groups); i += step {
		out = append(out, groups[i])
	}
	return out
}

func hasSpread(groups []Group) bool {
	return anyKey(groups, func(k keyspace.Key) bool { return spreadIndex(k) >= 0 })
}

// anyKey reports whether some key of the groups is one that f accepts.
func anyKey(groups []Group, f func(keyspace.Key) bool) bool {
	for _, g := range groups {
		for _, v := range g {
			if f(v.Key) {
				return true
			}
		}
	}
	return false
}

// scriptParamOf returns 1 + the index of the function's parameter that a
// script call runs, a *redis.Script or a source, or 0.
func (g *Engine) scriptParamOf(e *evaluator, call *ast.CallExpr, m *ruleset.Method) int {
	var x ast.Expr
	switch {
	case m.Script == ruleset.ReceiverParam:
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			x = sel.X
		}
	case m.Script >= 0 && m.Script < len(call.Args):
		x = call.Args[m.Script]
	}
	return g.callerScriptParam(e, x)
}

// passedGroups returns the keys of a call of fn given the groups of a
// command fn carries, in terms of its parameters: a parameter spread whole
// ("$N...") is the call's arguments from N on, one group each; an element
// of a slice parameter, the elements the call passes; anything else, the
// call's values put in place of the parameters.
func (g *Engine) passedGroups(e *evaluator, call *ast.CallExpr, sig *types.Signature, groups [][]keyspace.Key) (out []Group, open bool) {
	for _, alts := range groups {
		if len(alts) == 1 {
			if n := spreadIndex(alts[0]); n >= 0 {
				spread, o := g.spreadArgs(e, call, sig, n)
				spread, o = spreadFormOf(alts[0]).selectKeys(spread, o)
				out, open = append(out, spread...), open || o
				continue
			}
		}
		if n, ok := groupElems(alts); ok {
			elems, o := g.elemArgs(e, call, sig, n, alts)
			out, open = append(out, elems...), open || o
			continue
		}
		var grp Group
		for _, k := range alts {
			for _, sk := range g.substitute(e, call, k) {
				grp = append(grp, Value{sk, call.Pos()})
			}
		}
		out = append(out, grp)
	}
	return out, open
}

// countedByScript turns the key lists that the script a caller passes
// counts ("$N...@") into the first as many as x, the script, was made
// with (redis.NewScript(3, src): "$N...^3"); they stay so when x is the
// caller's own parameter, whose callers count them.
func (g *Engine) countedByScript(e *evaluator, x ast.Expr, groups [][]keyspace.Key) [][]keyspace.Key {
	k, ok := g.scriptKeyCount(e, x)
	if !ok || k.per != 0 || k.fixed < 0 {
		return groups
	}
	var out [][]keyspace.Key
	for _, alts := range groups {
		switch {
		case len(alts) != 1 || !spreadFormOf(alts[0]).Scripted:
			out = append(out, alts)
		case k.fixed > 0:
			out = append(out, []keyspace.Key{inForm(alts[0], spreadForm{Head: k.fixed})})
		}
		// A script of no keys (NewScript(0, src)): none of the list.
	}
	return out
}

// addPassedOn adds at a call of fn the command that fn passes its key
// lists, or its script, on to: with the caller's keys and script.
func (g *Engine) addPassedOn(s *Func, site *Site, call *ast.CallExpr, fn *types.Func, w WrappedCall) {
	e := s.e
	site.Open, site.keysChecked = w.Open, w.KeysChecked
	sig := fn.Signature()
	groups := w.Groups
	if w.Script > 0 && w.Script-1 < len(call.Args) {
		groups = g.countedByScript(e, call.Args[w.Script-1], groups)
	}
	keys, open := g.passedGroups(e, call, sig, groups)
	site.Keys, site.Open = append(site.Keys, keys...), site.Open || open
	var args []Group
	argsOpen := w.ArgsOpen
	for _, alts := range w.Args {
		if len(alts) == 1 {
			if n := spreadIndex(alts[0]); n >= 0 {
				groups, open := g.spreadArgs(e, call, sig, n)
				args = append(args, groups...)
				argsOpen = argsOpen || open
				continue
			}
		}
		var grp Group
		for _, k := range alts {
			for _, sk := range g.substitute(e, call, k) {
				grp = append(grp, Value{sk, call.Pos()})
			}
		}
		args = append(args, grp)
	}
	if w.Run != nil {
		run := &ScriptRun{Ref: *w.Run, Keys: site.Keys, KeysOpen: site.Open || hasSpread(site.Keys), Args: args, ArgsOpen: argsOpen, Cluster: w.Cluster, ReadOnly: w.ReadOnly}
		if fn.Pkg() != g.pkg {
			run.Ref.Pos = token.NoPos // a position in another package's files
		}
		site.Script = run
	}
	if w.Script > 0 {
		if w.Script-1 < len(call.Args) {
			x := call.Args[w.Script-1]
			var ref ScriptRef
			var ok, digest bool
			if strings.HasPrefix(w.Command, "EVALSHA") {
				ref, ok, digest = g.digestScript(e, x)
			}
			if !digest {
				ref, ok = g.scriptOf(e, x, "script")
			}
			if ok {
				site.Script = passedRun(site, w, ref, args, argsOpen)
			} else if n := g.callerScriptParam(e, x); n > 0 {
				site.scriptParam = n
				site.runArgs, site.runArgsOpen, site.runArgsKnown = args, argsOpen, w.ArgsKnown
			}
		}
	}
	if w.ScriptField != "" {
		if x := receiver(call); x != nil {
			if ref, ok := g.heldScript(e, x, w.ScriptField, "script", 0); ok {
				site.Script = passedRun(site, w, ref, args, argsOpen)
			} else if e.isRecv(x) {
				// A method of the script's own type: its callers' receiver.
				site.scriptField = w.ScriptField
				site.runArgs, site.runArgsOpen, site.runArgsKnown = args, argsOpen, w.ArgsKnown
			}
		}
	}
	s.Sites = append(s.Sites, site)
}

// passedRun returns the run, at a caller, of the script it gives a
// function that runs the script its callers choose.
func passedRun(site *Site, w WrappedCall, ref ScriptRef, args []Group, argsOpen bool) *ScriptRun {
	run := &ScriptRun{Ref: ref, Keys: site.Keys, KeysOpen: site.Open, ArgsOpen: true, Cluster: w.Cluster, ReadOnly: w.ReadOnly}
	if w.ArgsKnown {
		run.Args, run.ArgsOpen = args, argsOpen
	}
	return run
}

// scriptFieldOf returns the field of the function's receiver whose
// source an EVAL runs (client.Eval(ctx, s.Source, keys) in a method of a
// project's own script type), a string field of a type of the package,
// or "". (A digest the type keeps, s.sha, is its own business.)
func (g *Engine) scriptFieldOf(e *evaluator, call *ast.CallExpr, m *ruleset.Method) string {
	if m.Kind != ruleset.KindScript || m.Script < 0 || m.Script >= len(call.Args) {
		return ""
	}
	sel, ok := ast.Unparen(call.Args[m.Script]).(*ast.SelectorExpr)
	if !ok || !e.isRecv(sel.X) {
		return ""
	}
	v, ok := g.info.Uses[sel.Sel].(*types.Var)
	if !ok || !v.IsField() || v.Pkg() != g.pkg || !isStringType(v.Type()) {
		return ""
	}
	return v.Name()
}

// isRecv reports whether x names the function's receiver.
func (e *evaluator) isRecv(x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := e.g.info.Uses[id].(*types.Var)
	return ok && e.params[v] == "$recv"
}

// callerScriptParam returns 1 + the index of the caller's own parameter
// that it passes as the script, or 0.
func (g *Engine) callerScriptParam(e *evaluator, x ast.Expr) int {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return 0
	}
	v, ok := g.info.Uses[id].(*types.Var)
	if !ok {
		return 0
	}
	p, ok := e.params[v]
	if !ok || !isParamID(p) {
		return 0
	}
	n, _ := strconv.Atoi(p[1:])
	return n + 1
}

// spreadArgs returns the caller's keys for parameter n of fn, a key list:
// the variadic arguments one by one, or the elements of the slice passed.
func (g *Engine) spreadArgs(e *evaluator, call *ast.CallExpr, sig *types.Signature, n int) ([]Group, bool) {
	if n >= len(call.Args) {
		return nil, !(sig.Variadic() && n == sig.Params().Len()-1)
	}
	variadic := sig.Variadic() && n == sig.Params().Len()-1
	if variadic && !call.Ellipsis.IsValid() {
		var groups []Group
		for _, a := range call.Args[n:] {
			groups = append(groups, e.keys(a))
		}
		return groups, false
	}
	arg := call.Args[n]
	if p := e.spreadParam(arg); p != "" {
		return []Group{{{keyspace.Unknown(p+"...", exprName(arg)+"...", false), arg.Pos()}}}, false
	}
	sl := g.keySlice(e, call, arg)
	if sl.open {
		// append([]any{key}, args...) of the function's own list: its
		// callers' ("$N...") after the key.
		if ssl, ok := g.ssaSpread(e, call, arg); ok && !ssl.open {
			sl = ssl
		}
	}
	return e.elemGroups(sl.elems), sl.open
}

// PassedOn reports whether a key stands for a key list that the function
// is given by its callers and passes on whole ("$N..."): what it holds is
// known only at each caller.
func PassedOn(k keyspace.Key) bool { return spreadIndex(k) >= 0 }

// rawParamOf returns 1 + the index of the function's variadic parameter
// that a raw Do(ctx, args...) passes on whole, or of its parameter before
// the variadic one that Cmd(cmd, args...) passes on as the command's name;
// 0 otherwise. The callers name the command from there on.
func (g *Engine) rawParamOf(e *evaluator, call *ast.CallExpr, m *ruleset.Method) int {
	if m.Args == nil || !spread(call, m) || e.decl == nil {
		return 0
	}
	named := m.Args.Param == len(call.Args)-2 // Cmd(cmd, args...)
	if m.Args.Param != len(call.Args)-1 && !named {
		return 0
	}
	p := e.spreadParam(call.Args[len(call.Args)-1])
	if p == "" {
		return 0
	}
	n, _ := strconv.Atoi(p[1:])
	fn, ok := g.info.Defs[e.decl.Name].(*types.Func)
	if !ok || !fn.Signature().Variadic() || n != fn.Signature().Params().Len()-1 {
		return 0
	}
	if named {
		// The command's name is the parameter before the variadic one
		// (cgrates' RedisStorage.Cmd(cmd string, args ...any)).
		id, ok := ast.Unparen(call.Args[m.Args.Param]).(*ast.Ident)
		if !ok || n == 0 || g.info.Uses[id] != fn.Signature().Params().At(n-1) {
			return 0
		}
		return n
	}
	return n + 1
}

// addRawPassedOn adds at a call of fn the raw command that fn's Do sends
// with the caller's arguments: fn(ctx, "RENAME", a, b).
func (g *Engine) addRawPassedOn(s *Func, site *Site, call *ast.CallExpr, fn *types.Func, w WrappedCall) {
	n := w.Raw - 1
	if n >= len(call.Args) {
		return
	}
	if call.Ellipsis.IsValid() {
		// fn(ctx, args...) of a slice this function builds, {"DEL"} and
		// then its keys: the command is in the slice; or fn("BLPOP",
		// args...) to a Cmd(cmd, args...): the command is before it.
		site.Method = rawRule(fn.Name(), n, false)
		if n < len(call.Args)-2 || !g.rawSpread(s.e, site) {
			return
		}
		site.Name = fmt.Sprintf("%s (through %s at %s)", site.Command, fn.Name(), w.Where)
		site.KeyArgs, site.named = nil, true
		s.Sites = append(s.Sites, site)
		return
	}
	r := rawCall{args: call.Args[n:], from: n}
	r.argv = g.constArgv(r.args)
	if r.argv[0] == "" || !g.rawKeys(s.e, site, r) {
		return
	}
	site.Name = fmt.Sprintf("%s (through %s at %s)", site.Command, fn.Name(), w.Where)
	site.KeyArgs, site.named = nil, true
	s.Sites = append(s.Sites, site)
}

// keysOf returns the keys of a group's values.
func keysOf(grp Group) []keyspace.Key {
	var alts []keyspace.Key
	for _, v := range grp {
		alts = append(alts, v.Key)
	}
	return alts
}

// scriptForCallers reports whether the Lua checks of a site's script run
// are left to the function's callers: the script is known here, the
// function is unexported (its callers are all in the package), and it
// passes its own parameters on as KEYS, whose values only the callers
// know, as asynq's RDB.forward(src, dst, taskKeyPrefix, ...)
// runs forwardCmd. A script run in a transaction or a pipeline stays.
func (g *Engine) scriptForCallers(s *Func, site *Site) bool {
	run := site.Script
	if run == nil || run.Function != "" || len(run.Alts) > 0 || site.scriptParam > 0 || site.rawParam > 0 ||
		site.Handle != nil || site.Queued || s.Decl == nil || s.Obj == nil || s.Obj.Exported() {
		return false
	}
	for _, grp := range run.Keys {
		if len(grp) != 1 {
			continue
		}
		if p := grp[0].Key.Parts; len(p) == 1 && p[0].Unknown && (isParamID(p[0].ID) || spreadIndex(grp[0].Key) >= 0) {
			return true
		}
	}
	return false
}
