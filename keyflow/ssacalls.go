package keyflow

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"golang.org/x/tools/go/ssa"
)

// Collections returned by the package's functions: a helper that runs
// SCAN, KEYS or SMEMBERS and returns the keys it listed, whose caller
// sends them in one MGET or DEL, or a helper that builds a slice of keys
// in a loop. The walk follows a call's result into the return statements
// of the function it calls, when that function is declared in the package,
// to maxCallDepth calls deep and never into a function it is already in;
// the elements it finds there are turned into the caller's values: the
// callee's parameters ("$0", "$recv.f") become the call's arguments, as
// the syntax tree's summaries do (substitute).

// maxCallDepth bounds how many calls deep a walk follows returned values.
const maxCallDepth = 4

// returned returns the collection that result idx of a call holds: what
// the function it calls returns there, in the caller's terms; false when
// the callee is not a function of the package with a body, or the walk is
// too deep or already in it.
func (w *walker) returned(call *ssa.Call, idx, depth int) (coll, bool) {
	callee := calleeOf(call) // the generic function of an instance
	l := w.l
	if callee == nil || callee.Blocks == nil || callee.Parent() != nil || callee.Pkg == nil || callee.Pkg.Pkg != l.g.pkg {
		return coll{}, false
	}
	if w.into[callee] || len(w.into) >= maxCallDepth {
		return coll{}, false
	}
	if _, ok := callee.Syntax().(*ast.FuncDecl); !ok {
		return coll{}, false
	}
	x := l.callExpr(call)
	caller := l.evaluator(nil, call.Parent())
	inner := l.evaluator(nil, callee)
	if x == nil || caller == nil || inner == nil {
		return coll{}, false
	}
	if w.into == nil {
		w.into = map[*ssa.Function]bool{}
	}
	w.into[callee] = true
	defer delete(w.into, callee)
	sub := &walker{l: l, busy: map[ssa.Value]bool{}, into: w.into, spreads: w.spreads}
	var got coll
	for _, b := range callee.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || idx >= len(ret.Results) {
			continue
		}
		got.add(sub.collection(ret.Results[idx], depth+1))
		if got.open || len(got.elems) > maxElems {
			return coll{open: true}, true
		}
	}
	if len(got.cyc) > 0 {
		return coll{open: true}, true
	}
	var out coll
	for _, el := range got.elems {
		if w.spreads {
			if ne, ok := w.l.passedOn(caller, inner, x, el); ok {
				out.elems = append(out.elems, ne)
				continue
			}
		}
		if arg := w.l.elemsOfArg(inner, call, el); arg != nil {
			// A helper that returns elements of its slice parameter
			// (a dedup, a filter): those of the slice the call passes.
			c := w.collection(arg, depth+1)
			if c.open {
				return coll{open: true}, true
			}
			out.elems = append(out.elems, c.elems...)
			continue
		}
		if els, ok := w.l.variadicElems(caller, inner, x, el); ok {
			out.elems = append(out.elems, els...)
			continue
		}
		ne, ok := w.l.callerElem(caller, inner, x, el)
		if !ok {
			return coll{open: true}, true
		}
		out.elems = append(out.elems, ne)
	}
	return out, true
}

// elemsOfArg returns the argument of a call that an element its callee
// returns stands for each element of, "$N[i]" (the variable of a range
// over parameter N, appended or stored by index), or nil.
func (l *ssaLayer) elemsOfArg(inner *evaluator, call *ssa.Call, el sElem) ssa.Value {
	if !el.many {
		return nil
	}
	alts, _ := l.elemKeys(inner, el)
	if len(alts) != 1 {
		return nil
	}
	n, ok := elemParam(unknownID(alts[0].Key))
	if !ok {
		return nil
	}
	if fn := call.Call.StaticCallee(); fn == nil {
		return nil
	} else if fn.Signature.Recv() != nil {
		n++ // the receiver is the call's first argument
	}
	if n >= len(call.Call.Args) {
		return nil
	}
	return call.Call.Args[n]
}

// variadicElems returns the elements of what a callee returns that it
// builds from each element of its variadic parameter, at a call that
// passes the variadic arguments one by one: one element for each, as
// zitadel's redisIndexKeys(index, key) returns one key, and (index, a, b)
// two. False for any other element, or a call that spreads a slice there.
func (l *ssaLayer) variadicElems(caller, inner *evaluator, x *ast.CallExpr, el sElem) ([]sElem, bool) {
	if !el.many || el.glob != "" || x.Ellipsis.IsValid() {
		return nil, false
	}
	sig, ok := l.g.info.TypeOf(x.Fun).Underlying().(*types.Signature)
	if !ok || !sig.Variadic() {
		return nil, false
	}
	n := sig.Params().Len() - 1
	alts, _ := l.elemKeys(inner, el)
	if len(alts) == 0 {
		return nil, false
	}
	keys := make([]keyspace.Key, len(alts))
	for i, a := range alts {
		if keyElems(a.Key) != n {
			return nil, false
		}
		keys[i] = a.Key
	}
	var out []sElem
	for _, a := range x.Args[min(n, len(x.Args)):] {
		out = append(out, sElem{keys: l.g.fillElem(caller, x, keys, n, caller.keys(a))})
	}
	return out, true
}

