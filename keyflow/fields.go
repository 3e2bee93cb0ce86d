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

// Keys kept in struct fields are set where the struct is built:
//
//	func NewCart(rdb *redis.ClusterClient, uid string) *Cart {
//		return &Cart{items: "cart:{" + uid + "}:items", total: "cart:{" + uid + "}:total"}
//	}
//
// A string field of a struct of the package holds what its writers set it
// to: each composite literal and each assignment to it, in any function.
// A value is taken in terms of its writer's parameters, and each parameter
// becomes an unknown of the object the field is read from: c.items and
// c.total, both set from NewCart's uid, share {<uid>} for one c. A field
// with several writers holds all their values. An exported field's values
// reach other packages as a KeyField fact.

// KeyField is the fact that a struct field holds one of a few keys, with
// unknowns "#obj.W$N" for parameter N of writer W of the object.
type KeyField struct {
	Keys []keyspace.Key
}

func (*KeyField) AFact() {}

func (f *KeyField) String() string {
	s := make([]string, len(f.Keys))
	for i, k := range f.Keys {
		s[i] = strconv.Quote(k.String())
	}
	return "keyField(" + strings.Join(s, ", ") + ")"
}

// objMark stands for the object a field is read from, in a field's keys.
const objMark = "#obj"

type fieldWrite struct {
	decl  *ast.FuncDecl
	value ast.Expr
	// from is set for a write of one result of a call of several, res:
	// x.a, x.b = names(id) (value is then the call).
	from *ast.CallExpr
	res  int
	// site is where the write is made: the composite literal or the
	// assignment, which may write other fields of the object too.
	site token.Pos
}

// fieldKeys returns the keys that a string field of the package may hold,
// with objMark for the object, or nil when they say no more than the field
// itself: a writer's parameter stored as it is, or values unseen.
func (g *Engine) fieldKeys(v *types.Var) []keyspace.Key {
	if g.fields == nil {
		g.collectFieldWrites()
	}
	if keys, ok := g.fieldVals[v]; ok {
		return keys
	}
	g.fieldVals[v] = nil // guards against recursion through the field
	writes := g.fields[v]
	if len(writes) == 0 || len(writes) > maxAlts {
		return nil
	}
	var out []keyspace.Key
	structured := false
	choice := writeChoice(v, writes)
	local := g.localStruct(v, writes)
	for wi, w := range writes {
		e := g.writerEval(w.decl)
		if e == nil {
			return nil
		}
		name := "init"
		if w.decl != nil {
			name = w.decl.Name.Name
		}
		alts := e.keys(w.value)
		if w.from != nil {
			var ok bool
			if alts, ok = e.resultAt(w.from, w.res); !ok {
				return nil
			}
		}
		for _, a := range alts {
			k, ok := fieldKey(g.paramsAsFields(v, w.decl, a.Key), name, local)
			if !ok {
				return nil
			}
			if len(k.Parts) == 1 && k.Parts[0].Unknown && isParamID(strings.TrimPrefix(k.Parts[0].ID, objMark+"."+name)) {
				// A writer stores its parameter as it is: the field
				// holds any value, and other writes' values, chosen
				// apart at each read, would make one object's field two.
				return nil
			}
			if len(k.Parts) > 1 || len(k.Parts) == 1 && !k.Parts[0].Unknown {
				structured = true
			}
			if len(writes) > 1 {
				// One object's field holds what one of its writes gave.
				k = k.Choosing(choice(wi))
			}
			if i := slices.IndexFunc(out, k.Equal); i >= 0 {
				out[i] = sharedChoices(out[i], k)
			} else {
				out = append(out, k)
			}
		}
	}
	if !structured || len(out) > maxAlts {
		return nil
	}
	g.fieldVals[v] = out
	return out
}

// writeChoice returns the choice of one of a field's writes for write wi.
// Fields that the same literals or assignments write, and no others
// (&RedisLock{ownerKey: o, countKey: c} in each of two constructors), are
// chosen alike: one object's two fields come from one of its writes.
func writeChoice(v *types.Var, writes []fieldWrite) func(wi int) keyspace.Choice {
	sites := make([]string, len(writes))
	for i, w := range writes {
		sites[i] = strconv.Itoa(int(w.site))
		if !w.site.IsValid() || slices.Contains(sites[:i], sites[i]) {
			return func(wi int) keyspace.Choice {
				return keyspace.Choice{Of: fmt.Sprintf("%s.%s@%d", objMark, v.Name(), v.Pos()), Alt: wi}
			}
		}
	}
	sorted := slices.Clone(sites)
	slices.Sort(sorted)
	of := objMark + "@writes:" + strings.Join(sorted, ",")
	return func(wi int) keyspace.Choice {
		return keyspace.Choice{Of: of, Alt: slices.Index(sorted, sites[wi])}
	}
}

