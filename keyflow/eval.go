package keyflow

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"golang.org/x/tools/go/types/typeutil"
)

// A Value is one possible value of a key expression, and where it was built.
type Value struct {
	Key keyspace.Key
	Pos token.Pos
}

// maxAlts bounds the alternatives an expression may have (a variable set on
// many branches); past it the value is one unknown.
const maxAlts = 8

// An elem is one element of a slice of keys: its possible values, and
// whether the element stands for any number of elements built in a loop.
type elem struct {
	alts []Value
	many bool
	// again are the values as another of the many elements holds them,
	// when the SSA layer knows them; nil for the evaluator's vary.
	again []Value
}

// A slice is what is known of a []string of keys.
type slice struct {
	elems []elem
	// open is true when the slice holds elements that are not seen: it comes
	// from a parameter, a call, or an append of another such slice.
	open bool
	// half, when not 0, is the number of elements that fill its first
	// half (coll.half).
	half int
}

// An evaluator recovers the keys that Go expressions build, within one
// function declaration (its nested function literals included).
type evaluator struct {
	g    *Engine
	decl *ast.FuncDecl // nil for package-level initializers
	// consts are constant arguments bound to parameters, when a call of
	// the function is followed for the script it makes (scriptOfCall).
	consts map[*types.Var]string

	// params gives identities to the declaration's parameters, "$0", "$1",
	// ..., and "$recv" for the receiver, so that summaries can substitute
	// the arguments of a call for them.
	params map[*types.Var]string
	// defs holds every assignment to each local variable: the expressions
	// it may hold, and whether each sits in a loop.
	defs map[*types.Var][]def
	// appends holds what is appended to each local slice variable.
	appends map[*types.Var][]appendDef
	// busy guards against cycles through variables (x = x + "a"), and
	// busyFrom is the assignment of a local variable being followed: a use
	// in it that only earlier assignments reach is no cycle (k := tmpl;
	// k = strings.Replace(k, ...)).
	busy     map[*types.Var]bool
	busyFrom map[*types.Var]token.Pos
	// loopIDs are the identities of variables set inside loops, and
	// loopVars the variables.
	loopIDs  map[string]bool
	loopVars map[string]*types.Var
	// paths caches the nodes that enclose a position (pathTo); hasGoto is
	// 0 until flowSensitive looks, then 1 without goto, 2 with.
	paths   map[token.Pos][]ast.Node
	hasGoto int
	// setParams are the parameters the function assigns to (paramSet).
	setParams map[*types.Var]bool
}

type def struct {
	rhs    ast.Expr // nil: set in a way not followed (a range variable, &v)
	pos    token.Pos
	inLoop bool
	add    bool // v += rhs
	// rng is the slice, array or map that a range statement's value
	// variable takes its values from; keysOf the map whose keys its key
	// variable takes.
	rng, keysOf ast.Expr
	// from is the call whose result number res, not the first, the
	// variable is set to (rhs nil): args in keys, args, err := f().
	from *ast.CallExpr
	res  int
}

type appendDef struct {
	call   *ast.CallExpr // append(v, ...)
	inLoop bool
}

func newEvaluator(g *Engine, decl *ast.FuncDecl) *evaluator {
	e := &evaluator{
		g:        g,
		decl:     decl,
		params:   map[*types.Var]string{},
		defs:     map[*types.Var][]def{},
		appends:  map[*types.Var][]appendDef{},
		busy:     map[*types.Var]bool{},
		busyFrom: map[*types.Var]token.Pos{},
		loopIDs:  map[string]bool{},
		loopVars: map[string]*types.Var{},
	}
	if decl == nil {
		return e
	}
	info := g.info
	if decl.Recv != nil {
		for _, f := range decl.Recv.List {
			for _, n := range f.Names {
				if v, ok := info.Defs[n].(*types.Var); ok {
					e.params[v] = "$recv"
				}
			}
		}
	}
	i := 0
	for _, f := range decl.Type.Params.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			if v, ok := info.Defs[n].(*types.Var); ok {
				e.params[v] = "$" + strconv.Itoa(i)
			}
			i++
		}
	}
	if decl.Body != nil {
		e.collect(decl.Body, false)
	}
	return e
}

// collect records the assignments in a function body.
func (e *evaluator) collect(n ast.Node, inLoop bool) {
	info := e.g.info
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			if n.Init != nil {
				e.collect(n.Init, inLoop)
			}
			if n.Cond != nil {
				// for s.Next(&key): the condition sets key on each turn.
				e.collect(n.Cond, true)
			}
			e.collect(n.Body, true)
			if n.Post != nil {
				e.collect(n.Post, true)
			}
			return false
		case *ast.RangeStmt:
			for i, x := range []ast.Expr{n.Key, n.Value} {
				if id, ok := x.(*ast.Ident); ok {
					if v := e.localVar(id); v != nil {
						d := def{pos: id.Pos(), inLoop: true}
						if i == 1 && n.Tok == token.DEFINE && rangesOverElems(info.TypeOf(n.X)) {
							d.rng = n.X
						}
						if i == 0 && n.Tok == token.DEFINE && isMap(info.TypeOf(n.X)) {
							d.keysOf = n.X
						}
						e.defs[v] = append(e.defs[v], d)
					}
				}
			}
			e.collect(n.Body, true)
			return false
		case *ast.FuncLit:
			// A closure may run any number of times.
			e.collect(n.Body, true)
			return false
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := ast.Unparen(lhs).(*ast.Ident)
				if !ok {
					continue
				}
				v := e.localVar(id)
				if v == nil {
					continue
				}
				var rhs ast.Expr
				var from *ast.CallExpr
				switch {
				case len(n.Lhs) == len(n.Rhs):
					rhs = n.Rhs[i]
				case len(n.Rhs) == 1 && i == 0:
					rhs = n.Rhs[0] // k, err := f(): the first result
				case len(n.Rhs) == 1:
					from, _ = ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
				}
				if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
					if n.Tok != token.ADD_ASSIGN {
						rhs = nil
					}
					e.defs[v] = append(e.defs[v], def{rhs: rhs, pos: id.Pos(), inLoop: inLoop, add: rhs != nil})
					continue
				}
				if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && isBuiltin(info, call.Fun, "append") && len(call.Args) > 0 {
					if base, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok && e.localVar(base) == v {
						e.appends[v] = append(e.appends[v], appendDef{call: call, inLoop: inLoop})
						continue
					}
				}
				e.defs[v] = append(e.defs[v], def{rhs: rhs, pos: id.Pos(), inLoop: inLoop, from: from, res: i})
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				v := e.localVar(id)
				if v == nil {
					continue
				}
				var rhs ast.Expr
				if len(n.Values) == len(n.Names) {
					rhs = n.Values[i]
				} else if len(n.Values) == 0 {
					rhs = zeroExpr
				}
				e.defs[v] = append(e.defs[v], def{rhs: rhs, pos: id.Pos(), inLoop: inLoop})
			}
		case *ast.IncDecStmt:
			// i++ sets i to what the evaluator does not follow.
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				if v := e.localVar(id); v != nil {
					e.defs[v] = append(e.defs[v], def{pos: id.Pos(), inLoop: inLoop})
				}
			}
		case *ast.UnaryExpr:
			// &x lets anything change x.
			if n.Op == token.AND {
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					if v := e.localVar(id); v != nil {
						e.defs[v] = append(e.defs[v], def{pos: id.Pos(), inLoop: inLoop})
					}
				}
			}
		}
		return true
	})
}

