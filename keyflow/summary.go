package keyflow

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"golang.org/x/tools/go/types/typeutil"
)

// KeyFunc is the fact that a function returns a key built from its
// parameters: its possible results, with unknowns "$0", "$1", ... standing
// for the arguments and "$recv.f" for fields of the receiver.
type KeyFunc struct {
	Results []keyspace.Key
	// Later are the keys of its later results, by index (func keys(id)
	// (key, loaded string)): Later[i] is result i+1's, nil for one that
	// is no key.
	Later [][]keyspace.Key
}

func (*KeyFunc) AFact() {}

func (f *KeyFunc) String() string {
	quoted := func(ks []keyspace.Key) string {
		s := make([]string, len(ks))
		for i, k := range ks {
			s[i] = strconv.Quote(k.String())
		}
		return strings.Join(s, ", ")
	}
	out := "keyFunc(" + quoted(f.Results) + ")"
	for i, ks := range f.Later {
		if len(ks) > 0 {
			out += fmt.Sprintf(" result %d (%s)", i+1, quoted(ks))
		}
	}
	return out
}

// KeyVar is the fact that a package-level variable holds a known key, or a
// keyspace template.
type KeyVar struct {
	Keys     []keyspace.Key
	Template string // the template's text, for a *keyspace.Template
}

func (*KeyVar) AFact() {}

func (f *KeyVar) String() string {
	if f.Template != "" {
		return "keyTemplate(" + strconv.Quote(f.Template) + ")"
	}
	s := make([]string, len(f.Keys))
	for i, k := range f.Keys {
		s[i] = strconv.Quote(k.String())
	}
	return "keyVar(" + strings.Join(s, ", ") + ")"
}

// KeyWrapper is the fact that a function passes keys built from its
// parameters to commands whose keys must share a slot, so that the
// function's callers are checked instead.
type KeyWrapper struct {
	Calls []WrappedCall
}

func (*KeyWrapper) AFact() {}

func (f *KeyWrapper) String() string {
	s := make([]string, len(f.Calls))
	for i, c := range f.Calls {
		keys := make([]string, len(c.Keys))
		for j, k := range c.Keys {
			keys[j] = strconv.Quote(k.String())
		}
		for _, g := range c.Groups {
			alts := make([]string, len(g))
			for j, k := range g {
				alts[j] = strconv.Quote(k.String())
			}
			keys = append(keys, strings.Join(alts, "|"))
		}
		s[i] = strings.Join(append([]string{c.Command}, keys...), " ")
		if c.Script > 0 {
			s[i] += " script $" + strconv.Itoa(c.Script-1)
		}
		if c.ScriptField != "" {
			s[i] += " script $recv." + c.ScriptField
		}
		if c.Raw > 0 {
			s[i] += " raw $" + strconv.Itoa(c.Raw-1) + "..."
		}
		if c.Records > 0 {
			s[i] += " records $" + strconv.Itoa(c.Records-1)
		}
		if c.On > 0 || c.OnRecv {
			on := "$recv"
			if c.On > 0 {
				on = "$" + strconv.Itoa(c.On-1)
			}
			s[i] += " on " + on
			if c.OnField != "" {
				s[i] += "." + c.OnField
			}
		}
		if c.Exec {
			s[i] += " exec"
		}
		for _, g := range c.Groups {
			if n, ok := groupElems(g); ok {
				s[i] += " each of $" + strconv.Itoa(n)
				break
			}
		}
		if c.Impl != "" {
			s[i] += " in " + c.Impl
		}
	}
	return "keyWrapper(" + strings.Join(s, "; ") + ")"
}

// A WrappedCall is a command inside a wrapper, its keys in terms of the
// wrapper's parameters.
type WrappedCall struct {
	Command string
	Keys    []keyspace.Key
	Where   string // the call's position, for messages
	Pos     token.Pos
	// Split is true for a command that the client splits by slot when it
	// is sent alone (Site.SplitAlone).
	Split bool
	// On is 1 + the index of the parameter of a pipeline or transaction
	// type that the command is sent on, for a command that belongs to the
	// transaction of whatever the caller passes there; 0 otherwise. Such a
	// call has all its keys in Groups, with their alternatives, and Open
	// when it has keys that cannot be seen; it is not checked on its own
	// at the caller, only as part of the transaction.
	On     int
	Groups [][]keyspace.Key
	Open   bool
	// Exec is true for an Exec sent on that parameter: it ends the
	// caller's transaction there (exec.go).
	Exec bool
	// OnField is the field of the struct parameter On that holds the
	// pipeline, when it is one (opts.tx).
	OnField string
	// OnRecv is true for a command sent on the pipeline that field
	// OnField of the receiver holds: a method of a wrapper around a
	// pipeline (p.pipe.HMGet(p.ctx, key)) queues it in the transaction of
	// the pipeline its caller's receiver wraps. On is 0 then.
	OnRecv bool
	// Conn is true when parameter On is a connection the command is sent
	// on by a raw or send method (redigo's conn.Send): the command belongs
	// to the MULTI the caller has open on it, if any.
	Conn bool
	// Script is 1 + the index of the parameter that holds the script the
	// command runs, when the caller chooses it; ReadOnly and Cluster say
	// how it is run (ScriptRun).
	Script            int
	ReadOnly, Cluster bool
	// ScriptField is the field of the receiver that holds the script the
	// command runs (s.Source of a project's own script type, whose
	// method runs it): the script of the caller's receiver.
	ScriptField string
	// Raw is 1 + the index of the variadic parameter that a raw Do passes
	// on as the command and its arguments: the callers name the command.
	Raw int
	// Records is 1 + the index of the slice parameter whose elements are
	// the commands a raw send sends, each a map of a command's name to its
	// arguments (records.go).
	Records int
	// Run is the script the command runs, known in the function, when
	// the function is unexported and passes its own parameters on as KEYS
	// or ARGV: the Lua checks run at each caller, with its values (Args,
	// ArgsOpen: the ARGV as Groups are the KEYS).
	Run      *ScriptRef
	Args     [][]keyspace.Key
	ArgsOpen bool
	// ArgsKnown is true when Args are the ARGV of the script the callers
	// choose (Script): the callers check it with them.
	ArgsKnown bool
	// KeysChecked is true when the keys were checked in the function,
	// whatever its callers pass: the callers check only the script.
	KeysChecked bool
	// Impl names the type whose method carries the call, in a fact on a
	// method of an interface: what the interface's implementations in its
	// package carry (ifaceimpl.go).
	Impl string
	// local is true for a call carried to the callers in the package
	// alone, not in its fact (a command sent on a redis.Cmdable parameter:
	// txhelper.go).
	local bool
}