// paramsAsFields rewrites, in a value that a writer gives field v, each
// parameter of the writer that it also stores as it is in another field
// of the same struct, the field's only write, as that field of the object:
//
//	return &Jobs{prefix: p, queue: "{" + p + "}"}
//
// gives queue "{" + j.prefix + "}" for a j: j.prefix and j.queue hold one
// value, not two.
func (g *Engine) paramsAsFields(v *types.Var, decl *ast.FuncDecl, k keyspace.Key) keyspace.Key {
	if decl == nil {
		return k
	}
	var out keyspace.Key
	for _, p := range k.Parts {
		if p.Unknown && isParamID(p.ID) {
			if f := g.paramField(v, decl, p.ID); f != nil {
				p.ID = "$recv." + f.Name()
			}
		}
		out = keyspace.Concat(out, keyspace.Key{Parts: []keyspace.Part{p}})
	}
	return out.Choosing(k.Choices...)
}

// paramField returns the field of v's struct, other than v, whose only
// write is decl storing its parameter id as it is.
func (g *Engine) paramField(v *types.Var, decl *ast.FuncDecl, id string) *types.Var {
	owner := g.fieldOwner(v)
	if owner == nil {
		return nil
	}
	for i := range owner.NumFields() {
		f := owner.Field(i)
		writes := g.fields[f]
		if f == v || len(writes) != 1 || writes[0].decl != decl || writes[0].from != nil {
			continue
		}
		alts := g.writerEval(decl).keys(writes[0].value)
		if len(alts) == 1 && len(alts[0].Key.Parts) == 1 && alts[0].Key.Parts[0].Unknown && alts[0].Key.Parts[0].ID == id {
			return f
		}
	}
	return nil
}

// fieldOwner returns the struct of the package that field v belongs to.
func (g *Engine) fieldOwner(v *types.Var) *types.Struct {
	if g.fieldOwners == nil {
		g.fieldOwners = map[*types.Var]*types.Struct{}
		scope := g.pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			if st, ok := tn.Type().Underlying().(*types.Struct); ok {
				for i := range st.NumFields() {
					g.fieldOwners[st.Field(i)] = st
				}
			}
		}
	}
	return g.fieldOwners[v]
}

// fieldKey turns a value of a writer into a field's key: the writer's
// parameters and its other values with an identity become unknowns of the
// object; its receiver's fields fields of the object; a value of no
// identity stays one. The field of a struct type declared in a function
// (local) is written and read in that function only: the writer's
// parameters and its receiver's fields are those the reader sees, one
// value for every object of one call, and keep their identities.
func fieldKey(k keyspace.Key, writer string, local bool) (keyspace.Key, bool) {
	var out keyspace.Key
	for i, p := range k.Parts {
		if p.Unknown {
			switch {
			case local && (p.ID == "$recv" || strings.HasPrefix(p.ID, "$recv.") || isParamID(p.ID)):
			case strings.HasPrefix(p.ID, "$recv."):
				p.ID = objMark + strings.TrimPrefix(p.ID, "$recv")
			case isParamID(p.ID):
				p.ID = objMark + "." + writer + p.ID
			case p.ID != "":
				// A value of the writer's own (a variable it sets): one
				// object's field holds one of them, read as often as it is.
				p.ID = objMark + "." + writer + ":" + p.ID
			default:
				// A value with no identity (what a call such as
				// uuid.New().String() returns): the field holds the one
				// it was given, the same at each read of one object.
				p.ID = objMark + "." + writer + ":#" + strconv.Itoa(i)
			}
		}
		out = keyspace.Concat(out, keyspace.Key{Parts: []keyspace.Part{p}})
	}
	// The writer's choices are the object's: one object's field holds
	// the one value it was given.
	for _, c := range k.Choices {
		c.Of = objMark + "." + writer + ":" + c.Of
		out = out.Choosing(c)
	}
	return out, len(out.Parts) > 0
}