// zeroExpr stands for a variable declared without a value.
var zeroExpr = &ast.BasicLit{Kind: token.STRING, Value: `""`}

// localVar returns the variable that id denotes if it is local to a
// function, and not one of the declaration's parameters.
func (e *evaluator) localVar(id *ast.Ident) *types.Var {
	v, ok := e.g.info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	if _, isParam := e.params[v]; isParam {
		return nil
	}
	return v
}

func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// keys returns the possible values of a string expression.
func (e *evaluator) keys(x ast.Expr) []Value {
	alts := e.keys1(x)
	if len(alts) > maxAlts {
		return []Value{e.opaque(x)}
	}
	return alts
}

func (e *evaluator) keys1(x ast.Expr) []Value {
	info := e.g.info
	x = ast.Unparen(x)
	if tv, ok := info.Types[x]; ok && tv.Value != nil {
		if s, ok := constString(tv.Value); ok {
			return []Value{{keyspace.Lit(s), x.Pos()}}
		}
	}
	switch x := x.(type) {
	case *ast.BasicLit:
		if x == zeroExpr {
			return []Value{{keyspace.Lit(""), x.Pos()}}
		}
	case *ast.BinaryExpr:
		// a + b of strings; of numbers, a sum (an opaque number below).
		if x.Op == token.ADD && isStringType(info.TypeOf(x)) {
			return concatAlts(e.keys(x.X), e.keys(x.Y), x.Pos())
		}
	case *ast.Ident:
		return e.ident(x)
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			return e.field(x)
		}
		return e.ident(x.Sel)
	case *ast.CallExpr:
		return e.call(x)
	case *ast.StarExpr:
		return e.keys(x.X)
	case *ast.IndexExpr:
		if alts, ok := e.index(x); ok {
			return alts
		}
		if alts, ok := e.paramElem(x); ok {
			return alts
		}
	}
	return []Value{e.opaque(x)}
}

func isMap(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// rangesOverElems reports whether a range over a value of type t gives
// its elements as values: a slice, an array (or a pointer to one), a map.
func rangesOverElems(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
		return true
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok
	}
	return false
}

// index evaluates m["name"] of a map with constant entries, and s[i] of a
// slice or array whose elements are known, i a constant.
func (e *evaluator) index(x *ast.IndexExpr) ([]Value, bool) {
	info := e.g.info
	iv := info.Types[x.Index].Value
	if iv == nil {
		return nil, false
	}
	if _, ok := info.TypeOf(x.X).Underlying().(*types.Map); !ok {
		i, ok := constInt(iv)
		if !ok {
			return nil, false
		}
		sl := e.slice(x.X)
		if sl.open || hasMany(sl.elems) || i < 0 || i >= int64(len(sl.elems)) {
			return nil, false
		}
		return sl.elems[i].alts, true
	}
	lit, ev := e.compositeOf(x.X)
	if lit == nil {
		return nil, false
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if kval := info.Types[kv.Key].Value; kval != nil && constant.Compare(kval, token.EQL, iv) {
			return ev.keys(kv.Value), true
		}
	}
	return nil, false
}

// paramElem evaluates keys[i] of a slice that is the function's parameter,
// i a local variable (a loop's index): an element of the callers' slice,
// another at each value of i.
func (e *evaluator) paramElem(x *ast.IndexExpr) ([]Value, bool) {
	p := e.spreadParam(x.X)
	id, ok := ast.Unparen(x.Index).(*ast.Ident)
	if p == "" || !ok {
		return nil, false
	}
	iv := e.localVar(id)
	if iv == nil {
		return nil, false
	}
	e.varying(iv, nil)
	k := keyspace.Unknown(elemID(p, localID(iv)), exprName(x), e.noBraces(x))
	return []Value{{k, x.Pos()}}, true
}

// compositeOf returns the composite literal that a map variable is set to
// once, package-level or local, and the evaluator of its values.
func (e *evaluator) compositeOf(x ast.Expr) (*ast.CompositeLit, *evaluator) {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, ok := e.g.info.ObjectOf(id).(*types.Var)
	if !ok || e.g.indexWritten()[v] {
		return nil, nil
	}
	var init ast.Expr
	ev := e
	if v.Parent() == v.Pkg().Scope() {
		if v.Pkg() != e.g.pkg {
			return nil, nil
		}
		init, ev = e.g.pkgVars[v], e.g.pkgEval
	} else {
		init = e.setOnce(id)
	}
	lit, _ := ast.Unparen(init).(*ast.CompositeLit)
	return lit, ev
}

// constString returns a constant's value as Go prints it into a key.
func constString(v constant.Value) (string, bool) {
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v), true
	case constant.Int:
		return v.ExactString(), true
	case constant.Bool:
		return v.String(), true
	}
	return "", false
}

// opaque is an unknown value that equals nothing else, shown as the
// expression's source.
func (e *evaluator) opaque(x ast.Expr) Value {
	return Value{keyspace.Unknown("", exprName(x), e.noBraces(x)), x.Pos()}
}

// noBraces reports whether an expression's type rules out braces in its
// text: numbers and booleans.
func (e *evaluator) noBraces(x ast.Expr) bool {
	t := e.g.info.TypeOf(x)
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsNumeric|types.IsBoolean) != 0
}

// ident evaluates a variable or constant.
func (e *evaluator) ident(id *ast.Ident) []Value {
	info := e.g.info
	obj := info.ObjectOf(id)
	name := id.Name
	noBraces := e.noBraces(id)
	switch obj := obj.(type) {
	case *types.Const:
		if s, ok := constString(obj.Val()); ok {
			return []Value{{keyspace.Lit(s), id.Pos()}}
		}
	case *types.Var:
		if p, ok := e.params[obj]; ok {
			noBraces = noBraces || e.bracesRefused(obj, id.Pos())
			k := keyspace.Unknown(p, name, noBraces)
			k.Parts[0].Braced = !noBraces && e.bracesHeld(obj, id.Pos())
			return []Value{{k, id.Pos()}}
		}
		if obj.Parent() == obj.Pkg().Scope() || obj.Parent() == nil && !obj.IsField() {
			return e.g.packageVar(obj, id.Pos())
		}
		return e.local(obj, id)
	}
	return []Value{e.opaque(id)}
}