// A Func is the model of one function declaration, or of the package-level
// initializers (Decl nil): what key it returns, the Redis calls it makes,
// its transactions and pipelines, and the commands it passes its
// parameters' keys to.
type Func struct {
	Decl *ast.FuncDecl
	Obj  *types.Func
	// Results are the possible keys it returns.
	Results []Value
	// Later are the possible keys of its later results, by index less
	// one: func keys(id) (key, loaded string).
	Later [][]Value
	// Sites are its Redis calls, closures included, in the order of a walk
	// of the body (ast.Inspect).
	Sites []*Site
	// Txs are its Watch, TxPipelined, TxPipeline, Pipelined and Pipeline
	// calls, in the same order.
	Txs []*Tx
	// Handles are the variables that hold a *redis.Tx or a pipeline that
	// a Tx made.
	Handles map[*types.Var]*Handle
	// inline are the handles of pipelines passed on where they are made:
	// save(ctx, c.NewTxPipeline()).
	inline map[*ast.CallExpr]*Handle
	// Assigned maps a call to the variable its (first) result is assigned
	// to: v := call, v = call, var v = call.
	Assigned map[*ast.CallExpr]*types.Var
	// Carried are the commands whose keys come from the function's
	// parameters and may not share a slot: its callers are checked for
	// them (KeyWrapper).
	Carried []WrappedCall

	// slices are what the function returns in each of its results of
	// type []string, nil for the other results: a helper that builds a
	// script's KEYS and ARGV and returns keys, args, err. Their keys are
	// in terms of the parameters, as those of Results are.
	slices []*slice

	busy bool
	e    *evaluator
	// sent are the command values the function hands to a sender
	// (sentValues), made when a value command is first met.
	sent map[*ast.CallExpr]bool
}

// Func returns the model of a function declared in the package, or nil.
func (g *Engine) Func(fn *types.Func) *Func {
	if decl := g.decls[fn]; decl != nil && decl.Body != nil {
		return g.summarize(decl)
	}
	return nil
}

// LoopVarying reports whether a key holds a value that a loop sets, and
// may so differ from one iteration to the next.
func (s *Func) LoopVarying(k keyspace.Key) bool {
	for _, p := range k.Parts {
		if !p.Unknown {
			continue
		}
		for id := range s.e.loopIDs {
			if strings.Contains(p.ID, id) {
				return true
			}
		}
	}
	return false
}

// summarize computes the model of a function declaration once.
func (g *Engine) summarize(decl *ast.FuncDecl) *Func {
	fn, _ := g.info.Defs[decl.Name].(*types.Func)
	if s := g.funcs[fn]; s != nil {
		return s
	}
	s := &Func{Decl: decl, Obj: fn, busy: true}
	g.funcs[fn] = s
	sig := fn.Signature()
	returnsKey := sig.Results().Len() > 0 && isStringType(sig.Results().At(0).Type())
	laterKeys := false
	for i := 1; i < sig.Results().Len(); i++ {
		laterKeys = laterKeys || isStringType(sig.Results().At(i).Type())
	}
	if !returnsKey && !laterKeys && !g.sends {
		// Where no command can be sent only the keys a function returns
		// matter: do not collect the assignments of the others.
		s.busy = false
		return s
	}
	e := newEvaluator(g, decl)
	s.e = e
	returnsSlice := false
	for i := 0; i < sig.Results().Len(); i++ {
		returnsSlice = returnsSlice || isStringSlice(sig.Results().At(i).Type())
	}
	var rets []*ast.ReturnStmt
	if returnsKey || laterKeys || returnsSlice && g.sends {
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				rets = append(rets, n)
			}
			return true
		})
		rets = g.liveReturns(e, g.clusterReturns(e, rets))
	}
	if returnsKey {
		named := sig.Results().At(0)
		for i, r := range rets {
			switch {
			case len(r.Results) > 0:
				s.Results = append(s.Results, returned(e, decl, rets, i, e.keys(r.Results[0]))...)
			case named.Name() != "" && named.Name() != "_":
				// A bare return of named results: what the first holds
				// there (func f(p, k string) (key string, err error)).
				s.Results = append(s.Results, returned(e, decl, rets, i, e.local(named, &ast.Ident{Name: named.Name(), NamePos: r.Pos()}))...)
			}
		}
		if len(s.Results) > maxAlts || allOpaque(s.Results) {
			s.Results = nil
		}
	}
	if laterKeys {
		s.Later = g.laterResults(e, decl, sig, rets)
	}
	if g.sends {
		if returnsSlice {
			// Only the package's own calls read them.
			s.slices = g.resultSlices(s, rets)
		}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				g.addSites(s, call)
			}
			return true
		})
		g.finish(s)
	}
	s.busy = false
	return s
}

