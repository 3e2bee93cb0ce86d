package keyflow

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// Keys made by a function that the caller hands in:
//
//	func cacheKeys(ids []int64, build func(int64) string) []string {
//		for _, id := range ids {
//			keys = append(keys, build(id))
//		}
//	}
//	rdb.MGet(ctx, cacheKeys(ids, feedCardKey)...)
//
// A call of a func-typed parameter is an unknown that names the parameter
// and the identities of its arguments ("apply:$1" ...). At a call of the
// function, the summary of the function passed there (a named function of
// the package, or a fact's) gives its keys, with the call's values of
// those arguments in place of its parameters. A function literal passed
// there is not followed.

const (
	applyPrefix = "apply:"
	applySep    = "\x1f" // between the parameter and each argument
	applyName   = "\x1e" // between an argument's identity and its name
)

// paramApply evaluates a call of a func-typed parameter of the function
// that returns a string; false for another call.
func (e *evaluator) paramApply(call *ast.CallExpr) (Value, bool) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || !isStringType(e.g.info.TypeOf(call)) || call.Ellipsis.IsValid() {
		return Value{}, false
	}
	v, _ := e.g.info.Uses[id].(*types.Var)
	p, ok := e.params[v]
	if !ok || !isParamID(p) {
		return Value{}, false
	}
	var b strings.Builder
	b.WriteString(applyPrefix + p)
	for _, a := range call.Args {
		b.WriteString(applySep + oneID(keysOf(e.keys(a))) + applyName + exprName(a))
	}
	return Value{keyspace.Unknown(b.String(), exprName(call), false), call.Pos()}, true
}

// isApplyID reports whether id is that of a call of a parameter.
func isApplyID(id string) bool { return strings.HasPrefix(id, applyPrefix) }

// applied returns the keys at a call of the callee's call of its
// func-typed parameter p: the keys of the function passed there, given
// the call's values of the arguments; one unknown when it is not seen.
func (g *Engine) applied(e *evaluator, call *ast.CallExpr, p keyspace.Part, mode substMode) []keyspace.Key {
	fresh := []keyspace.Key{keyspace.Unknown("", p.Name, p.NoBraces)}
	fields := strings.Split(strings.TrimPrefix(p.ID, applyPrefix), applySep)
	fx := g.argOf(call, strings.TrimPrefix(fields[0], "$"))
	if fx == nil || e == nil {
		return fresh
	}
	// The arguments, in the caller's terms.
	args := make([]keyspace.Key, len(fields)-1)
	for i, f := range fields[1:] {
		id, name, _ := strings.Cut(f, applyName)
		args[i] = keyspace.Unknown("", name, false)
		if id == "" {
			continue
		}
		var k keyspace.Key
		if s, err := strconv.Unquote(id); err == nil {
			k = keyspace.Lit(s)
		} else {
			k = keyspace.Unknown(id, name, false)
		}
		if ks := g.substituteKey(e, call, k, mode); len(ks) == 1 {
			args[i] = ks[0]
		}
	}
	var out []keyspace.Key
	for _, r := range g.passedResults(fx, len(args)) {
		out = append(out, bindParams(r, args))
		if len(out) > maxAlts {
			return fresh
		}
	}
	if len(out) == 0 {
		return fresh
	}
	return out
}

// litParam is the identity of a parameter of the function passed while
// its results are bound to the call's values (passedResults): "λ0",
// "λ1", ..., apart from the caller's own "$0".
func litParam(i int) string { return "λ" + strconv.Itoa(i) }

// passedResults returns the keys that the function fx names returns, in
// terms of its parameters litParam(0), ...: its summary's, whose own
// values are fresh.
func (g *Engine) passedResults(fx ast.Expr, nargs int) []keyspace.Key {
	fn, _ := g.info.Uses[IdentOf(fx)].(*types.Func)
	if fn == nil || fn.Signature().Recv() != nil || fn.Signature().Params().Len() != nargs {
		return nil
	}
	results := g.resultsOf(fn, 0)
	out := make([]keyspace.Key, len(results))
	for i, r := range results {
		parts := slices.Clone(r.Parts)
		for j, q := range parts {
			switch {
			case !q.Unknown:
			case paramIndex(q.ID) >= 0:
				parts[j].ID = litParam(paramIndex(q.ID))
			case derivedOfParam(q.ID) && paramIndex(innermost(q.ID)) >= 0:
				parts[j].ID = strings.Replace(q.ID, innermost(q.ID), litParam(paramIndex(innermost(q.ID))), 1)
			default:
				parts[j].ID = "" // the function's own value
			}
		}
		out[i] = keyspace.Key{Parts: parts}
	}
	return out
}

// paramIndex returns N of a parameter's identity "$N" or "λN", or -1.
func paramIndex(id string) int {
	for _, pre := range []string{"$", "λ"} {
		if rest, ok := strings.CutPrefix(id, pre); ok {
			if n, err := strconv.Atoi(rest); err == nil {
				return n
			}
		}
	}
	return -1
}

// innermost is the value at the heart of a derived identity: "$0" of
// "ToLower(strconv/10($0))".
func innermost(id string) string {
	for {
		i := strings.IndexByte(id, '(')
		if i <= 0 || !strings.HasSuffix(id, ")") {
			return id
		}
		id = id[i+1 : len(id)-1]
	}
}

// bindParams puts args in place of the parameters litParam(i) of k; a
// value derived from one is the same function of the argument when that
// is one unknown with an identity, a fresh value otherwise.
func bindParams(k keyspace.Key, args []keyspace.Key) keyspace.Key {
	var out keyspace.Key
	for _, q := range k.Parts {
		if !q.Unknown || !strings.Contains(q.ID, "λ") {
			out = keyspace.Concat(out, keyspace.Key{Parts: []keyspace.Part{q}})
			continue
		}
		in := innermost(q.ID)
		n := paramIndex(in)
		if n < 0 || n >= len(args) || !strings.HasPrefix(in, "λ") {
			q.ID = ""
			out = keyspace.Concat(out, keyspace.Key{Parts: []keyspace.Part{q}})
			continue
		}
		if in == q.ID {
			out = keyspace.Concat(out, args[n])
			continue
		}
		// strconv.Itoa(λ0): of the argument's identity.
		id := q.ID
		q.ID = ""
		if a := args[n].Parts; len(a) == 1 && a[0].Unknown {
			q.Name = a[0].Name
			if a[0].ID != "" {
				q.ID = strings.Replace(id, in, a[0].ID, 1)
			}
		}
		out = keyspace.Concat(out, keyspace.Key{Parts: []keyspace.Part{q}})
	}
	return out.Choosing(k.Choices...)
}