// before reports whether the assignments defs of v, which reach a use
// while v is being followed, all come before those being followed, outside
// loops: the use sees an earlier value, not the one being built.
func (e *evaluator) before(v *types.Var, defs []def) bool {
	from, ok := e.busyFrom[v]
	if !ok {
		return false
	}
	for _, d := range defs {
		if d.inLoop || d.pos >= from {
			return false
		}
	}
	return true
}

// local evaluates a local variable from its assignments.
func (e *evaluator) local(v *types.Var, use *ast.Ident) []Value {
	id := localID(v)
	noBraces := e.noBraces(use)
	defs := e.reaching(v, e.defs[v], use.Pos())
	// A variable of the enclosing function seen from a closure, a range
	// variable, or one that is set once from something unknown keeps one
	// identity: every use in one run sees the same value.
	self := []Value{{keyspace.Unknown(id, v.Name(), noBraces), v.Pos()}}
	if all := e.defs[v]; len(all) == 1 {
		// for _, k := range keys, for k := range m, keys or m the
		// function's parameter: each of its elements in turn, which its
		// callers know (elems.go).
		p := e.mapParam(all[0].keysOf)
		if all[0].rng != nil {
			p = e.spreadParam(all[0].rng)
		}
		if p != "" {
			return e.varying(v, []Value{{keyspace.Unknown(elemID(p, id), v.Name(), noBraces), v.Pos()}})
		}
	}
	if len(defs) == 0 || e.busy[v] && !e.before(v, defs) {
		return e.varying(v, self)
	}
	var out []Value
	wasBusy, wasFrom := e.busy[v], e.busyFrom[v]
	e.busy[v] = true
	defer func() {
		if wasBusy {
			e.busy[v], e.busyFrom[v] = true, wasFrom
		} else {
			delete(e.busy, v)
			delete(e.busyFrom, v)
		}
	}()
	starts := make([]int, len(defs))
	for i, d := range defs {
		starts[i] = len(out)
		e.busyFrom[v] = d.pos
		switch {
		case d.rng != nil:
			// for _, k := range []string{a, b}: each element in turn.
			sl := e.slice(d.rng)
			if sl.open || len(sl.elems) == 0 {
				// for _, k := range keys(): the elements the SSA layer
				// sees a helper return, each as another turn holds it.
				ssl, ok := e.g.ssaSlice(e, nil, d.rng)
				if ok && len(defs) == 1 && listedOnly(ssl) {
					// for _, m := range members (SMEMBERS, SCAN): one of
					// the keys the reply lists, another at each turn.
					return e.varying(v, turnOf(ssl.elems[0].alts, id, v.Name()))
				}
				// Keys a listing command replies are the SSA layer's
				// (valueKeys), by the reply's identity.
				if !ok || !sliceShaped(ssl) || slices.ContainsFunc(ssl.elems, func(el elem) bool {
					return el.many && len(el.again) != len(el.alts) || slices.ContainsFunc(el.alts, func(v Value) bool { return Listed(v.Key) })
				}) {
					return e.varying(v, self)
				}
				sl = ssl
				for _, el := range sl.elems {
					for i, again := range el.again {
						e.g.noteAgain(el.alts[i].Key, again.Key)
					}
				}
			}
			for _, el := range sl.elems {
				out = append(out, el.alts...)
			}
		case d.rhs == nil && d.from != nil && isStringType(v.Type()):
			// key, loaded := keys(id): the callee's result d.res.
			alts, ok := e.resultAt(d.from, d.res)
			if !ok {
				return e.varying(v, self)
			}
			out = append(out, alts...)
		case d.rhs == nil:
			return e.varying(v, self)
		case d.add && d.inLoop && len(out) > 0:
			// for _, k := range fields { r += "/" + k }: what r held
			// before the loop followed by what its turns add, a value
			// not known (empty when it turns no time).
			added := Value{keyspace.Unknown(id+"+", v.Name()+" += ...", noBraces), d.pos}
			out = concatAlts(out, []Value{added}, d.pos)
		case d.add:
			// v += x: what v held before, then x. Followed in order, and
			// only outside loops.
			if d.inLoop || len(out) == 0 {
				return e.varying(v, self)
			}
			out = concatAlts(out, e.keys(d.rhs), d.pos)
		default:
			out = append(out, e.keys(d.rhs)...)
		}
		if len(out) > maxAlts {
			return e.varying(v, self)
		}
	}
	if len(defs) == 1 || allSequential(defs) {
		// Name the unknowns after the variable, so that two uses of it
		// compare equal; after the assignments that reach this use, when
		// other uses see others.
		if len(defs) < len(e.defs[v]) {
			for _, d := range defs {
				id += fmt.Sprintf(":%d", d.pos)
			}
		}
		out = identify(out, id, v.Name())
	} else if choice := chosenOf(id, defs); choice != "" {
		// prefix := cfg.Prefix; if prefix == "" { prefix = "ld" }: one
		// of them in a run, the same in every key built from it.
		in := e.choiceIn()
		for i := range defs {
			end := len(out)
			if i+1 < len(defs) {
				end = starts[i+1]
			}
			for j := starts[i]; j < end; j++ {
				out[j].Key = out[j].Key.Choosing(keyspace.Choice{Of: choice, In: in, Alt: i})
			}
		}
	} else if choice := grownChoice(id, defs); choice != "" && len(out) > 1 {
		// p := cfg.Prefix; if p == "" { p = "ranking:" }; if
		// !strings.HasSuffix(p, ":") { p += ":" }: each value it may end
		// with is one alternative of a run.
		in := e.choiceIn()
		for j := range out {
			out[j].Key = out[j].Key.Choosing(keyspace.Choice{Of: choice, In: in, Alt: j})
		}
	}
	return e.varying(v, out)
}

// choiceIn are the parameters a choice of the function may be made on:
// those that hold values (strings, numbers, structs, pointers), not a
// context, a client or a callback, whose identity at a call says nothing
// of which value a key helper returns.
func (e *evaluator) choiceIn() []string {
	var in []string
	for v, id := range e.params {
		switch v.Type().Underlying().(type) {
		case *types.Basic, *types.Struct, *types.Pointer:
			in = append(in, id)
		}
	}
	slices.Sort(in)
	return in
}

// chosenOf is the identity of the choice between a variable's assignments
// that reach a use, when each is a value of its own (not one added to,
// or set at each turn of a loop): the variable and the assignments.
func chosenOf(id string, defs []def) string {
	if len(defs) < 2 {
		return ""
	}
	for _, d := range defs {
		if d.inLoop || d.add || d.rng != nil {
			return ""
		}
		id += fmt.Sprintf(":%d", d.pos)
	}
	return "var:" + id
}

// grownChoice is the identity of the choice among the values a variable
// may hold when some of its assignments add to it (v += x), outside loops:
// its values are each what one path of assignments leaves; "" otherwise.
func grownChoice(id string, defs []def) string {
	if len(defs) < 2 {
		return ""
	}
	for _, d := range defs {
		if d.inLoop || d.rng != nil || d.rhs == nil {
			return ""
		}
		id += fmt.Sprintf(":%d", d.pos)
	}
	return "var:" + id + "+"
}