func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isStringSlice(t types.Type) bool {
	sl, ok := t.Underlying().(*types.Slice)
	return ok && isStringType(sl.Elem())
}

// resultSlices is what a function returns in its results of type []string
// (Func.slices), from its return statements rets: each is the slice they
// give there, merged element by element. A return of nil there (an error
// path: return nil, nil, err) gives nothing. Returns that do not agree on
// the number of elements, and a bare return or return f() of several
// results, leave the result open: it holds elements that are not seen.
func (g *Engine) resultSlices(s *Func, rets []*ast.ReturnStmt) []*slice {
	res := s.Obj.Signature().Results()
	var out []*slice
	for i := 0; i < res.Len(); i++ {
		if isStringSlice(res.At(i).Type()) {
			if out == nil {
				out = make([]*slice, res.Len())
			}
			out[i] = &slice{}
		}
	}
	if out == nil {
		return nil
	}
	seen := make([]bool, len(out))
	open := make([]bool, len(out))
	for _, r := range rets {
		for i, sum := range out {
			if sum == nil {
				continue
			}
			if len(r.Results) != len(out) {
				open[i] = true
				continue
			}
			x := r.Results[i]
			if id, ok := ast.Unparen(x).(*ast.Ident); ok && id.Name == "nil" && g.info.Uses[id] == types.Universe.Lookup("nil") {
				continue
			}
			sl := s.e.slice(x)
			if !seen[i] {
				seen[i] = true
				*sum = slice{elems: slices.Clone(sl.elems), open: sl.open}
				continue
			}
			if sum.open || sl.open || len(sum.elems) != len(sl.elems) {
				open[i] = true
				continue
			}
			for j, el := range sl.elems {
				sum.elems[j] = mergeElems(sum.elems[j], el, s.Obj.Name())
			}
		}
	}
	for i, sum := range out {
		switch {
		case sum == nil:
		case open[i] || !seen[i]:
			*sum = slice{open: true}
		}
	}
	return out
}

// mergeElems is an element of a slice that one return statement gives as
// a and another as b: either's values, one unknown past maxAlts.
func mergeElems(a, b elem, fname string) elem {
	alts := slices.Clone(a.alts)
	for _, v := range b.alts {
		if !slices.ContainsFunc(alts, func(w Value) bool { return w.Key.String() == v.Key.String() }) {
			alts = append(alts, v)
		}
	}
	if len(alts) > maxAlts {
		alts = []Value{{keyspace.Unknown("", fname+"()", false), alts[0].Pos}}
	}
	return elem{alts: alts, many: a.many || b.many}
}

// allOpaque reports whether no alternative says more than "some value".
func allOpaque(alts []Value) bool {
	for _, a := range alts {
		if len(a.Key.Parts) != 1 || !a.Key.Parts[0].Unknown || strings.HasPrefix(a.Key.Parts[0].ID, "$") || strings.HasPrefix(a.Key.Parts[0].ID, "parts:") {
			return false
		}
	}
	return true
}

// returned marks the values that return statement i of a function gives:
// a call runs one of its return statements, and every result of that call
// is what that one gives (a configured prefix, or the default another
// returns).
func returned(e *evaluator, decl *ast.FuncDecl, rets []*ast.ReturnStmt, i int, alts []Value) []Value {
	if len(rets) < 2 {
		return alts
	}
	cs := append(e.emptyTests(rets[i].Pos()), keyspace.Choice{Of: fmt.Sprintf("return@%d", decl.Pos()), In: e.choiceIn(), Alt: i})
	out := make([]Value, len(alts))
	for j, a := range alts {
		out[j] = Value{a.Key.Choosing(cs...), a.Pos}
	}
	return out
}

// laterResults returns the keys of a function's string results after the
// first, by index less one, from returns that give every result (not a
// bare return of named results); nil when none is a key.
func (g *Engine) laterResults(e *evaluator, decl *ast.FuncDecl, sig *types.Signature, rets []*ast.ReturnStmt) [][]Value {
	n := sig.Results().Len()
	later := make([][]Value, n-1)
	found := false
	for i := 1; i < n; i++ {
		if !isStringType(sig.Results().At(i).Type()) {
			continue
		}
		named := sig.Results().At(i)
		var keys []Value
		for j, r := range rets {
			switch {
			case len(r.Results) == n:
				keys = append(keys, returned(e, decl, rets, j, e.keys(r.Results[i]))...)
			case len(r.Results) == 0 && named.Name() != "" && named.Name() != "_":
				// A bare return of named results (func names(id) (l, pl
				// string)): what result i holds there.
				keys = append(keys, returned(e, decl, rets, j, e.local(named, &ast.Ident{Name: named.Name(), NamePos: r.Pos()}))...)
			default:
				keys = nil
			}
			if keys == nil {
				break
			}
		}
		if len(keys) > maxAlts || allOpaque(keys) {
			continue
		}
		later[i-1], found = keys, found || len(keys) > 0
	}
	if !found {
		return nil
	}
	return later
}