// callerElem returns an element that a callee returns as its caller sees
// it: its values and, for one that stands for many, another of them, with
// the call's arguments for the callee's parameters. The keys of a listing
// command whose pattern is a parameter of the callee are matched against
// the pattern the caller gives; false when the caller's pattern has no
// text either, and is not the caller's parameter.
func (l *ssaLayer) callerElem(caller, inner *evaluator, x *ast.CallExpr, el sElem) (sElem, bool) {
	pats, id := el.keys, el.glob
	if id == "" && el.v != nil {
		if p, ok := l.pendingListed(el.v); ok {
			pats, id = p.keys, p.glob
		}
	}
	if id != "" {
		subst := l.g.substituteAll(caller, x, pats)
		if keys, ok := globKeys(subst, id); ok {
			return sElem{keys: keys, many: true}, true
		}
		if !hasParam(subst) {
			return sElem{}, false
		}
		return sElem{keys: subst, glob: id, many: true}, true
	}
	alts, ev := l.elemKeys(inner, el)
	out := sElem{keys: l.g.substituteAll(caller, x, alts), many: el.many, sent: el.sent}
	if el.many {
		again := el.again
		if again == nil {
			again = l.again(ev, el, alts)
		}
		out.again = l.g.substituteAll(caller, x, again)
	}
	return out, len(out.keys) > 0
}

// passedOn returns, in a walk that takes slice parameters whole
// (walker.spreads), an element that stands for a slice parameter of the
// callee ("$N...") or for each of its elements in turn ("$N[i]", the
// variable of a range over it) as the caller's: the same of the caller's
// own slice parameter that the call passes there. False when the element
// is no such thing, or the call passes something else there.
func (l *ssaLayer) passedOn(caller, inner *evaluator, x *ast.CallExpr, el sElem) (sElem, bool) {
	alts, _ := l.elemKeys(inner, el)
	if len(alts) != 1 || len(alts[0].Key.Parts) != 1 || !alts[0].Key.Parts[0].Unknown {
		return sElem{}, false
	}
	id := alts[0].Key.Parts[0].ID
	n, whole := spreadIndex(alts[0].Key), true
	if n < 0 {
		var ok bool
		if n, ok = elemParam(id); !ok || !el.many {
			return sElem{}, false
		}
		whole = false
	}
	if n >= len(x.Args) || isVariadicAt(l.g.info, x, n) && (!x.Ellipsis.IsValid() || n != len(x.Args)-1) {
		return sElem{}, false
	}
	p := caller.spreadParam(x.Args[n])
	if p == "" {
		return sElem{}, false
	}
	rest := strings.TrimPrefix(id, "$"+strconv.Itoa(n))
	name := exprName(x.Args[n])
	if whole {
		name += "..."
	}
	return sElem{keys: []Value{{keyspace.Unknown(p+rest, name, false), x.Pos()}}, many: el.many}, true
}

// isVariadicAt reports whether argument i of a call is its callee's
// variadic parameter.
func isVariadicAt(info *types.Info, x *ast.CallExpr, i int) bool {
	sig, ok := info.TypeOf(x.Fun).Underlying().(*types.Signature)
	return ok && sig.Variadic() && i == sig.Params().Len()-1
}

// substituteAll puts a call's arguments in place of the callee's
// parameters in each of alts. Unlike substitute it keeps the identities of
// the callee's other unknowns: a listing command's reply stays one, and
// two iterations of the callee's loop stay apart.
func (g *Engine) substituteAll(e *evaluator, call *ast.CallExpr, alts []Value) []Value {
	var out []Value
	for _, a := range alts {
		keys := g.substituteKey(e, call, a.Key, substKeep)
		if keys == nil {
			return nil
		}
		for _, k := range keys {
			out = append(out, Value{k, call.Pos()})
		}
	}
	if len(out) > maxAlts {
		return []Value{{keyspace.Unknown("", exprName(call), false), call.Pos()}}
	}
	return out
}

// hasParam reports whether some value holds a parameter of its function.
func hasParam(alts []Value) bool {
	return anyPart(alts, func(p keyspace.Part) bool { return p.Unknown && strings.HasPrefix(p.ID, "$") })
}

// pending reports whether some element of c holds keys of a pattern that
// no caller gave the text of.
func pending(c coll) bool {
	for _, el := range c.elems {
		if el.glob != "" {
			return true
		}
	}
	return false
}

// pendingListed returns the element that v, the reply of KEYS or SCAN,
// stands for when the pattern has no text of its own but holds a
// parameter of its function: the keys are those the pattern a caller
// passes matches.
func (l *ssaLayer) pendingListed(v ssa.Value) (sElem, bool) {
	call := l.listCall(v)
	if call == nil {
		return sElem{}, false
	}
	x, _, pats, ok := l.pattern(call)
	if !ok || pats == nil || !hasParam(pats) {
		return sElem{}, false
	}
	if _, ok := globKeys(pats, ""); ok {
		return sElem{}, false
	}
	return sElem{keys: pats, glob: fmt.Sprintf("reply@%d", x.Pos()), many: true}, true
}

// callExpr returns the call expression that made a call instruction.
func (l *ssaLayer) callExpr(c *ssa.Call) *ast.CallExpr {
	if x, ok := l.exprOf(c).(*ast.CallExpr); ok {
		return x
	}
	fn := c.Parent()
	for fn != nil && fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn == nil || fn.Syntax() == nil {
		return nil
	}
	var found *ast.CallExpr
	ast.Inspect(fn.Syntax(), func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if x, ok := n.(*ast.CallExpr); ok && x.Lparen == c.Pos() {
			found = x
		}
		return true
	})
	return found
}