// containsID reports whether the identity s is, or is derived from, the
// variable identity id ("k@120"): it holds id not followed by a digit.
func containsID(s, id string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], id)
		if j < 0 {
			return false
		}
		end := i + j + len(id)
		if end == len(s) || s[end] < '0' || s[end] > '9' {
			return true
		}
		i += j + 1
	}
}

// allSequential reports whether a variable is set once and then only added
// to, outside loops.
func allSequential(defs []def) bool {
	for i, d := range defs {
		if d.inLoop || i > 0 && !d.add {
			return false
		}
	}
	return true
}

// listedOnly reports whether a slice is one element that stands for the
// keys a listing command replies, and nothing else.
func listedOnly(s slice) bool {
	return !s.open && len(s.elems) == 1 && len(s.elems[0].alts) > 0 &&
		!slices.ContainsFunc(s.elems[0].alts, func(v Value) bool { return !Listed(v.Key) })
}

// turnOf returns the keys a listing command replies as a range variable
// (its identity id, its name) holds them: the reply's unknowns are named
// after the variable too, so that another turn of the loop sees another
// key (varyIDs).
func turnOf(alts []Value, id, name string) []Value {
	out := make([]Value, len(alts))
	for i, a := range alts {
		parts := slices.Clone(a.Key.Parts)
		for j, p := range parts {
			if p.Unknown && strings.HasPrefix(p.ID, "reply@") {
				parts[j].ID = p.ID + "/" + id
				if strings.HasSuffix(p.Name, " reply") {
					parts[j].Name = name // not a pattern's "*"
				}
			}
		}
		out[i] = Value{keyspace.Key{Parts: parts, Choices: a.Key.Choices}, a.Pos}
	}
	return out
}

// varying records that the unknowns of a variable set inside a loop may hold
// another value at each iteration; see vary.
func (e *evaluator) varying(v *types.Var, alts []Value) []Value {
	for _, d := range e.defs[v] {
		if d.inLoop {
			e.loopIDs[localID(v)] = true
			e.loopVars[localID(v)] = v
			break
		}
	}
	return alts
}

// setIn returns the identities, among loopIDs, of the variables that are
// declared or set inside loop: the ones another turn of it sees holding
// other values.
func (e *evaluator) setIn(loop ast.Node) map[string]bool {
	out := map[string]bool{}
	inside := func(pos token.Pos) bool { return loop.Pos() <= pos && pos < loop.End() }
	for id := range e.loopIDs {
		v := e.loopVars[id]
		if v == nil || inside(v.Pos()) || slices.ContainsFunc(e.defs[v], func(d def) bool { return inside(d.pos) }) {
			out[id] = true
		}
	}
	return out
}

// vary returns k as another iteration of a loop sees it: the unknowns of
// variables set in the loop become other values.
func (e *evaluator) vary(k keyspace.Key) keyspace.Key {
	return varyIDs(k, e.loopIDs)
}

// varyIDs returns k with the unknowns that hold one of the variables ids
// (localID) as another value of theirs holds them.
func varyIDs(k keyspace.Key, ids map[string]bool) keyspace.Key {
	parts := make([]keyspace.Part, len(k.Parts))
	for i, p := range k.Parts {
		if p.Unknown {
			for id := range ids {
				if containsID(p.ID, id) {
					p.ID += "'"
					break
				}
			}
		}
		parts[i] = p
	}
	var choices []keyspace.Choice
	for _, c := range k.Choices {
		for id := range ids {
			if containsID(c.Of, id) {
				c.Of += "'"
				break
			}
		}
		choices = append(choices, c)
	}
	return keyspace.Key{Parts: parts}.Choosing(choices...)
}

// localID is the identity of a local variable or parameter in the keys
// that hold its value: its name and where it is declared.
func localID(v interface {
	Name() string
	Pos() token.Pos
}) string {
	return fmt.Sprintf("%s@%d", v.Name(), v.Pos())
}

// again returns an element that stands for many as another iteration of
// the loop that built it sees it.
func (e *evaluator) again(el elem) Group {
	if el.again != nil {
		return el.again
	}
	var out Group
	for _, a := range el.alts {
		out = append(out, Value{e.vary(a.Key), a.Pos})
	}
	return out
}

// identify gives the anonymous unknowns of alts the identity of a variable.
func identify(alts []Value, id, name string) []Value {
	out := make([]Value, len(alts))
	for i, a := range alts {
		parts := make([]keyspace.Part, len(a.Key.Parts))
		n := 0
		for j, p := range a.Key.Parts {
			if p.Unknown && p.ID == "" {
				p.ID = fmt.Sprintf("%s#%d", id, n)
				n++
				if p.Name == "" {
					p.Name = name
				}
			}
			parts[j] = p
		}
		out[i] = Value{keyspace.Key{Parts: parts, Choices: a.Key.Choices}, a.Pos}
	}
	return out
}

// field evaluates x.f: an unknown whose identity is that of x, then f, when
// x has one (a parameter, a receiver, a variable).
func (e *evaluator) field(x *ast.SelectorExpr) []Value {
	base := e.identity(x.X)
	if v, ok := e.g.info.Selections[x].Obj().(*types.Var); ok {
		// The field of a registry entry, a variable set once to a struct
		// literal: what the literal gives it.
		if alts, ok := e.literalFieldKeys(x.X, v.Name(), x.Pos()); ok {
			return alts
		}
		// What the struct's constructors and setters put in the field;
		// for a parameter's field that only registry entries set, the
		// entry its callers pass (Summary, paramValue).
		if !(strings.HasPrefix(base, "$") && e.g.registryField(v)) {
			if alts := e.g.fieldValues(v, base, x); alts != nil {
				return alts
			}
		}
	}
	name := exprName(x)
	if base == "" {
		return []Value{e.opaque(x)}
	}
	noBraces := e.noBraces(x)
	if v, ok := e.g.info.Selections[x].Obj().(*types.Var); ok && !noBraces {
		noBraces = e.g.fieldBraceFree(v)
	}
	k := keyspace.Unknown(base+"."+x.Sel.Name, name, noBraces)
	k.Parts[0].Braced = !noBraces && e.fieldBracesHeld(x)
	return []Value{{k, x.Pos()}}
}