// resultAt returns the keys of result i, of a summary's or a fact's first
// result and later ones.
func resultAt[T any](first []T, later [][]T, i int) []T {
	switch {
	case i == 0:
		return first
	case i-1 < len(later):
		return later[i-1]
	}
	return nil
}

// summaryCall evaluates a call to a function that returns a key built from
// its arguments.
func (g *Engine) summaryCall(e *evaluator, call *ast.CallExpr, fn *types.Func) ([]Value, bool) {
	return g.summaryCallAt(e, call, fn, 0)
}

// summaryCallAt evaluates result i of a call to a function that returns
// keys built from its arguments (key, loaded := keys(id): result 1).
func (g *Engine) summaryCallAt(e *evaluator, call *ast.CallExpr, fn *types.Func, i int) ([]Value, bool) {
	results := g.resultsOf(fn, i)
	if len(results) == 0 {
		return nil, false
	}
	mode := substFresh
	if fn.Signature().Results().Len() > 1 && e != nil {
		// key, loaded := keys(id): the results of one call share its
		// values, others at each turn of a loop around it.
		mode = substShared
		if e.inLoop(call) {
			e.loopIDs[callID(call)] = true
		}
	}
	var out []Value
	for _, r := range results {
		for _, k := range g.substituteKey(e, call, r, mode) {
			out = append(out, Value{k, call.Pos()})
		}
	}
	if len(out) == 0 || len(out) > maxAlts {
		return nil, false
	}
	return out, true
}

// resultsOf returns the keys of result i of fn, in terms of its
// parameters: its summary's, or its KeyFunc fact's for a function of
// another package; none while its summary is being made.
func (g *Engine) resultsOf(fn *types.Func, i int) []keyspace.Key {
	if decl := g.decls[fn.Origin()]; decl != nil && decl.Body != nil {
		s := g.summarize(decl)
		if s.busy {
			return nil
		}
		return keysOf(resultAt(s.Results, s.Later, i))
	}
	var f KeyFunc
	if !g.facts.ImportObjectFact(fn.Origin(), &f) {
		return nil
	}
	return resultAt(f.Results, f.Later, i)
}

// inLoop reports whether n runs at each turn of a loop of the function,
// or in a closure, which may run any number of times.
func (e *evaluator) inLoop(n ast.Node) bool {
	for _, p := range e.pathTo(n.Pos()) {
		switch p.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			if p != n {
				return true
			}
		}
	}
	return false
}

// callID is the identity of one call in the package, for the values it
// computes (substShared).
func callID(call *ast.CallExpr) string {
	return "call@" + strconv.Itoa(int(call.Pos()))
}

// substitute puts a call's arguments in place of the parameters that a
// summary key refers to. The callee's own locals become fresh values.
func (g *Engine) substitute(e *evaluator, call *ast.CallExpr, k keyspace.Key) []keyspace.Key {
	return g.substituteKey(e, call, k, substFresh)
}

// What substituteKey makes of the callee's own unknowns, those that are
// not its parameters: fresh values (substFresh); kept as they are
// ("name@pos", "reply@pos"; substKeep); or the callee's values of this
// call (substShared), one value in each of its results (key, limitKey :=
// codeKeys(phone), both under the hashtag codeKeys computes).
type substMode int

const (
	substFresh substMode = iota
	substKeep
	substShared
)

