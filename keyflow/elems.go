package keyflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// Functions that take a collection of keys and send each element, built
// into a key of their own, in one command or one transaction:
//
//	func (c *redisCache) MultiGet(ctx context.Context, keys []string) error {
//		cacheKeys := make([]string, len(keys))
//		for i, key := range keys {
//			cacheKeys[i] = c.prefix + ":" + key
//		}
//		return c.client.MGet(ctx, cacheKeys...).Err()
//	}
//
//	func (c *Client) MSet(ctx context.Context, keys []string, values [][]byte) error {
//		pipe := c.rdb.TxPipeline()
//		for i := range keys {
//			pipe.Set(ctx, keys[i], values[i], 0)
//		}
//		_, err := pipe.Exec(ctx)
//		return err
//	}
//
// The range variable over a slice parameter (and the key variable over a
// map parameter), and the parameter indexed by a local variable, are an
// element of the callers' collection: an unknown "$N[k@pos]", another
// value at each turn of the loop. A command whose keys are in doubt only
// because they are built from different elements (the keys with every
// element alike share a slot), and show nothing of their slot here but
// the elements and a prefix joined with separators ("<prefix>:<key>"), is
// carried to the callers as a WrappedCall whose Groups hold the element
// as "$N[]": each caller checks it with one key for each element of the
// slice it passes, and two for an element that stands for many (built in
// a loop). A caller that passes its own parameter on carries the command
// further. Keys with text of the function's own ("contact_user_list_" +
// id) are checked where they are built, as keys built around a parameter
// are (keysConflict).

// mapParam returns "$N" when x is a parameter of the function that is a
// map: its keys are its callers'.
func (e *evaluator) mapParam(x ast.Expr) string {
	if v, p := e.paramOf(x); v != nil && isMap(v.Type()) {
		return p
	}
	return ""
}

// elemID is the identity of an element of the slice parameter p, one per
// instance inst (a loop's variable).
func elemID(p, inst string) string { return p + "[" + inst + "]" }

// elemParam returns N of an element's identity "$N[...]", or false.
func elemParam(id string) (int, bool) {
	if len(id) < 3 || id[0] != '$' {
		return 0, false
	}
	i := strings.IndexByte(id, '[')
	if i < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(id[1:i])
	return n, err == nil
}

func isElemID(id string) bool {
	_, ok := elemParam(id)
	return ok
}

// keyElems returns the parameter whose elements a key is built from, or
// -1; -2 when it is built from the elements of two parameters.
func keyElems(k keyspace.Key) int {
	n := -1
	for _, p := range k.Parts {
		if !p.Unknown {
			continue
		}
		if m, ok := elemParam(p.ID); ok {
			if n >= 0 && m != n {
				return -2
			}
			n = m
		}
	}
	return n
}

// groupElems returns the parameter whose elements the keys of a carried
// group are built from, or false.
func groupElems(alts []keyspace.Key) (int, bool) {
	n := -1
	for _, k := range alts {
		m := keyElems(k)
		if m == -2 || m >= 0 && n >= 0 && m != n {
			return 0, false
		}
		if m >= 0 {
			n = m
		}
	}
	return n, n >= 0
}

// hasElems reports whether some key of the groups is built from an
// element of a slice parameter.
func hasElems(groups []Group) bool {
	return anyKey(groups, func(k keyspace.Key) bool { return keyElems(k) >= 0 })
}

// collected reports whether the keys built from elements of a slice
// parameter are those of a collection: each as one turn of its loop and
// as another builds it (Func.again). A command sent once at each turn,
// with one element, is not carried so.
func collected(groups []Group) bool {
	plain, varied := map[string]bool{}, map[string]bool{}
	for _, g := range groups {
		for _, v := range g {
			for _, p := range v.Key.Parts {
				if !p.Unknown || !isElemID(p.ID) {
					continue
				}
				if id := strings.TrimRight(p.ID, "'"); id != p.ID {
					varied[id] = true
				} else {
					plain[id] = true
				}
			}
		}
	}
	for id := range plain {
		if !varied[id] {
			return false
		}
	}
	return len(plain) > 0
}

// elemTemplate returns k with each element of a parameter as "$N[]": the
// same for every element, in every turn of the loop.
func elemTemplate(k keyspace.Key) keyspace.Key {
	parts := make([]keyspace.Part, len(k.Parts))
	for i, p := range k.Parts {
		if n, ok := elemParam(p.ID); ok && p.Unknown {
			p.ID = elemID("$"+strconv.Itoa(n), "")
		}
		parts[i] = p
	}
	return keyspace.Key{Parts: parts, Choices: k.Choices}
}