// identity returns an identity for the value of x, when x is a parameter, a
// variable set once, or a field of one of those; "" otherwise.
func (e *evaluator) identity(x ast.Expr) string {
	info := e.g.info
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, ok := info.ObjectOf(x).(*types.Var)
		if !ok {
			return ""
		}
		if p, ok := e.params[v]; ok {
			return p
		}
		if v.Parent() == v.Pkg().Scope() {
			return v.Pkg().Path() + "." + v.Name()
		}
		// Set once before x: what is set or addressed after it, outside
		// loops, does not change it (store.filters = keys; return
		// &store, after the keys are sent).
		before, last, loop := 0, token.NoPos, false
		for _, d := range e.defs[v] {
			if d.pos < x.Pos() || d.inLoop {
				before++
				last = max(last, d.pos)
				loop = loop || d.inLoop
			}
		}
		if before <= 1 {
			// A variable set in a loop holds another value at each turn,
			// and so do its fields (keys := q.Keys(queue); keys.StreamKey).
			e.varying(v, nil)
			return localID(v)
		}
		if !loop {
			// Set more than once, never in a loop (var req R, then
			// parse(&req)): the uses after the same last setting see
			// one value, those after another setting another.
			e.varying(v, nil)
			return localID(v) + "#" + strconv.Itoa(int(last))
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			if base := e.identity(x.X); base != "" {
				return base + "." + x.Sel.Name
			}
		}
	case *ast.StarExpr:
		return e.identity(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return e.identity(x.X)
		}
	}
	return ""
}

// call evaluates a call that returns a key: fmt.Sprintf and friends,
// strconv, conversions, keyspace templates, and functions with summaries.
// resultAt returns the keys of result i of a call, from the summary of
// the function it calls (key, loaded := keys(id)).
func (e *evaluator) resultAt(call *ast.CallExpr, i int) ([]Value, bool) {
	fn, _ := typeutil.Callee(e.g.info, call).(*types.Func)
	if fn == nil {
		return nil, false
	}
	return e.g.summaryCallAt(e, call, fn, i)
}

// stringerOf returns x of a call x.String() of a String method, of no
// arguments and a value receiver, that another package gives a named
// array or struct type (uuid.UUID, an ObjectID): fmt prints such a value
// by that method, so
// fmt.Sprintf("{%s}:conns", id) and fmt.Sprintf("{%s}:groups",
// id.String()) name one value.
func (e *evaluator) stringerOf(call *ast.CallExpr, fn *types.Func) (ast.Expr, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fn.Name() != "String" || len(call.Args) != 0 || fn.Pkg() == nil || fn.Pkg() == e.g.pkg {
		return nil, false
	}
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isStringType(sig.Results().At(0).Type()) {
		return nil, false
	}
	if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
		return nil, false // a builder's (strings.Builder, a byte buffer): its text is what was written
	}
	if s, ok := e.g.info.Selections[sel]; !ok || s.Kind() != types.MethodVal {
		return nil, false
	}
	t := deref(e.g.info.TypeOf(sel.X))
	if _, named := t.(*types.Named); !named {
		return nil, false
	}
	switch t.Underlying().(type) {
	case *types.Array, *types.Struct:
		return sel.X, true
	}
	return nil, false
}

func (e *evaluator) call(call *ast.CallExpr) []Value {
	info := e.g.info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		return e.keys(call.Args[0]) // string(x), a named string type
	}
	if isBuiltin(info, call.Fun, "len") && len(call.Args) == 1 {
		// len(keys): the number of a slice's elements when all are seen,
		// "len($N)" of a parameter (evalPassedOn), a count otherwise.
		if _, isSlice := info.TypeOf(call.Args[0]).Underlying().(*types.Slice); isSlice {
			if sl := e.slice(call.Args[0]); !sl.open && !hasMany(sl.elems) {
				return []Value{{keyspace.Lit(strconv.Itoa(len(sl.elems))), call.Pos()}}
			}
		}
		return e.derived(call, "len", nil, true)
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		if alts, ok := e.heldCall(call); ok {
			return alts
		}
		if v, ok := e.paramApply(call); ok {
			return []Value{v}
		}
		return []Value{e.opaque(call)}
	}
	if x, ok := e.stringerOf(call, fn); ok {
		// id.String() of a uuid.UUID: the text fmt's %s and %v give
		// of id, which is how the key names it.
		return e.keys(x)
	}
	switch fn.FullName() {
	case "fmt.Sprintf":
		if alts, ok := e.sprintf(call); ok {
			return alts
		}
	case "fmt.Sprint":
		return e.sprint(call)
	case "strings.Join":
		if len(call.Args) == 2 {
			if alts, ok := e.join(call.Args[0], call.Args[1]); ok {
				return alts
			}
		}
	case "strings.Replace", "strings.ReplaceAll":
		if alts, ok := e.replace(call); ok {
			return alts
		}
	case "strconv.Itoa":
		return e.derived(call, "strconv/10", same, true)
	case "strconv.FormatInt", "strconv.FormatUint":
		if len(call.Args) == 2 {
			return e.derived(call, "strconv/"+types.ExprString(call.Args[1]), e.decimal(call), true)
		}
	case "strings.ToLower":
		return e.derived(call, fn.Name(), func(s string) (string, bool) { return strings.ToLower(s), true }, false)
	case "strings.ToUpper":
		return e.derived(call, fn.Name(), func(s string) (string, bool) { return strings.ToUpper(s), true }, false)
	case "(*bytes.Buffer).String", "(*strings.Builder).String", "(*" + bytebufferpool + ".ByteBuffer).String":
		if alts, ok := e.builderString(call); ok {
			return alts
		}
	case "strings.TrimSpace":
		return e.derived(call, fn.Name(), func(s string) (string, bool) { return strings.TrimSpace(s), true }, false)
	}
	if alts, ok := e.encoded(call, fn); ok {
		return alts
	}
	if alts, ok := e.g.template(e, call, fn); ok {
		return alts
	}
	if alts, ok := e.formatHelper(call, fn); ok {
		return alts
	}
	if alts, ok := e.importedJoin(call, fn); ok {
		return alts
	}
	if alts, ok := e.importedFormat(call, fn); ok {
		return alts
	}
	if alts, ok := e.g.summaryCall(e, call, fn); ok {
		return alts
	}
	if v, ok := e.sameResult(call, fn); ok {
		return []Value{v}
	}
	if v, ok := e.elemMethod(call, fn); ok {
		return []Value{v}
	}
	if v, ok := e.setting(call, fn); ok {
		return []Value{v}
	}
	return []Value{e.opaque(call)}
}

// setting returns the value of a lookup of a setting by its name: a call
// of a function (not a method) of another package, slotlint does not
// follow, whose
// arguments are all constant strings and which returns a string
// (viper.GetString("redis.KeyPrefix"), os.Getenv("KEY_PREFIX")). Every such
// call of one function with one name gives one value, a setting as a field
// is one: keys built from it and a varying id are keys of one template
// (Prefixed).
func (e *evaluator) setting(call *ast.CallExpr, fn *types.Func) (Value, bool) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == e.g.pkg || fn.Signature().Recv() != nil || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return Value{}, false
	}
	res := fn.Signature().Results()
	if res.Len() != 1 || !isStringType(res.At(0).Type()) {
		return Value{}, false
	}
	names := make([]string, len(call.Args))
	for i, a := range call.Args {
		tv := e.g.info.Types[a]
		if tv.Value == nil {
			return Value{}, false
		}
		s, ok := constString(tv.Value)
		if !ok {
			return Value{}, false
		}
		names[i] = strconv.Quote(s)
	}
	id := "setting:" + fn.FullName() + "(" + strings.Join(names, ",") + ")"
	return Value{keyspace.Unknown(id, exprName(call), false), call.Pos()}, true
}