// localStruct reports whether field v belongs to a struct type declared
// inside the one function that makes every write of it.
func (g *Engine) localStruct(v *types.Var, writes []fieldWrite) bool {
	if v.Pkg() != g.pkg {
		return false
	}
	s := g.pkg.Scope().Innermost(v.Pos())
	if s == nil || s == g.pkg.Scope() || s.Parent() == g.pkg.Scope() {
		return false
	}
	for _, w := range writes {
		if w.decl == nil || v.Pos() < w.decl.Pos() || v.Pos() >= w.decl.End() {
			return false
		}
	}
	return true
}

// writerEval returns the evaluator of a function that writes a field; the
// package-level one for an initializer.
func (g *Engine) writerEval(decl *ast.FuncDecl) *evaluator {
	if decl == nil {
		return g.pkgEval
	}
	if e := g.writerEvals[decl]; e != nil {
		return e
	}
	e := newEvaluator(g, decl)
	if g.writerEvals == nil {
		g.writerEvals = map[*ast.FuncDecl]*evaluator{}
	}
	g.writerEvals[decl] = e
	return e
}

// collectFieldWrites finds every write of a string field of a struct of
// the package: composite literals and assignments.
func (g *Engine) collectFieldWrites() {
	g.fields = map[*types.Var][]fieldWrite{}
	g.fieldVals = map[*types.Var][]keyspace.Key{}
	g.writerEvals = map[*ast.FuncDecl]*evaluator{}
	all, bad := g.fieldWrites()
	for v, ws := range all {
		if v.Pkg() == g.pkg && isStringType(v.Type()) && !bad[v] {
			g.fields[v] = ws
		}
	}
	// A string field also written from one result of a call of several
	// (rq.waitingList, rq.pendingList = ListNames(id)): that result too.
	for v, ws := range g.resultFieldWrites {
		if v.Pkg() == g.pkg && isStringType(v.Type()) && !g.otherBadFieldWrites[v] {
			g.fields[v] = append(slices.Clone(all[v]), ws...)
		}
	}
}

// fieldWrites finds every write of a field in the package's code, of any
// type and any package's struct, but its tests': the values of composite
// literals' fields and of assignments x.f = v. bad marks the fields
// written in ways not followed, tests included: x.f, y = f(), x.f += v,
// &x.f.
func (g *Engine) fieldWrites() (writes map[*types.Var][]fieldWrite, bad map[*types.Var]bool) {
	if g.allFieldWrites != nil {
		return g.allFieldWrites, g.badFieldWrites
	}
	writes, bad = map[*types.Var][]fieldWrite{}, map[*types.Var]bool{}
	results, otherBad := map[*types.Var][]fieldWrite{}, map[*types.Var]bool{}
	add := func(obj types.Object, decl *ast.FuncDecl, value ast.Expr, site token.Pos) {
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			writes[v] = append(writes[v], fieldWrite{decl: decl, value: value, site: site})
		}
	}
	fieldOf := func(x ast.Expr) *types.Var {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if s, ok := g.info.Selections[sel]; ok && s.Kind() == types.FieldVal {
			v, _ := s.Obj().(*types.Var)
			return v
		}
		return nil
	}
	for _, f := range g.files {
		// A test's writes are not the values the package's own code
		// reads (the S{Key: "f1"} a test passes as a hash field).
		test := strings.HasSuffix(g.fset.Position(f.Pos()).Filename, "_test.go")
		add := func(obj types.Object, decl *ast.FuncDecl, value ast.Expr, site token.Pos) {
			if !test {
				add(obj, decl, value, site)
			}
		}
		for _, d := range f.Decls {
			decl, _ := d.(*ast.FuncDecl)
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CompositeLit:
					for _, el := range n.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if id, ok := kv.Key.(*ast.Ident); ok {
								add(g.info.ObjectOf(id), decl, kv.Value, n.Pos())
							}
						}
					}
				case *ast.AssignStmt:
					for i, lhs := range n.Lhs {
						v := fieldOf(lhs)
						call, isCall := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
						switch {
						case v == nil:
						case len(n.Rhs) == 1 && len(n.Lhs) > 1 && isCall && n.Tok == token.ASSIGN:
							bad[v] = true
							if !test {
								results[v] = append(results[v], fieldWrite{decl: decl, value: call, from: call, res: i, site: n.Pos()})
							}
						case len(n.Lhs) != len(n.Rhs) || n.Tok != token.ASSIGN:
							bad[v], otherBad[v] = true, true
						default:
							add(v, decl, n.Rhs[i], n.Pos())
						}
					}
				case *ast.UnaryExpr:
					// &x.f lets anything change the field.
					if v := fieldOf(n.X); v != nil && n.Op == token.AND {
						bad[v], otherBad[v] = true, true
					}
				}
				return true
			})
		}
	}
	g.allFieldWrites, g.badFieldWrites = writes, bad
	g.resultFieldWrites, g.otherBadFieldWrites = results, otherBad
	return writes, bad
}