// substituteKey is substitute, the callee's own unknowns made as mode says.
func (g *Engine) substituteKey(e *evaluator, call *ast.CallExpr, k keyspace.Key, mode substMode) []keyspace.Key {
	keep := mode == substKeep
	// The callee's own choices (a variable of it set on two branches, the
	// return statement it runs, the write its parameter's field holds),
	// made on the call's values. A key built from a write that the
	// argument's struct literal does not hold is not one of the call's.
	own := make([]keyspace.Choice, 0, len(k.Choices))
	for _, c := range k.Choices {
		if decided, possible := g.emptyAt(call, c); decided {
			if !possible {
				// A return under a test of a parameter for the empty
				// string that the call's constant fails.
				return []keyspace.Key{}
			}
			continue
		}
		c, possible := g.choiceAt(e, call, c)
		if !possible {
			return []keyspace.Key{}
		}
		own = append(own, c)
	}
	parts := make([][]keyspace.Key, len(k.Parts))
	for i, p := range k.Parts {
		switch {
		case !p.Unknown:
			parts[i] = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		case isElemID(p.ID):
			// An element of the callee's slice parameter, not the
			// caller's: the callee's own unknown (elems.go).
			p.ID = "elem:" + p.ID
			if !keep {
				p.ID = ""
			}
			parts[i] = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		case isApplyID(p.ID):
			// build(id) of the callee's func-typed parameter: the
			// function passed here, given the call's values.
			parts[i] = g.applied(e, call, p, mode)
		case strings.HasPrefix(p.ID, "parts:"):
			// A helper's parts joined: the call's arguments there.
			parts[i] = g.partsValue(e, call, p)
		case strings.HasPrefix(p.ID, "same:"):
			// s.BandFor($0) of the callee: the same function of the
			// call's arguments, fresh when one has no identity.
			p.ID = g.sameID(e, call, p.ID)
			parts[i] = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		case derivedOfParam(p.ID):
			// strconv.Itoa($0) and the like: the same function of the
			// caller's argument, fresh when that is not one value.
			p.ID, p.Name = g.derivedID(e, call, p)
			parts[i] = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		case strings.HasPrefix(p.ID, "$"):
			parts[i] = g.paramValue(e, call, p)
			if len(parts[i]) == 0 {
				return nil
			}
			if parts[i] = bracesPossible(parts[i], p); len(parts[i]) == 0 {
				// The callee's check of the braces rules out every value
				// the call gives: the callee never builds this key here.
				return []keyspace.Key{}
			}
		case mode == substShared && strings.Contains(p.ID, "@"):
			p.ID += "^" + callID(call)
			parts[i] = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		case !keep && strings.Contains(p.ID, "@"):
			p.ID = ""
			parts[i] = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		default:
			parts[i] = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		}
	}
	if count(parts, maxAlts) > maxAlts {
		return []keyspace.Key{keyspace.Unknown("", exprName(call), false)}
	}
	var out []keyspace.Key
	combos(reversed(parts), maxAlts, func(c []keyspace.Key) bool {
		if !keyspace.Consistent(c...) {
			return true
		}
		var k keyspace.Key
		for i := len(c) - 1; i >= 0; i-- {
			k = keyspace.Concat(k, c[i])
		}
		out = append(out, k.Choosing(own...))
		return true
	})
	return out
}

// choiceAt is a callee's choice c as a call makes it: on the call's
// arguments in place of the callee's parameters, each a literal or a value
// with an identity; KeyNamespacePrefix(ns) returns "<ns>:" at every call
// with ns, or "<ns>" at every one. A value of the callee's own (a local
// variable) is this call's; one that is not seen makes the choice this
// call's alone.
func (g *Engine) choiceAt(e *evaluator, call *ast.CallExpr, c keyspace.Choice) (keyspace.Choice, bool) {
	if call == nil {
		return c, true
	}
	if strings.HasPrefix(c.Of, "$") && e != nil {
		if c, ok, resolved := g.fieldChoiceAt(e, call, c); resolved {
			return c, ok
		}
	}
	in := make([]string, len(c.In))
	for i, id := range c.In {
		switch {
		case strings.HasPrefix(id, "$"):
			if in[i] = g.paramID(e, call, id); in[i] == "" {
				in[i] = "?" + callID(call)
			}
		case strings.Contains(id, "@"):
			in[i] = id + "^" + callID(call)
		default:
			in[i] = id
		}
	}
	c.In = in
	return c, true
}

// fieldChoiceAt resolves at a call the choice of which write a field of
// the callee's parameter holds ("$recv.Suffix@pos", fieldKeys): when the
// argument is a variable set once to a struct literal (literalField), the
// write is the literal's, and a key built from another is not the call's
// (ok false). Otherwise the choice is the argument's, when it has an
// identity. resolved is false for a choice of another kind.
func (g *Engine) fieldChoiceAt(e *evaluator, call *ast.CallExpr, c keyspace.Choice) (_ keyspace.Choice, ok, resolved bool) {
	param, rest, _ := strings.Cut(c.Of[1:], ".")
	name, at, found := strings.Cut(rest, "@")
	pos, err := strconv.Atoi(at)
	if !found || err != nil || strings.ContainsAny(name, ".:$") {
		return c, true, false
	}
	arg := g.argOf(call, param)
	if arg == nil {
		return c, true, false
	}
	if g.fields == nil {
		g.collectFieldWrites()
	}
	for v, writes := range g.fields {
		if v.Name() != name || int(v.Pos()) != pos {
			continue
		}
		val, _, ok := e.literalField(arg, name)
		if !ok || val == nil {
			break
		}
		for wi, w := range writes {
			if w.value != nil && w.value.Pos() <= val.Pos() && val.End() <= w.value.End() {
				return c, wi == c.Alt, true
			}
		}
	}
	if id := e.identity(arg); id != "" {
		c.Of = id + "." + rest
		return c, true, true
	}
	return c, true, false
}

// argOf returns the argument of a call for the callee's parameter param
// ("recv", "0", "1", ...), nil when the call does not show it.
func (g *Engine) argOf(call *ast.CallExpr, param string) ast.Expr {
	if param == "recv" {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return sel.X
		}
		return nil
	}
	if i, err := strconv.Atoi(param); err == nil && i < len(call.Args) && (!call.Ellipsis.IsValid() || i < len(call.Args)-1) {
		return call.Args[i]
	}
	return nil
}