// elemMethod returns the value of a method with no arguments called on an
// element of the function's slice parameter, whose result the code does
// not show (an interface's Key(), a type of another module's ID()): a
// value of that element, as its field is ($1[e@12].Key()).
func (e *evaluator) elemMethod(call *ast.CallExpr, fn *types.Func) (Value, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fn.Signature().Recv() == nil || len(call.Args) > 0 || fn.Signature().Results().Len() != 1 {
		return Value{}, false
	}
	if b, ok := fn.Signature().Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		return Value{}, false
	}
	recv := e.keys(sel.X)
	if len(recv) != 1 || len(recv[0].Key.Parts) != 1 || !recv[0].Key.Parts[0].Unknown {
		return Value{}, false
	}
	if id := recv[0].Key.Parts[0].ID; !isElemID(id) && !(isParamID(id) && types.IsInterface(fn.Signature().Recv().Type())) {
		return Value{}, false
	}
	return Value{keyspace.Unknown(recv[0].Key.Parts[0].ID+"."+fn.Name()+"()", exprName(call), false), call.Pos()}, true
}

// sameResult returns the value of a call of a function of the package
// that returns one integer of its arguments alone (s.BandFor(ck), a hash of
// the key into a band): two calls with the same arguments, each a literal
// or a parameter of the function, the receiver too, hold the same value,
// although it is not known. The function and those it calls in the package
// call nothing that draws another value each time (time, randomness,
// identifiers, I/O).
func (e *evaluator) sameResult(call *ast.CallExpr, fn *types.Func) (Value, bool) {
	if fn.Pkg() != e.g.pkg || fn.Signature().Results().Len() != 1 || !e.g.deterministic(fn, 0) {
		return Value{}, false
	}
	// A number: the band, shard or bucket of a key (strings of the
	// package's helpers are summarised as keys).
	if b, ok := fn.Signature().Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return Value{}, false
	}
	args := slices.Clone(call.Args)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
		args = append([]ast.Expr{sel.X}, args...)
	}
	if len(args) == 0 {
		return Value{}, false
	}
	// Constants, and the function's parameters, the same at each turn of
	// its loops; a local value may be another at each.
	ids := make([]string, len(args))
	for i, a := range args {
		if ids[i] = oneID(keysOf(e.keys(a))); ids[i] == "" || !strings.HasPrefix(ids[i], "$") && e.g.info.Types[a].Value == nil {
			return Value{}, false
		}
	}
	id := "same:" + fn.FullName() + "(" + strings.Join(ids, ",") + ")"
	return Value{keyspace.Unknown(id, exprName(call), e.noBraces(call)), call.Pos()}, true
}

// replace follows strings.Replace and ReplaceAll of a constant old text
// in the literal parts of a key: a template whose placeholders a name
// fills, strings.Replace("rmq::queue::[{queue}]::ready", "{queue}", name,
// 1). The unknown parts are taken not to hold the text: a placeholder is
// the template's, not a name's.
func (e *evaluator) replace(call *ast.CallExpr) ([]Value, bool) {
	old, n, ok := replaceArgs(e.g.info, call)
	if !ok {
		return nil, false
	}
	var out []Value
	for _, s := range e.keys(call.Args[0]) {
		for _, nw := range e.keys(call.Args[2]) {
			out = append(out, Value{replaceIn(s.Key, old, nw.Key, n), call.Pos()})
			if len(out) > maxAlts {
				return nil, false
			}
		}
	}
	return out, len(out) > 0
}

// replaceArgs returns the constant placeholder of strings.Replace(s, old,
// new, n) or ReplaceAll(s, old, new), and how many it replaces (-1: all);
// false when either is not a constant, or old is empty.
func replaceArgs(info *types.Info, call *ast.CallExpr) (old string, n int, ok bool) {
	if len(call.Args) < 3 {
		return "", 0, false
	}
	ov := info.Types[call.Args[1]].Value
	if ov == nil || ov.Kind() != constant.String || constant.StringVal(ov) == "" {
		return "", 0, false
	}
	n = -1
	if len(call.Args) == 4 {
		cv := info.Types[call.Args[3]].Value
		if cv == nil {
			return "", 0, false
		}
		c, ok := constInt(cv)
		if !ok {
			return "", 0, false
		}
		n = int(c)
	}
	return constant.StringVal(ov), n, true
}

// replaceIn replaces the first n (all, n < 0) matches of old in the
// literal parts of k with nw.
func replaceIn(k keyspace.Key, old string, nw keyspace.Key, n int) keyspace.Key {
	var out keyspace.Key
	for _, p := range k.Parts {
		if p.Unknown {
			out = keyspace.Concat(out, keyspace.Key{Parts: []keyspace.Part{p}})
			continue
		}
		text := p.Lit
		for n != 0 {
			i := strings.Index(text, old)
			if i < 0 {
				break
			}
			out = keyspace.Concat(out, keyspace.Lit(text[:i]))
			out = keyspace.Concat(out, nw)
			text = text[i+len(old):]
			if n > 0 {
				n--
			}
		}
		out = keyspace.Concat(out, keyspace.Lit(text))
	}
	return out
}

// derived is f(x) for a function of x alone: the text f gives when x is
// literal, else an unknown whose identity follows x's, so that f(id) in two
// keys is one value. noBraces says f's result never holds a brace.
func (e *evaluator) derived(call *ast.CallExpr, fname string, f func(string) (string, bool), noBraces bool) []Value {
	if len(call.Args) > 0 {
		if arg := e.keys(call.Args[0]); len(arg) == 1 {
			if s, ok := arg[0].Key.Literal(); ok && f != nil {
				if out, ok := f(s); ok {
					return []Value{{keyspace.Lit(out), call.Pos()}}
				}
			}
			if p := arg[0].Key.Parts; len(p) == 1 && p[0].Unknown && p[0].ID != "" {
				return []Value{{keyspace.Unknown(fname+"("+p[0].ID+")", p[0].Name, noBraces || p[0].NoBraces), call.Pos()}}
			}
		}
	}
	k := e.opaque(call)
	k.Key.Parts[0].NoBraces = noBraces
	return []Value{k}
}

// decimal is strconv.FormatInt and FormatUint when the base is a constant
// 10: the decimal text that constString already gives.
func (e *evaluator) decimal(call *ast.CallExpr) func(string) (string, bool) {
	if len(call.Args) == 2 {
		if tv := e.g.info.Types[call.Args[1]]; tv.Value != nil && tv.Value.ExactString() == "10" {
			return func(s string) (string, bool) { return s, true }
		}
	}
	return nil
}

func same(s string) (string, bool) { return s, true }