// fieldValues returns the keys of a field read through base, the identity
// of the object ("" for none), or nil to keep the field opaque.
func (g *Engine) fieldValues(v *types.Var, base string, x *ast.SelectorExpr) []Value {
	var keys []keyspace.Key
	if v.Pkg() == g.pkg {
		keys = g.fieldKeys(v)
	} else {
		var f KeyField
		if g.facts.ImportObjectFact(v, &f) {
			keys = f.Keys
		}
	}
	if len(keys) == 0 {
		return nil
	}
	out := make([]Value, 0, len(keys))
	for _, k := range keys {
		var r keyspace.Key
		for _, p := range k.Parts {
			if p.Unknown && strings.HasPrefix(p.ID, objMark) {
				if base == "" {
					p.ID = ""
				} else {
					p.ID = base + strings.TrimPrefix(p.ID, objMark)
				}
			}
			r = keyspace.Concat(r, keyspace.Key{Parts: []keyspace.Part{p}})
		}
		// The object's choices: those of the object read, or none when
		// it has no identity.
		for _, c := range k.Choices {
			if strings.HasPrefix(c.Of, objMark) {
				if base == "" {
					continue
				}
				c.Of = base + strings.TrimPrefix(c.Of, objMark)
			}
			r = r.Choosing(c)
		}
		out = append(out, Value{r, x.Pos()})
	}
	return out
}

// exportFields exports the keys of the package's exported string fields
// that its constructors and setters give, for the packages that read them.
func (g *Engine) exportFields() {
	if g.fields == nil {
		g.collectFieldWrites()
	}
	vars := make([]*types.Var, 0, len(g.fields))
	for v := range g.fields {
		vars = append(vars, v)
	}
	slices.SortFunc(vars, func(a, b *types.Var) int { return int(a.Pos() - b.Pos()) })
	for _, v := range vars {
		if !v.Exported() {
			continue
		}
		if keys := g.fieldKeys(v); len(keys) > 0 {
			g.facts.ExportObjectFact(v, &KeyField{Keys: keys})
		}
	}
}

// literalField returns the expression that a struct literal gives field
// name of the object x names, a variable set once to the literal (a
// package's registry entry, badgeSet = Keyspace{Prefix: "badge:{", Suffix:
// "}"}) whose fields the package never changes, and the evaluator of the
// expression. A nil expression with ok is a field the literal leaves out:
// its zero value.
func (e *evaluator) literalField(x ast.Expr, name string) (ast.Expr, *evaluator, bool) {
	lit, ev := e.compositeOf(x)
	if lit == nil || e.g.callIndex().changed[e.g.info.ObjectOf(ast.Unparen(x).(*ast.Ident))] {
		return nil, nil, false
	}
	st, ok := e.g.info.TypeOf(lit).Underlying().(*types.Struct)
	if !ok {
		return nil, nil, false
	}
	for i, el := range lit.Elts {
		kv, keyed := el.(*ast.KeyValueExpr)
		switch {
		case !keyed && i < st.NumFields() && st.Field(i).Name() == name:
			return el, ev, true
		case keyed:
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value, ev, true
			}
		}
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return nil, ev, true
		}
	}
	return nil, nil, false
}

// writesOf returns the writes of a field of the package; none for one of
// another package.
func (g *Engine) writesOf(v *types.Var) []fieldWrite {
	if v.Pkg() != g.pkg {
		return nil
	}
	if g.fields == nil {
		g.collectFieldWrites()
	}
	return g.fields[v]
}

// registryField reports whether a field is set only by struct literals of
// several package-level variables, the entries of a registry
// (badgeSet = Keyspace{Prefix: "badge:{", ...}): which entry a function's
// parameter holds is its callers' to say.
func (g *Engine) registryField(v *types.Var) bool {
	writes := g.writesOf(v)
	if len(writes) < 2 {
		return false
	}
	for _, w := range writes {
		if w.decl != nil || w.from != nil {
			return false
		}
	}
	return true
}