// elemTemplates returns the key groups with their elements as templates,
// each group once.
func elemTemplates(groups []Group) []Group {
	var out []Group
	seen := map[string]bool{}
	for _, g := range groups {
		var t Group
		var id strings.Builder
		for _, v := range g {
			k := elemTemplate(v.Key)
			t = append(t, Value{k, v.Pos})
			id.WriteString(keyIdentity(k) + "|")
		}
		if !seen[id.String()] {
			seen[id.String()] = true
			out = append(out, t)
		}
	}
	return out
}

// carryElems carries to the function's callers a site whose keys are in
// doubt only because they are built from different elements of a slice or
// map parameter, and show nothing of their slot here but the callers'
// elements and a prefix joined with separators. It reports whether it
// did; a site whose keys have text of the function's own is checked here
// (keysConflict), as a function that builds keys around its parameters is.
func (g *Engine) carryElems(s *Func, site *Site, groups []Group) bool {
	if site.keysChecked || !collected(groups) {
		return false
	}
	if site.Col, site.Chosen = Colocate(groups); site.Col.Verdict == keyspace.Same {
		return false
	}
	tmpl := elemTemplates(groups)
	if ownConflict(tmpl) || ownText(tmpl) || anyKey(tmpl, Listed) || uniqueOwn(tmpl) {
		// Keys read from Redis (the members of a set, a SCAN's page) are
		// in doubt whatever the callers pass: checked here.
		return false
	}
	if s.Obj != nil && g.behindForeign(s.Obj) && !anyKey(tmpl, callersPart) {
		// A method called only through an interface of another
		// package, whose callers never see what it carries, and whose
		// keys' prefix is its own (a field), not its callers': the
		// keys are checked here.
		site.elemsHere = true
		return false
	}
	if len(tmpl) > 1 {
		if col, _ := Colocate(tmpl); col.Verdict == keyspace.Different {
			return false
		}
	}
	// One carried call for each alternative of the keys built from the
	// elements: every element takes the one path ("<key>" when the prefix
	// is empty, "<prefix>:<key>" otherwise), not one path for one element
	// and another for the next.
	choices := make([][]Group, len(tmpl))
	for i, grp := range tmpl {
		if len(grp) == 1 || !hasElems([]Group{grp}) {
			choices[i] = []Group{grp}
			continue
		}
		for _, v := range grp {
			choices[i] = append(choices[i], Group{v})
		}
	}
	if count(choices, maxAlts) > maxAlts {
		for i, grp := range tmpl {
			choices[i] = []Group{grp}
		}
	}
	combos(reversed(choices), maxAlts, func(c []Group) bool {
		w := WrappedCall{Command: site.Name, Where: g.where(site.Call.Pos()), Pos: site.Call.Pos(), Split: site.SplitAlone, Open: site.Open}
		for i := len(c) - 1; i >= 0; i-- {
			w.Groups = append(w.Groups, keysOf(c[i]))
		}
		s.Carried = append(s.Carried, w)
		return true
	})
	return true
}

// callersPart reports whether a key holds a parameter of the function
// other than the elements of a slice: a prefix its callers give.
func callersPart(k keyspace.Key) bool {
	for _, p := range k.Parts {
		if p.Unknown && isParamID(p.ID) {
			return true
		}
	}
	return false
}

// ownText reports whether some key has literal text of the function's own
// beyond separators: "contact_user_list_" + id decides the keys' slots
// where it is built, and is checked there.
func ownText(groups []Group) bool {
	return anyKey(groups, func(k keyspace.Key) bool { return HasShape(k) && !onlySeparators(k) })
}

// onlySeparators reports whether the literal text of a key is only
// separators (":", "/", "_", "-", "."): "<prefix>:<key>" is the callers'
// prefix and key, and shows nothing of its slot.
func onlySeparators(k keyspace.Key) bool {
	for _, p := range k.Parts {
		if !p.Unknown && strings.Trim(p.Lit, ":/_-.|#") != "" {
			return false
		}
	}
	return true
}