// partsValue returns the values of a helper's parameter joined by its
// separator (evaluator.joinParts) at a call: the arguments from the
// parameter's on, each in turn, or the elements of the slice spread
// there; one unknown when they are not seen.
func (g *Engine) partsValue(e *evaluator, call *ast.CallExpr, p keyspace.Part) []keyspace.Key {
	anon := []keyspace.Key{keyspace.Unknown("", p.Name, p.NoBraces)}
	sep, n, ok := partsOf(p.ID)
	if !ok || n >= len(call.Args) && !(n == len(call.Args) && !call.Ellipsis.IsValid()) {
		return anon
	}
	var elems [][]Value
	switch {
	case n == len(call.Args):
		// no parts at all
	case call.Ellipsis.IsValid() || !isVariadicAt(g.info, call, n):
		if n != len(call.Args)-1 {
			return anon
		}
		// A slice of the caller's, or one that holds the caller's own
		// parts appended whole (mk(append([]string{"CONTAINS"},
		// tokens...)...)): those stay the caller's callers' parts.
		sl := e.slice(call.Args[n])
		if sl.open {
			var ok bool
			if sl, ok = g.ssaSpread(e, call, call.Args[n]); !ok {
				return anon
			}
		}
		if elems, _, ok = spreadParts(sl, sep); !ok {
			return anon
		}
	default:
		for _, a := range call.Args[n:] {
			elems = append(elems, e.keys(a))
		}
	}
	out, ok := joinAlts(elems, litSep(sep, call.Pos()), call.Pos())
	if !ok {
		return anon
	}
	keys := make([]keyspace.Key, len(out))
	for i, v := range out {
		keys[i] = v.Key
	}
	return keys
}

// derivedOfParam reports whether id is the identity of a value derived
// from a parameter by functions (evaluator.derived): "strconv/10($0)",
// "ToLower(strconv/10($0))".
func derivedOfParam(id string) bool {
	for {
		i := strings.IndexByte(id, '(')
		if i <= 0 || !strings.HasSuffix(id, ")") || !derivingName(id[:i]) {
			return false
		}
		if id = id[i+1 : len(id)-1]; strings.HasPrefix(id, "$") {
			return true
		}
	}
}

// derivingName reports whether f names a function that derives a value
// (evaluator.derived: "strconv/10", "ToLower", "base64.RawURLEncoding"),
// not a value of a parameter or a field's writer that holds one
// ("$recv.NewKeySpace:TrimSpace($0)": the $0 of the constructor that wrote
// the field, not of the function that reads it).
func derivingName(f string) bool {
	return !strings.HasPrefix(f, "$") && !strings.ContainsAny(f, ":@^")
}

// derivedID returns the identity at a call of a value derived from a
// parameter: the same function of the argument's identity, or of its
// text when it is a constant; "" (a fresh value) otherwise. A value
// named after the parameter (strconv.Itoa(id) is "<id>") is named after
// the argument; one named after its call (a hash) keeps its name.
func (g *Engine) derivedID(e *evaluator, call *ast.CallExpr, p keyspace.Part) (id, name string) {
	i := strings.IndexByte(p.ID, '(')
	fname, inner := p.ID[:i], p.ID[i+1:len(p.ID)-1]
	var arg []keyspace.Key
	if derivedOfParam(inner) {
		id, name := g.derivedID(e, call, keyspace.Part{Unknown: true, ID: inner, Name: p.Name})
		if id == "" {
			return "", p.Name
		}
		arg = []keyspace.Key{keyspace.Unknown(id, name, p.NoBraces)}
	} else {
		arg = g.paramValue(e, call, keyspace.Part{Unknown: true, ID: inner, Name: p.Name})
	}
	name = p.Name
	if len(arg) == 1 && len(arg[0].Parts) == 1 && arg[0].Parts[0].Unknown && arg[0].Parts[0].Name != "" && !strings.Contains(name, "(") {
		name = arg[0].Parts[0].Name
	}
	if id := oneID(arg); id != "" {
		return fname + "(" + id + ")", name
	}
	return "", name
}

// oneID is the identity of one value: its text, quoted, or the identity
// of the one unknown it is; "" for several values or another key.
func oneID(ks []keyspace.Key) string {
	if len(ks) != 1 {
		return ""
	}
	if s, ok := ks[0].Literal(); ok {
		return strconv.Quote(s)
	}
	if ps := ks[0].Parts; len(ps) == 1 && ps[0].Unknown {
		return ps[0].ID
	}
	return ""
}

// paramID is the identity at a call of the callee's parameter id ("$0",
// "$recv", "$1.Prefix"): that of the argument there (oneID); "" when the
// argument has none.
func (g *Engine) paramID(e *evaluator, call *ast.CallExpr, id string) string {
	if e == nil {
		return ""
	}
	return oneID(g.paramValue(e, call, keyspace.Part{Unknown: true, ID: id}))
}

// sameID is a callee's value of one function of its arguments
// ("same:f($recv,$0)", evaluator.sameResult) as a call sees it: each of
// the callee's parameters among the arguments replaced by the identity
// of the call's argument; "" when one has none.
func (g *Engine) sameID(e *evaluator, call *ast.CallExpr, id string) string {
	open := strings.IndexByte(id, '(')
	if open < 0 || !strings.HasSuffix(id, ")") || e == nil {
		return ""
	}
	args := strings.Split(id[open+1:len(id)-1], ",")
	for i, a := range args {
		if strings.HasPrefix(a, "$") {
			if args[i] = g.paramID(e, call, a); args[i] == "" {
				return ""
			}
		}
	}
	return id[:open+1] + strings.Join(args, ",") + ")"
}