// literalFieldKeys returns the keys of field name of the object x names,
// when a struct literal gives them (literalField).
func (e *evaluator) literalFieldKeys(x ast.Expr, name string, pos token.Pos) ([]Value, bool) {
	val, ev, ok := e.literalField(x, name)
	switch {
	case !ok:
		return nil, false
	case val == nil:
		return []Value{{keyspace.Lit(""), pos}}, true
	}
	return ev.keys(val), true
}

// rootObject returns the variable a selector or index chain starts from
// (v of v.cfg.prefix, of v.items[i]), or nil.
func rootObject(info *types.Info, x ast.Expr) types.Object {
	for {
		switch y := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			x = y.X
		case *ast.IndexExpr:
			x = y.X
		case *ast.Ident:
			return info.ObjectOf(y)
		default:
			return nil
		}
	}
}

// bracesRefused reports whether the function refuses a value that holds
// a brace before pos (sluice-go's New: if strings.ContainsAny(namespace,
// "{}") { return nil, err }): past the check it holds none, so a key built
// from it takes its hashtag from elsewhere. The check is a guard
// (evaluator.guarded) whose condition is strings.ContainsAny of v and text
// holding '{', or strings.Contains or ContainsRune of '{', alone or joined
// by || with the same of '}'.
func (e *evaluator) bracesRefused(v *types.Var, pos token.Pos) bool {
	return e.bracesChecked(v, pos, false)
}

// bracesHeld reports whether the function has found, before pos, that v
// holds a '{' (Redisson's prefixName: if strings.Contains(name, "{") {
// return prefix + ":" + name }): there the value's own hashtag decides
// the slot of a key built from it (keyspace.Part's Braced).
func (e *evaluator) bracesHeld(v *types.Var, pos token.Pos) bool {
	return e.bracesChecked(v, pos, true)
}

// bracesChecked is bracesRefused, or bracesHeld when held.
func (e *evaluator) bracesChecked(v *types.Var, pos token.Pos, held bool) bool {
	return e.bracesCheckedOf(func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && e.g.info.Uses[id] == v
	}, pos, held)
}

// fieldBracesHeld is bracesHeld of a field read, x.f, where the function
// checks the same field of the same value (goworker's keyPrefix: if
// strings.Contains(b.prefix, "{") { return b.prefix }).
func (e *evaluator) fieldBracesHeld(x *ast.SelectorExpr) bool {
	obj := e.g.info.Selections[x].Obj()
	base := e.identity(x.X)
	if base == "" {
		return false
	}
	return e.bracesCheckedOf(func(y ast.Expr) bool {
		sel, ok := ast.Unparen(y).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s, ok := e.g.info.Selections[sel]
		return ok && s.Obj() == obj && e.identity(sel.X) == base
	}, x.Pos(), true)
}

// bracesCheckedOf is bracesChecked of the value that isV reads.
func (e *evaluator) bracesCheckedOf(isV func(ast.Expr) bool, pos token.Pos, held bool) bool {
	if e == nil || e.decl == nil || e.decl.Body == nil {
		return false
	}
	g := e.g
	// braces returns the braces that a condition finds in v.
	var braces func(x ast.Expr) string
	braces = func(x ast.Expr) string {
		switch x := ast.Unparen(x).(type) {
		case *ast.BinaryExpr:
			if x.Op == token.LOR {
				return braces(x.X) + braces(x.Y)
			}
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(g.info, x).(*types.Func)
			if fn != nil && len(x.Args) == 1 && isV(x.Args[0]) && g.findsBrace(fn) {
				// if hasHashTag(key) { return key + ":tmp" }; past it, or
				// in its else, the key holds no hashtag of its own.
				return "{"
			}
			switch name, text, _ := g.stringsSearch(x, isV); name {
			case "ContainsAny", "ContainsRune":
				return text
			case "Contains":
				if len(text) == 1 {
					return text
				}
			}
		}
		return ""
	}
	// A value that holds no '{' holds no '}' either: slotlint takes values
	// to close the braces they open and to open those they close.
	refuses := func(cond ast.Expr) bool {
		return strings.Contains(braces(cond), "{")
	}
	negated := func(cond ast.Expr) bool {
		u, ok := ast.Unparen(cond).(*ast.UnaryExpr)
		return ok && u.Op == token.NOT && refuses(u.X)
	}
	never := func(ast.Node, *ast.CaseClause) bool { return false }
	if held {
		// if strings.Contains(name, "{") { return prefix + ":" + name }
		return e.guarded(pos, refuses, negated, never)
	}
	return e.guarded(pos, negated, refuses, never)
}