// elemArgs returns the caller's keys for a carried group built from the
// elements of parameter n of fn: the group's keys with each element of the
// slice the call passes, the variadic arguments one by one; an element
// that stands for many gives two. A slice that is the caller's own
// parameter gives an element of it, for its callers.
func (g *Engine) elemArgs(e *evaluator, call *ast.CallExpr, sig *types.Signature, n int, alts []keyspace.Key) ([]Group, bool) {
	variadic := sig.Variadic() && n == sig.Params().Len()-1
	if n >= len(call.Args) {
		return nil, !variadic
	}
	var elems []elem
	open := false
	arg := call.Args[n]
	ofMap := isMap(sig.Params().At(min(n, sig.Params().Len()-1)).Type())
	own := e.spreadParam(arg)
	if ofMap {
		own = e.mapParam(arg)
	}
	switch {
	case variadic && !call.Ellipsis.IsValid():
		for _, a := range call.Args[n:] {
			elems = append(elems, elem{alts: e.keys(a)})
		}
	case own != "":
		id := elemID(own, fmt.Sprintf("%d", arg.Pos()))
		name := exprName(arg)
		for _, k := range alts {
			for _, p := range k.Parts {
				if m, ok := elemParam(p.ID); ok && m == n && p.Unknown {
					name = p.Name
				}
			}
		}
		elems = []elem{{
			alts:  []Value{{keyspace.Unknown(id, name, false), arg.Pos()}},
			many:  true,
			again: []Value{{keyspace.Unknown(id+"'", name, false), arg.Pos()}},
		}}
	case ofMap:
		var ok bool
		if elems, ok = e.mapKeys(arg, call.Pos()); !ok {
			return nil, true
		}
	default:
		sl := g.keySlice(e, call, arg)
		elems, open = sl.elems, sl.open
	}
	var out []Group
	for _, el := range elems {
		out = append(out, g.fillElem(e, call, alts, n, el.alts))
		if el.many {
			out = append(out, g.fillElem(e, call, alts, n, e.again(el)))
		}
	}
	return out, open
}

// fillElem returns a carried group's keys at a call with each of vals, the
// values of one element of the slice passed as parameter n.
func (g *Engine) fillElem(e *evaluator, call *ast.CallExpr, alts []keyspace.Key, n int, vals []Value) Group {
	var out Group
	for _, k := range alts {
		// The parts between the elements, each in the caller's terms.
		var segs [][]keyspace.Key
		var seg []keyspace.Part
		flush := func() {
			segs = append(segs, g.substitute(e, call, keyspace.Key{Parts: seg}))
			seg = nil
		}
		for _, p := range k.Parts {
			if m, ok := elemParam(p.ID); ok && m == n && p.Unknown {
				flush()
				continue
			}
			seg = append(seg, p)
		}
		flush()
		for _, v := range vals {
			keys := []keyspace.Key{{}}
			for i, alts := range segs {
				var next []keyspace.Key
				for _, pre := range keys {
					for _, a := range alts {
						if i > 0 {
							next = append(next, keyspace.Concat(pre, v.Key, a))
						} else {
							next = append(next, keyspace.Concat(pre, a))
						}
					}
				}
				keys = next
			}
			for _, key := range keys {
				out = append(out, Value{key, v.Pos})
			}
		}
	}
	if len(out) > maxAlts {
		return Group{{keyspace.Unknown("", exprName(call), false), call.Pos()}}
	}
	return out
}

// mapKeys returns the keys of a map that x builds before pos: a map
// literal, or a local variable set once to a literal or a make and
// filled by m[k] = v, each such k standing for many in a loop. Any
// other map's keys are not seen.
func (e *evaluator) mapKeys(x ast.Expr, pos token.Pos) ([]elem, bool) {
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	var filled []elem
	if id, isID := ast.Unparen(x).(*ast.Ident); isID {
		v := e.localVar(id)
		if v == nil {
			return nil, false
		}
		init := ast.Unparen(e.setOnce(id))
		lit, ok = init.(*ast.CompositeLit)
		if call, isCall := init.(*ast.CallExpr); isCall && isBuiltin(e.g.info, call.Fun, "make") {
			ok = true
		}
		if e.g.indexWritten()[v] {
			filled = e.indexWrites(v, pos)
			ok = ok && len(filled) > 0
		}
	}
	if !ok {
		return nil, false
	}
	var elems []elem
	if lit != nil {
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				return nil, false
			}
			elems = append(elems, elem{alts: e.keys(kv.Key)})
		}
	}
	return append(elems, filled...), true
}

// indexWrites returns the indexes of the writes v[k] = x (or v[k], err =
// f(x)) of a local map before pos, each standing for many in a loop; nil
// when v is written in any other way (&v, delete, v[k] += x), or read by
// address.
func (e *evaluator) indexWrites(v *types.Var, pos token.Pos) []elem {
	if e.decl == nil || e.decl.Body == nil {
		return nil
	}
	var out []elem
	bad := false
	is := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && e.g.info.ObjectOf(id) == v
	}
	ast.Inspect(e.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
				if !ok || !is(ix.X) {
					continue
				}
				if n.Tok != token.ASSIGN {
					bad = true
					continue
				}
				// m[k] = v, or m[k], err = f(v): the index is a key
				// either way.
				if ix.Pos() < pos {
					out = append(out, elem{alts: e.keys(ix.Index), many: e.loopAround(v, ix.Pos())})
				}
			}
		case *ast.CallExpr:
			if isBuiltin(e.g.info, n.Fun, "delete") && len(n.Args) > 0 && is(n.Args[0]) {
				bad = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				bad = true
			}
		}
		return !bad
	})
	if bad {
		return nil
	}
	return out
}