// sprintf follows fmt.Sprintf with a constant format, or with a format
// held in a variable or a field that the code sets to constants: each of
// them, as a configured format with a default in the code,
// fmt.Sprintf(config.Setting.QueueName, topic) with QueueName
// "dq_queue_%s" unless a file says otherwise. Values set elsewhere (read
// from the file) are the user's choice, not the code's.
func (e *evaluator) sprintf(call *ast.CallExpr) ([]Value, bool) {
	if len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return nil, false
	}
	return e.formatted(call.Args[0], call.Args[1:], call.Pos())
}

// formatted follows fmt.Sprintf of the format that expression f gives:
// a constant, or the constants a variable or field is set to.
func (e *evaluator) formatted(f ast.Expr, args []ast.Expr, pos token.Pos) ([]Value, bool) {
	tv := e.g.info.Types[f]
	if tv.Value != nil {
		if tv.Value.Kind() != constant.String {
			return nil, false
		}
		return e.format(constant.StringVal(tv.Value), args, pos)
	}
	var out []Value
	for _, f := range e.keys(f) {
		lit, ok := f.Key.Literal()
		if !ok {
			continue
		}
		alts, ok := e.format(lit, args, pos)
		if !ok {
			return nil, false
		}
		out = append(out, alts...)
	}
	if len(out) == 0 || len(out) > maxAlts {
		return nil, false
	}
	return out, true
}

// format follows fmt.Sprintf of a constant format with args, at pos.
func (e *evaluator) format(format string, args []ast.Expr, pos token.Pos) ([]Value, bool) {
	out := []Value{{keyspace.Key{}, pos}}
	ok := walkFormat(format, len(args), func(s string) {
		out = concatAlts(out, []Value{{keyspace.Lit(s), pos}}, pos)
	}, func(i int, verb byte) bool {
		arg := args[i]
		switch verb {
		case 's', 'v', 'd':
			out = concatAlts(out, e.keys(arg), pos)
		case 'x', 'X':
			// %x of a value: its hex digits, one text for one value.
			k := e.opaque(arg)
			k.Key.Parts[0].NoBraces = true
			if a := e.keys(arg); len(a) == 1 {
				if p := a[0].Key.Parts; len(p) == 1 && p[0].Unknown && p[0].ID != "" {
					k.Key.Parts[0].ID = "%" + string(verb) + "(" + p[0].ID + ")"
				}
			}
			out = concatAlts(out, []Value{k}, pos)
		default:
			k := e.opaque(arg)
			k.Key.Parts[0].NoBraces = strings.IndexByte("xXobcqeEfFgGtUp", verb) >= 0 && verb != 'q' && verb != 'c'
			out = concatAlts(out, []Value{k}, pos)
		}
		return len(out) <= maxAlts
	})
	return out, ok
}

// walkFormat walks a constant fmt format of n arguments: lit gets its
// literal text (a %% as "%"), verb each verb with the index of its
// argument, and may stop the walk by returning false. A verb with flags,
// a width, a precision or an argument index, more verbs than arguments,
// or a format cut in a verb, make it false: the text would be guessed.
func walkFormat(format string, n int, lit func(string), verb func(arg int, verb byte) bool) bool {
	argi := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			j := strings.IndexByte(format[i:], '%')
			if j < 0 {
				j = len(format) - i
			}
			lit(format[i : i+j])
			i += j - 1
			continue
		}
		// A verb: flags, width and precision, then the letter.
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			return false
		}
		v := format[j]
		spec := format[i+1 : j]
		i = j
		if v == '%' {
			lit("%")
			continue
		}
		if spec != "" || argi >= n {
			return false
		}
		if !verb(argi, v) {
			return false
		}
		argi++
	}
	return true
}

// sprint follows fmt.Sprint: operands side by side, with a space between
// two operands when neither is a string.
func (e *evaluator) sprint(call *ast.CallExpr) []Value {
	if call.Ellipsis.IsValid() {
		// fmt.Sprint(parts...) of a prefix and the function's own parts.
		if len(call.Args) == 1 {
			if alts, ok := e.joinParts(call, call.Args[0], ""); ok {
				return alts
			}
		}
		return []Value{e.opaque(call)}
	}
	info := e.g.info
	isString := func(x ast.Expr) bool {
		b, ok := info.TypeOf(x).Underlying().(*types.Basic)
		return ok && b.Info()&types.IsString != 0
	}
	out := []Value{{keyspace.Key{}, call.Pos()}}
	for i, arg := range call.Args {
		if i > 0 && !isString(arg) && !isString(call.Args[i-1]) {
			out = concatAlts(out, []Value{{keyspace.Lit(" "), call.Pos()}}, call.Pos())
		}
		out = concatAlts(out, e.keys(arg), call.Pos())
		if len(out) > maxAlts {
			return []Value{e.opaque(call)}
		}
	}
	return out
}

// join follows strings.Join over a slice whose elements are all seen.
func (e *evaluator) join(sx, sepx ast.Expr) ([]Value, bool) {
	s := e.slice(sx)
	if s.open {
		if tv := e.g.info.Types[sepx]; tv.Value != nil {
			if sep, ok := constString(tv.Value); ok {
				return e.joinParts(nil, sx, sep)
			}
		}
		return nil, false
	}
	var parts [][]Value
	for _, el := range s.elems {
		if el.many {
			return nil, false
		}
		parts = append(parts, el.alts)
	}
	return joinAlts(parts, e.keys(sepx), sx.Pos())
}

// joinAlts joins the values of parts by sep, every combination of their
// alternatives; false past maxAlts.
func joinAlts(parts [][]Value, sep []Value, pos token.Pos) ([]Value, bool) {
	out := []Value{{keyspace.Key{}, pos}}
	for i, alts := range parts {
		if i > 0 && len(sep) > 0 {
			out = concatAlts(out, sep, pos)
		}
		out = concatAlts(out, alts, pos)
		if len(out) > maxAlts {
			return nil, false
		}
	}
	return out, true
}

// litSep is a constant separator as values: none for "".
func litSep(sep string, pos token.Pos) []Value {
	if sep == "" {
		return nil
	}
	return []Value{{keyspace.Lit(sep), pos}}
}

// joinParts follows the join, by a constant separator, of a slice that
// holds the function's own slice parameter appended whole (a key helper
// of parts: strings.Join(append([]string{prefix}, parts...), ":"), or
// fmt.Sprint(all...) of such a slice): the parameter's elements are the
// callers', kept as one unknown "parts:<sep>|$N" that each call fills in
// with its arguments (Engine.partsValue).
func (e *evaluator) joinParts(call *ast.CallExpr, sx ast.Expr, sep string) ([]Value, bool) {
	var sl slice
	if p := e.spreadParam(sx); p != "" {
		sl = slice{elems: []elem{{alts: []Value{{keyspace.Unknown(p+"...", exprName(sx)+"...", false), sx.Pos()}}}}}
	} else {
		ssl, ok := e.g.ssaSpread(e, call, sx)
		if !ok {
			return nil, false
		}
		sl = ssl
	}
	parts, spreads, ok := spreadParts(sl, sep)
	if !ok || spreads == 0 {
		return nil, false
	}
	return joinAlts(parts, litSep(sep, sx.Pos()), sx.Pos())
}

