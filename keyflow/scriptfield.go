package keyflow

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// A project may keep its scripts in a type of its own whose method runs
// them (mgomes/senna's internal/script):
//
//	type Script struct{ Name, Source, sha string }
//
//	func New(name, source string) *Script { return &Script{Name: name, Source: source} }
//
//	func (s *Script) Run(ctx context.Context, c redis.Scripter, keys []string, args ...any) (any, error) {
//		... c.Eval(ctx, s.Source, keys, args...) ...
//	}
//
//	var bucketScript = script.New("bucket", `...`)
//	... bucketScript.Run(ctx, rdb, []string{key}, limit) ...
//
// Run carries its EVAL to its callers with the receiver's field that holds
// the source (WrappedCall.ScriptField), and the script a caller runs is
// that field of its receiver: what a struct literal, or the constructor
// the receiver is made by, sets it to. A constructor of another package
// says so by a KeyScriptCtor fact.

// KeyScriptCtor is the fact that a function returns a value of a type of
// its package whose method runs the script a field holds, and sets the
// field: to one of its parameters, or to a script whose source is known.
type KeyScriptCtor struct {
	Fields []CtorField
}

// A CtorField is a field that a constructor sets to its parameter Param,
// or (Param -1) to the script Name, Src.
type CtorField struct {
	Field     string
	Param     int
	Name, Src string
}

func (*KeyScriptCtor) AFact() {}

func (f *KeyScriptCtor) String() string {
	s := make([]string, len(f.Fields))
	for i, c := range f.Fields {
		if c.Param >= 0 {
			s[i] = c.Field + "=$" + strconv.Itoa(c.Param)
		} else {
			s[i] = c.Field + "=" + strconv.Quote(c.Name)
		}
	}
	return "keyScriptCtor(" + strings.Join(s, ", ") + ")"
}

// heldScript returns the script that field of the object x holds: x a
// struct literal, a constructor's call, a variable set once to one, or a
// field of the package set once to one; name names it in messages, depth
// bounds the variables followed.
func (g *Engine) heldScript(e *evaluator, x ast.Expr, field, name string, depth int) (ScriptRef, bool) {
	if e == nil {
		e = g.pkgEval
	}
	if depth > 4 {
		return ScriptRef{}, false
	}
	if lit := fieldsLit(x); lit != nil {
		if val := litField(lit, field); val != nil {
			return g.scriptOf(e, val, name)
		}
		return ScriptRef{}, false
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(g.info, x).(*types.Func)
		if fn == nil || x.Ellipsis.IsValid() {
			break
		}
		c, ok := g.ctorField(fn, field)
		switch {
		case !ok:
		case c.Param < 0:
			return ScriptRef{Name: c.Name, Src: c.Src}, true
		case c.Param < len(x.Args):
			return g.scriptOf(e, x.Args[c.Param], name)
		}
	case *ast.Ident:
		v, ok := g.info.Uses[x].(*types.Var)
		if !ok {
			break
		}
		if v.Parent() == v.Pkg().Scope() {
			if init, ok := g.pkgVars[v]; ok && v.Pkg() == g.pkg {
				return g.heldScript(g.pkgEval, init, field, x.Name, depth+1)
			}
			break
		}
		if rhs := e.setOnce(x); rhs != nil {
			return g.heldScript(e, rhs, field, x.Name, depth+1)
		}
	case *ast.SelectorExpr:
		// l.script, a field of the package set once (by the limiter's
		// constructor).
		if w, ok := g.soleWrite(x); ok {
			return g.heldScript(g.writerEval(w.decl), w.value, field, x.Sel.Name, depth+1)
		}
	}
	return ScriptRef{}, false
}

// ctorField returns how a constructor sets a field that holds a script:
// by its body in this package, by its fact in another.
func (g *Engine) ctorField(fn *types.Func, field string) (CtorField, bool) {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return CtorField{}, false
	}
	if fn.Pkg() != g.pkg {
		var f KeyScriptCtor
		if !g.facts.ImportObjectFact(fn, &f) {
			return CtorField{}, false
		}
		i := slices.IndexFunc(f.Fields, func(c CtorField) bool { return c.Field == field })
		if i < 0 {
			return CtorField{}, false
		}
		return f.Fields[i], true
	}
	decl := g.decls[fn]
	if decl == nil || decl.Recv != nil {
		return CtorField{}, false
	}
	lit := fieldsLit(g.oneReturn(decl))
	if lit == nil {
		return CtorField{}, false
	}
	val := litField(lit, field)
	if val == nil || !g.writtenOnce(lit, field) {
		return CtorField{}, false
	}
	if i := paramOf(g.info, fn, val); i >= 0 {
		if fn.Signature().Variadic() && i == fn.Signature().Params().Len()-1 {
			return CtorField{}, false
		}
		return CtorField{Field: field, Param: i}, true
	}
	if ref, ok := g.scriptOf(g.writerEval(decl), val, field); ok {
		return CtorField{Field: field, Param: -1, Name: ref.Name, Src: ref.Src}, true
	}
	return CtorField{}, false
}

// writtenOnce reports whether a literal's is the one write, in the
// package, of the field it gives by name: no method sets the field to
// another script later.
func (g *Engine) writtenOnce(lit *ast.CompositeLit, field string) bool {
	st, ok := g.info.TypeOf(lit).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	writes, bad := g.fieldWrites()
	for i := range st.NumFields() {
		if v := st.Field(i); v.Name() == field {
			return !bad[v] && len(writes[v]) == 1
		}
	}
	return false
}

// exportScriptCtors exports how the package's exported functions set the
// fields that its wrappers' scripts are read from (fields, by the type
// whose method runs them).
func (g *Engine) exportScriptCtors(fields map[*types.TypeName][]string) {
	if len(fields) == 0 {
		return
	}
	scope := g.pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !fn.Exported() || fn.Signature().Results().Len() == 0 {
			continue
		}
		t := fn.Signature().Results().At(0).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		if !ok {
			continue
		}
		f := &KeyScriptCtor{}
		for _, field := range fields[named.Obj()] {
			if c, ok := g.ctorField(fn, field); ok {
				f.Fields = append(f.Fields, c)
			}
		}
		if len(f.Fields) > 0 {
			g.facts.ExportObjectFact(fn, f)
		}
	}
}

// recvTypeName returns the type whose method fn is, or nil.
func recvTypeName(fn *types.Func) *types.TypeName {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if named, ok := t.(*types.Named); ok {
		return named.Obj()
	}
	return nil
}