// stringsSearch returns the name of a function of package strings that x
// calls on the value isV reads, with a constant to look for (Contains,
// ContainsAny, Cut, Index and the like; a rune as its text).
func (g *Engine) stringsSearch(x ast.Expr, isV func(ast.Expr) bool) (name, text string, ok bool) {
	call, isCall := ast.Unparen(x).(*ast.CallExpr)
	if !isCall || len(call.Args) != 2 || !isV(call.Args[0]) {
		return "", "", false
	}
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	tv := g.info.Types[call.Args[1]]
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "strings" || tv.Value == nil {
		return "", "", false
	}
	switch tv.Value.Kind() {
	case constant.String:
		return fn.Name(), constant.StringVal(tv.Value), true
	case constant.Int:
		if r, ok := constant.Int64Val(tv.Value); ok {
			return fn.Name(), string(rune(r)), true
		}
	}
	return "", "", false
}

// findsBrace reports whether a function of the package, of one string
// parameter and a bool result, tells whether the parameter holds a
// hashtag: it returns true only when it holds a '{' (its body starts by
// looking for one and returns false when it finds none: hololive's
// hasValkeyHashTag, _, after, ok := strings.Cut(key, "{"); if !ok {
// return false }; ...), or is one return of strings.Contains of the
// parameter and "{". Where it returns false the value is taken to hold
// no hashtag of its own.
func (g *Engine) findsBrace(fn *types.Func) bool {
	decl := g.decls[fn.Origin()]
	sig := fn.Signature()
	if decl == nil || decl.Body == nil || sig.Recv() != nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 ||
		!isStringType(sig.Params().At(0).Type()) || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	param := sig.Params().At(0)
	isParam := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && g.info.Uses[id] == param
	}
	// search returns F of strings.F(param, "{"), a search for the brace.
	search := func(x ast.Expr) (string, bool) {
		name, text, ok := g.stringsSearch(x, isParam)
		return name, ok && text == "{"
	}
	stmts := decl.Body.List
	if len(stmts) == 1 {
		ret, ok := stmts[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return false
		}
		name, ok := search(ret.Results[0])
		return ok && (name == "Contains" || name == "ContainsRune" || name == "ContainsAny")
	}
	// The search, then if the value it gives says none, return false.
	as, ok := stmts[0].(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || len(stmts) < 2 {
		return false
	}
	name, ok := search(as.Rhs[0])
	if !ok {
		return false
	}
	var found ast.Expr // the result that tells
	switch name {
	case "Cut":
		if len(as.Lhs) == 3 {
			found = as.Lhs[2]
		}
	case "Index", "IndexByte", "IndexRune":
		if len(as.Lhs) == 1 {
			found = as.Lhs[0]
		}
	}
	id, ok := found.(*ast.Ident)
	if !ok || id.Name == "_" {
		return false
	}
	obj := g.info.ObjectOf(id)
	is := func(x ast.Expr) bool {
		y, ok := ast.Unparen(x).(*ast.Ident)
		return ok && g.info.Uses[y] == obj
	}
	ifs, ok := stmts[1].(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
		return false
	}
	ret, ok := ifs.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	if tv := g.info.Types[ret.Results[0]]; tv.Value == nil || constant.BoolVal(tv.Value) {
		return false // not return false
	}
	switch c := ast.Unparen(ifs.Cond).(type) {
	case *ast.UnaryExpr: // if !ok
		return name == "Cut" && c.Op == token.NOT && is(c.X)
	case *ast.BinaryExpr: // if i < 0, if i == -1
		tv := g.info.Types[c.Y]
		if name == "Cut" || !is(c.X) || tv.Value == nil {
			return false
		}
		n, ok := constant.Int64Val(tv.Value)
		return ok && (c.Op == token.LSS && n == 0 || c.Op == token.EQL && n == -1)
	}
	return false
}

// fieldBraceFree reports whether every write of a string field stores a
// parameter of its writer that the writer refuses when it holds a brace
// (bracesRefused).
func (g *Engine) fieldBraceFree(v *types.Var) bool {
	writes := g.writesOf(v)
	if len(writes) == 0 {
		return false
	}
	for _, w := range writes {
		id, ok := ast.Unparen(w.value).(*ast.Ident)
		if !ok || w.from != nil {
			return false
		}
		p, ok := g.info.Uses[id].(*types.Var)
		if !ok || w.decl == nil || !g.writerEval(w.decl).bracesRefused(p, w.value.Pos()) {
			return false
		}
	}
	return true
}