// deterministic reports whether a function of the package returns the same
// for the same arguments as far as its body shows: it calls nothing of
// the packages that draw a new value each time or read the world (time,
// randomness, identifiers, I/O, atomics), no function value or interface
// method, and the package's functions it calls are the same, to a depth
// of 3.
func (g *Engine) deterministic(fn *types.Func, depth int) bool {
	decl := g.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > 3 {
		return false
	}
	if g.pure == nil {
		g.pure = map[*types.Func]bool{}
	}
	if ok, seen := g.pure[fn]; seen {
		return ok
	}
	g.pure[fn] = false // recursion is not followed
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			ok = false
		case *ast.UnaryExpr:
			ok = ok && n.Op != token.ARROW
		case *ast.CallExpr:
			if tv, isType := g.info.Types[n.Fun]; isType && tv.IsType() {
				return true // a conversion
			}
			callee := typeutil.Callee(g.info, n)
			switch c := callee.(type) {
			case *types.Builtin:
				return true
			case *types.Func:
				if c.Pkg() == nil {
					ok = false // error's Error
					return true
				}
				if c.Pkg() == g.pkg {
					ok = ok && g.deterministic(c, depth+1)
					return true
				}
				if sig := c.Signature(); sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
					// A hash's own methods (fnv.New32a(), then Write and
					// Sum32) and nothing else of an interface.
					ok = ok && (c.Pkg().Path() == "hash" || c.Pkg().Path() == "io" && c.Name() == "Write")
					return true
				}
				path := c.Pkg().Path()
				switch {
				case path == "time", path == "os", path == "io", path == "net", path == "sync", path == "sync/atomic",
					strings.HasPrefix(path, "math/rand"), path == "crypto/rand",
					strings.ContainsAny(path, ".") && !strings.HasPrefix(path, "golang.org/x/"):
					// the standard library's and x/'s own; a module's
					// function may do anything
					ok = false
				}
			default:
				ok = false
			}
		}
		return ok
	})
	g.pure[fn] = ok
	return ok
}

// reversed returns lists last first, so that combos turns the last list
// fastest: the order of nested loops over the lists in their order.
func reversed[T any](lists [][]T) [][]T {
	out := make([][]T, len(lists))
	for i, l := range lists {
		out[len(lists)-1-i] = l
	}
	return out
}

// paramValue is the value of a summary's "$N", "$N.f" or "$recv.f" at a call.
func (g *Engine) paramValue(e *evaluator, call *ast.CallExpr, p keyspace.Part) []keyspace.Key {
	return checkedBraces(g.argValues(e, call, p), p)
}

// checkedBraces returns the values of a callee's unknown p at a call,
// each that is one unknown marked as p is: what the callee checked of its
// parameter's braces (bracesRefused, bracesHeld) holds of the argument in
// the keys it builds there.
func checkedBraces(ks []keyspace.Key, p keyspace.Part) []keyspace.Key {
	if !p.NoBraces && !p.Braced {
		return ks
	}
	for i, k := range ks {
		if ps := k.Parts; len(ps) == 1 && ps[0].Unknown && (ps[0].NoBraces != p.NoBraces || ps[0].Braced != p.Braced) {
			k = keyspace.Key{Parts: slices.Clone(ps), Choices: k.Choices}
			k.Parts[0].NoBraces = k.Parts[0].NoBraces || p.NoBraces
			k.Parts[0].Braced = k.Parts[0].Braced || p.Braced
			ks[i] = k
		}
	}
	return ks
}

// bracesPossible drops the literal values of a callee's unknown p that
// what the callee checked of its braces rules out: one with no '{' where
// it found one (platformMapTempKey's key under hasValkeyHashTag(key)),
// one with a '{' where it refused one.
func bracesPossible(ks []keyspace.Key, p keyspace.Part) []keyspace.Key {
	if !p.NoBraces && !p.Braced {
		return ks
	}
	return slices.DeleteFunc(slices.Clone(ks), func(k keyspace.Key) bool {
		s, ok := k.Literal()
		return ok && (p.Braced && !strings.Contains(s, "{") || p.NoBraces && strings.Contains(s, "{"))
	})
}

// argValues is paramValue before what the callee checked of braces.
func (g *Engine) argValues(e *evaluator, call *ast.CallExpr, p keyspace.Part) []keyspace.Key {
	param, path, _ := strings.Cut(p.ID[1:], ".")
	// f(dest, keys...): the arguments before the spread one are each
	// their parameter's.
	arg := g.argOf(call, param)
	anon := []keyspace.Key{keyspace.Unknown("", p.Name, p.NoBraces)}
	if arg == nil {
		return anon
	}
	if path != "" {
		if !strings.ContainsAny(path, ".$:") {
			// badgeSet.build(account), build reading k.Prefix: the
			// field the receiver's struct literal gives.
			if alts, ok := e.literalFieldKeys(arg, path, arg.Pos()); ok {
				var out []keyspace.Key
				for _, a := range alts {
					out = append(out, a.Key)
				}
				return out
			}
		}
		id := e.identity(arg)
		if id == "" {
			return anon
		}
		name := exprName(arg) + "." + path
		if strings.ContainsAny(path, "$:") {
			// A value that a writer of the object's field gave it (its
			// parameter, its variable: fields.go), not a field path: it is
			// shown by its own name.
			name = p.Name
		}
		return []keyspace.Key{keyspace.Unknown(id+"."+path, name, p.NoBraces)}
	}
	var out []keyspace.Key
	for _, a := range e.keys(arg) {
		out = append(out, a.Key)
	}
	return out
}