// spreadParts returns the values of each element of a slice to be joined
// by sep, where the function's own slice parameter appended whole stands
// as the callers' parts, "parts:<sep>|$N"; spreads counts those. False
// when an element stands for many.
func spreadParts(sl slice, sep string) (parts [][]Value, spreads int, ok bool) {
	for _, el := range sl.elems {
		if el.many {
			return nil, 0, false
		}
		alts := el.alts
		if len(alts) == 1 {
			if n := spreadIndex(alts[0].Key); n >= 0 {
				spreads++
				name := strings.TrimSuffix(alts[0].Key.Parts[0].Name, "...") + "..."
				alts = []Value{{keyspace.Unknown(partsID(sep, n), name, false), alts[0].Pos}}
			}
		}
		parts = append(parts, alts)
	}
	return parts, spreads, true
}

// partsID is the identity of a parameter's elements joined by sep.
func partsID(sep string, n int) string { return "parts:" + sep + "|$" + strconv.Itoa(n) }

// partsOf parses partsID.
func partsOf(id string) (sep string, n int, ok bool) {
	rest, ok := strings.CutPrefix(id, "parts:")
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndex(rest, "|$")
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[i+2:])
	return rest[:i], n, err == nil
}

// slice returns what is known of a []string expression.
func (e *evaluator) slice(x ast.Expr) slice {
	info := e.g.info
	x = ast.Unparen(x)
	switch x := x.(type) {
	case *ast.CompositeLit:
		var s slice
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			s.elems = append(s.elems, elem{alts: e.keys(el)})
		}
		return s
	case *ast.BasicLit:
		if x == zeroExpr {
			return slice{} // var keys []string
		}
	case *ast.CallExpr:
		if isBuiltin(info, x.Fun, "append") && len(x.Args) > 0 {
			s := e.slice(x.Args[0])
			s.elems = append([]elem(nil), s.elems...)
			e.appendTo(&s, x, false)
			return s
		}
		if isBuiltin(info, x.Fun, "make") {
			return slice{}
		}
		return e.resultSlice(x, 0)
	case *ast.Ident:
		if x.Name == "nil" {
			return slice{}
		}
		v, ok := info.ObjectOf(x).(*types.Var)
		if !ok || e.busy[v] || e.g.indexWritten()[v] {
			return slice{open: true}
		}
		if _, isParam := e.params[v]; isParam {
			return slice{open: true}
		}
		if v.Parent() == v.Pkg().Scope() {
			return e.g.packageSlice(v)
		}
		defs := e.reaching(v, e.defs[v], x.Pos())
		if len(defs) != 1 || defs[0].rhs == nil && defs[0].from == nil {
			return slice{open: true}
		}
		e.busy[v] = true
		defer delete(e.busy, v)
		var s slice
		if d := defs[0]; d.from != nil {
			s = e.resultSlice(d.from, d.res)
		} else {
			s = e.slice(d.rhs)
		}
		s.elems = append([]elem(nil), s.elems...)
		for _, a := range e.reachingAppends(v, e.appends[v], x.Pos()) {
			e.appendTo(&s, a.call, a.inLoop && e.loopAround(v, a.call.Pos()))
		}
		return s
	}
	return slice{open: true}
}

// resultSlice is result i of a call of one of the package's functions
// that returns a []string there (Func.slices), with the call's arguments
// in place of the parameters its keys are built from: the KEYS and ARGV
// that a helper builds for a script and returns with an error. Anything
// else is open.
func (e *evaluator) resultSlice(call *ast.CallExpr, i int) slice {
	g := e.g
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil {
		return slice{open: true}
	}
	decl := g.decls[fn.Origin()]
	if decl == nil || decl.Body == nil {
		return slice{open: true}
	}
	s := g.summarize(decl)
	if s.busy || i >= len(s.slices) || s.slices[i] == nil {
		return slice{open: true}
	}
	sum := s.slices[i]
	out := slice{open: sum.open}
	for _, el := range sum.elems {
		var alts []Value
		for _, a := range el.alts {
			for _, k := range g.substitute(e, call, a.Key) {
				alts = append(alts, Value{k, a.Pos})
			}
		}
		if len(alts) == 0 || len(alts) > maxAlts {
			alts = []Value{e.opaque(call)}
		}
		out.elems = append(out.elems, elem{alts: alts, many: el.many})
	}
	return out
}

// appendTo adds what append(v, ...) adds to s.
func (e *evaluator) appendTo(s *slice, call *ast.CallExpr, inLoop bool) {
	args := call.Args[1:]
	if call.Ellipsis.IsValid() && len(args) == 1 {
		more := e.slice(args[0])
		s.open = s.open || more.open
		for _, el := range more.elems {
			el.many = el.many || inLoop
			s.elems = append(s.elems, el)
		}
		return
	}
	for _, a := range args {
		s.elems = append(s.elems, elem{alts: e.keys(a), many: inLoop})
	}
}

// setOnce returns the expression that a local variable is set to, when it
// is set exactly once, to an expression.
func (e *evaluator) setOnce(id *ast.Ident) ast.Expr {
	if v := e.localVar(id); v != nil {
		if defs := e.defs[v]; len(defs) == 1 && defs[0].rhs != nil {
			return defs[0].rhs
		}
	}
	return nil
}

// reachingRHS returns the expression of the one assignment of a local
// variable that reaches its use id, when there is one: result :=
// rdb.ScriptLoad(ctx, a) ... r.sha = result.Val(); result = ... gives a.
func (e *evaluator) reachingRHS(id *ast.Ident) ast.Expr {
	v := e.localVar(id)
	if v == nil {
		return nil
	}
	defs := e.reaching(v, e.defs[v], id.Pos())
	if len(defs) != 1 || defs[0].add || defs[0].inLoop || defs[0].rng != nil {
		return nil
	}
	return defs[0].rhs
}

// constInt returns an integer constant's value.
func constInt(v constant.Value) (int64, bool) {
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// indexWritten returns the variables whose elements are assigned, m[k] = v
// or s[i] = v, or whose address is taken: their literal is not all they
// hold.
func (g *Engine) indexWritten() map[*types.Var]bool {
	if g.written != nil {
		return g.written
	}
	g.written = map[*types.Var]bool{}
	mark := func(x ast.Expr) {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			if v, ok := g.info.ObjectOf(id).(*types.Var); ok {
				g.written[v] = true
			}
		}
	}
	for _, f := range g.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
						mark(ix.X)
					}
				}
			case *ast.CallExpr:
				if isBuiltin(g.info, n.Fun, "delete") && len(n.Args) > 0 {
					mark(n.Args[0])
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					mark(n.X)
				}
			}
			return true
		})
	}
	return g.written
}