// packageVar evaluates a package-level variable: its initializer when it is
// never assigned, or what a fact from its package says.
func (g *Engine) packageVar(v *types.Var, pos token.Pos) []Value {
	id := v.Pkg().Path() + "." + v.Name()
	self := []Value{{keyspace.Unknown(id, v.Name(), false), pos}}
	if v.Pkg() == g.pkg {
		init, ok := g.pkgVars[v]
		if !ok || g.pkgEval.busy[v] {
			return self
		}
		g.pkgEval.busy[v] = true
		defer delete(g.pkgEval.busy, v)
		alts := g.pkgEval.keys(init)
		return identify(alts, id, v.Name())
	}
	var f KeyVar
	if g.facts.ImportObjectFact(v, &f) && len(f.Keys) > 0 {
		out := make([]Value, len(f.Keys))
		for i, k := range f.Keys {
			out[i] = Value{k, pos}
		}
		return out
	}
	return self
}

// packageSlice is what is known of a package-level []string variable.
func (g *Engine) packageSlice(v *types.Var) slice {
	init, ok := g.pkgVars[v]
	if v.Pkg() != g.pkg || !ok || g.pkgEval.busy[v] {
		return slice{open: true}
	}
	g.pkgEval.busy[v] = true
	defer delete(g.pkgEval.busy, v)
	return g.pkgEval.slice(init)
}

// ExportFacts exports the summaries of the package's functions and
// variables for the packages that import it.
//
// A package of the standard library exports none. Its functions that keys
// are built with (fmt.Sprintf, strings.Join, strconv's) are followed by
// the evaluator itself (evaluator.call); the rest of what it returns is
// error messages and String forms. Their summaries would only add weight:
// go vet carries the facts of types' methods in the facts file of every
// package that can reach them, and hashes those files on every run.
func (g *Engine) ExportFacts() {
	if g.standard() {
		return
	}
	// The fields of the package's types that their methods run a
	// script from (scriptfield.go).
	scriptFields := map[*types.TypeName][]string{}
	for fn, decl := range g.decls {
		// Only exported functions can be called from other packages.
		if decl.Body == nil || !fn.Exported() {
			continue
		}
		if sep, ok := g.joinSep(fn, decl); ok {
			g.facts.ExportObjectFact(fn, &KeyJoin{Sep: sep})
			continue
		}
		if fi, ok := g.sprintfReturn(fn, decl); ok {
			g.facts.ExportObjectFact(fn, &KeyFormat{Format: fi})
			continue
		}
		s := g.summarize(decl)
		if len(s.Results) > 0 || len(s.Later) > 0 {
			f := &KeyFunc{}
			for _, r := range s.Results {
				f.Results = append(f.Results, r.Key)
			}
			for _, rs := range s.Later {
				var ks []keyspace.Key
				for _, r := range rs {
					ks = append(ks, r.Key)
				}
				f.Later = append(f.Later, ks)
			}
			g.facts.ExportObjectFact(fn, f)
		}
		var calls []WrappedCall
		for _, w := range s.Carried {
			if !w.local {
				calls = append(calls, w)
			}
			if t := recvTypeName(fn); t != nil && w.ScriptField != "" && !slices.Contains(scriptFields[t], w.ScriptField) {
				scriptFields[t] = append(scriptFields[t], w.ScriptField)
			}
		}
		if len(calls) > 0 && g.pipeFunc(fn) == nil {
			// A function that acts as a client's pipeline method
			// (pipefunc.go) is checked as that method at its callers.
			g.facts.ExportObjectFact(fn, &KeyWrapper{Calls: calls})
		}
	}
	g.exportInterfaces()
	g.exportFields()
	g.exportScripts()
	g.exportScriptCtors(scriptFields)
	g.exportMakers()
	g.exportPipeFuncs()
	g.exportReplies()
	for v, init := range g.pkgVars {
		if !v.Exported() {
			continue
		}
		if text, ok := g.templateText(g.pkgEval, init); ok {
			g.facts.ExportObjectFact(v, &KeyVar{Template: text})
			continue
		}
		if !isStringType(v.Type()) {
			continue
		}
		alts := g.packageVar(v, init.Pos())
		if allOpaque(alts) {
			continue
		}
		f := &KeyVar{}
		for _, a := range alts {
			f.Keys = append(f.Keys, a.Key)
		}
		g.facts.ExportObjectFact(v, f)
	}
}

// standard reports whether the package is one of the standard library's:
// one of its files is (the others may be the go command's cgo output).
func (g *Engine) standard() bool {
	for _, f := range g.files {
		if StandardFile(g.fset.File(f.Pos()).Name()) {
			return true
		}
	}
	return false
}

// StandardFile reports whether a Go file belongs to the standard library:
// it is in $GOROOT/src. A package of the standard library exports no facts
// (ExportFacts) and, as nothing there reaches a client library, reports
// nothing either.
func StandardFile(name string) bool {
	root := build.Default.GOROOT
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Join(root, "src"), name)
	return err == nil && filepath.IsLocal(rel)
}
