package keyflow

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/ruleset"
)

// Lua scripts are followed whenever their source is known statically: a
// constant, a package-level variable, a redis.NewScript result kept in a
// variable or a struct field, or the SHA1 of a script that the package
// loads with SCRIPT LOAD or NewScript. So are Redis 7 function libraries
// loaded with FunctionLoad, FunctionLoadReplace or Do(ctx, "FUNCTION",
// "LOAD", src), and the FCALLs of their functions.

// A ScriptRef is a script or library whose source is known.
type ScriptRef struct {
	Name string // the Go name that holds it, for messages
	Src  string
	Pos  token.Pos // where it is defined
}

// A ScriptRun is one run of a script (EVAL, EVALSHA, Script.Run) or of a
// function of a library (FCALL): what is known of its KEYS and ARGV.
type ScriptRun struct {
	// Ref is the script; Function the name of the function, for FCALL.
	Ref      ScriptRef
	Function string
	// Alts are the other scripts the call may run, when it runs a variable
	// set to one known script on each of its assignments.
	Alts     []ScriptRef
	Keys     []Group
	KeysOpen bool
	Args     []Group
	ArgsOpen bool
	// Cluster is true when the client may talk to a Redis Cluster, by its
	// static type; ReadOnly for EVAL_RO, EVALSHA_RO and FCALL_RO.
	Cluster  bool
	ReadOnly bool
}

// scripts caches what the package's scripts are.
type scripts struct {
	fields map[*types.Var]ScriptRef // struct fields set to a known script
	bySHA  map[string]ScriptRef
	// libs are the function libraries the package loads; nil until
	// Libraries scans the package.
	libs []ScriptRef
}

// scriptOf returns the script that x holds: a source string, a *redis.Script,
// or the SHA1 of a script loaded in the package.
func (g *Engine) scriptOf(e *evaluator, x ast.Expr, name string) (ScriptRef, bool) {
	info := g.info
	x = ast.Unparen(x)
	if tv := info.Types[x]; tv.Value != nil && tv.Value.Kind() == constant.String {
		src := constant.StringVal(tv.Value)
		pos := x.Pos()
		if id := IdentOf(x); id != nil {
			name = id.Name
			if obj := info.ObjectOf(id); obj != nil {
				pos = obj.Pos()
			}
		}
		if isSHA1(src) {
			ref, ok := g.scriptsBySHA()[src]
			return ref, ok
		}
		return ScriptRef{Name: name, Src: src, Pos: pos}, true
	}
	switch x := x.(type) {
	case *ast.CallExpr:
		// string(src), of a []byte
		if tv, ok := info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return g.scriptOf(e, x.Args[0], name)
		}
		// fsys.ReadFile("x.lua"), fs.ReadFile(fsys, "x.lua") of an embed.FS
		if src, ok := g.embeddedRead(e, x); ok {
			return ScriptRef{Name: name, Src: src, Pos: x.Pos()}, true
		}
		// load("x.lua"): a function of the package that makes the script
		// from its constant arguments
		if ref, ok := g.scriptOfCall(e, x, name); ok {
			return ref, true
		}
		// rds.ReenqueueScript(len(types)): a function that makes a script
		// with a key count of its argument
		if ref, ok := g.makerScript(x, name); ok {
			return ref, true
		}
		// strings.Replace(tmpl, "{KEY_NAMESPACE}", prefix, 1)
		if src, ok := g.replacedScript(e, x, name); ok {
			return src, true
		}
		// strings.NewReplacer("ADDSUFFIX", "+").Replace(tmpl)
		if src, ok := g.replacerScript(e, x, name); ok {
			return src, true
		}
		// fmt.Sprintf(tmpl, commonFuncs): Lua put together from parts
		if src, ok := g.formattedScript(e, x, name); ok {
			return src, true
		}
		// s.String() of a buffer of Lua text and rendered templates
		if src, ok := g.bufferScript(e, x, name); ok {
			return src, true
		}
		// strings.Join([]string{utilLua, setLua}, "\n")
		if src, ok := g.joinedScript(e, x, name); ok {
			return src, true
		}
		// redis.NewScript(src), rdb.ScriptLoad(ctx, src).Result() and .Val().
		if _, m := g.Resolve(x); m != nil && (m.Kind == ruleset.KindNewScript || m.Kind == ruleset.KindScriptLoad) {
			switch {
			case m.Script >= 0 && m.Script < len(x.Args):
				return g.scriptOf(e, x.Args[m.Script], name)
			case m.Script == ruleset.ReceiverParam:
				// script.Load(ctx, rdb): the receiver is the script.
				if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
					return g.scriptOf(e, sel.X, name)
				}
			}
		}
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Result" || sel.Sel.Name == "Val") {
			switch inner := ast.Unparen(sel.X).(type) {
			case *ast.CallExpr:
				return g.scriptOf(e, inner, name)
			case *ast.Ident:
				// result := rdb.ScriptLoad(ctx, src); sha := result.Val()
				if rhs := e.reachingRHS(inner); rhs != nil {
					if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok {
						return g.scriptOf(e, call, name)
					}
				}
			}
		}
	case *ast.Ident:
		v, ok := info.ObjectOf(x).(*types.Var)
		if !ok {
			return ScriptRef{}, false
		}
		if ref, ok := g.pkgVarScript(v, x.Name); ok {
			return ref, true
		}
		if rhs := e.setOnce(x); rhs != nil {
			return g.scriptOf(e, rhs, x.Name)
		}
		if rhs := e.reachingRHS(x); rhs != nil {
			return g.scriptOf(e, rhs, x.Name)
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			if v, ok := sel.Obj().(*types.Var); ok {
				ref, ok := g.scriptFields()[v]
				return ref, ok
			}
		}
		return g.scriptOf(e, x.Sel, x.Sel.Name)
	case *ast.BinaryExpr:
		// fnSrc + "\n" + callSrc: a script joined from parts that are each
		// constant or a script source the package holds, such as two
		// //go:embed files (centrifuge's broker_redis_scripts.go), or a
		// value put inside one of its strings (a hole)
		if x.Op != token.ADD {
			break
		}
		return g.joinScript(e, addends(x), "", name, x.Pos())
	case *ast.IndexExpr:
		// scripts["name"] of a map with constant entries
		if e == nil {
			e = g.pkgEval
		}
		if iv := info.Types[x.Index].Value; iv != nil {
			lit, ev := e.compositeOf(x.X)
			if lit == nil {
				// r.scripts["deduct"] of a map field its constructor's
				// literal sets
				lit, ev = g.fieldLiteral(x.X)
			}
			if lit != nil {
				for _, el := range lit.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if kval := info.Types[kv.Key].Value; kval != nil && constant.Compare(kval, token.EQL, iv) {
							return g.scriptOf(ev, kv.Value, name)
						}
					}
				}
			}
		}
	}
	return ScriptRef{}, false
}

// fieldLiteral returns the composite literal that a field of the package
// x selects holds, when that literal is the field's one write
// (soleWrite), and the evaluator of the function that writes it.
func (g *Engine) fieldLiteral(x ast.Expr) (*ast.CompositeLit, *evaluator) {
	w, ok := g.soleWrite(x)
	if !ok {
		return nil, nil
	}
	lit, ok := ast.Unparen(w.value).(*ast.CompositeLit)
	if !ok {
		return nil, nil
	}
	return lit, g.writerEval(w.decl)
}

// soleWrite returns the one write, in the package's code, of the field of
// the package that x selects (l.script, r.scripts), when nothing else
// writes it, as a whole or by index.
func (g *Engine) soleWrite(x ast.Expr) (fieldWrite, bool) {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return fieldWrite{}, false
	}
	s, ok := g.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return fieldWrite{}, false
	}
	v, _ := s.Obj().(*types.Var)
	writes, bad := g.fieldWrites()
	if v == nil || v.Pkg() != g.pkg || bad[v] || len(writes[v]) != 1 || len(g.elemWrites(v)) > 0 {
		return fieldWrite{}, false
	}
	return writes[v][0], true
}

// joinedScript returns the script that strings.Join makes of a slice
// literal of parts, each constant or a script source the package holds,
// and a constant separator: zitadel's cache joins //go:embed components
// so, strings.Join([]string{selectComponent, utilComponent, setScript},
// "\n").
func (g *Engine) joinedScript(e *evaluator, call *ast.CallExpr, name string) (ScriptRef, bool) {
	if f, _ := typeutil.Callee(g.info, call).(*types.Func); f == nil || f.FullName() != "strings.Join" || len(call.Args) != 2 {
		return ScriptRef{}, false
	}
	sep := g.info.Types[call.Args[1]].Value
	if sep == nil || sep.Kind() != constant.String {
		return ScriptRef{}, false
	}
	lit, _ := ast.Unparen(call.Args[0]).(*ast.CompositeLit)
	if lit == nil || slices.ContainsFunc(lit.Elts, func(el ast.Expr) bool { _, keyed := el.(*ast.KeyValueExpr); return keyed }) {
		return ScriptRef{}, false
	}
	return g.joinScript(e, lit.Elts, constant.StringVal(sep), name, call.Pos())
}

// joinScript returns the script that parts make joined with sep between
// them: each is constant or a script source the package holds, or a
// value put inside one of their strings (a hole).
func (g *Engine) joinScript(e *evaluator, parts []ast.Expr, sep, name string, pos token.Pos) (ScriptRef, bool) {
	var b strings.Builder
	for i, part := range parts {
		if i > 0 {
			b.WriteString(sep)
		}
		if ref, ok := g.scriptOf(e, part, name); ok {
			b.WriteString(ref.Src)
		} else if hole, ok := g.scriptHole(b.String(), part); ok {
			b.WriteString(hole)
		} else {
			return ScriptRef{}, false
		}
	}
	return ScriptRef{Name: name, Src: b.String(), Pos: pos}, true
}

// addends returns the operands of a chain of string concatenations,
// a + b + c, in order.
func addends(x ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(x).(*ast.BinaryExpr); ok && b.Op == token.ADD {
		return append(addends(b.X), addends(b.Y)...)
	}
	return []ast.Expr{x}
}

// scriptHole returns the text that stands in a script for a value the
// script is joined with, when the Lua before it, prefix, ends inside a
// string: the value is part of that string (beeorm's FlushDB puts its
// namespace into a KEYS pattern so), and stands there as the Go
// expression in angle brackets, as in a key template. A value anywhere
// else may be code: the script is then unknown.
func (g *Engine) scriptHole(prefix string, x ast.Expr) (string, bool) {
	if !luacheck.InString(prefix) || !isStringType(g.info.TypeOf(x)) {
		return "", false
	}
	return holeText(types.ExprString(x)), true
}

// holeText is what stands inside a Lua string for a value put there, its
// source text in angle brackets with no quote, backslash or newline.
func holeText(src string) string {
	return "<" + strings.Map(func(r rune) rune {
		if r == '\'' || r == '"' || r == '\\' || r == '\n' {
			return -1
		}
		return r
	}, src) + ">"
}

// replacedScript returns the script that strings.Replace or ReplaceAll
// makes of a script template, a constant placeholder replaced by a value
// with literal text (split-commons' ClearAll puts its key namespace into
// the script's KEYS pattern so). The value may have several: the first
// with a literal text stands for them all, as the checks read what the
// script does, which the text put in does not change. A value with no
// literal text leaves the script unknown.
func (g *Engine) replacedScript(e *evaluator, call *ast.CallExpr, name string) (ScriptRef, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "strings" || fn.Name() != "Replace" && fn.Name() != "ReplaceAll" {
		return ScriptRef{}, false
	}
	old, n, ok := replaceArgs(g.info, call)
	if !ok {
		return ScriptRef{}, false
	}
	tmpl, ok := g.scriptOf(e, call.Args[0], name)
	if !ok || e == nil {
		return ScriptRef{}, false
	}
	for _, v := range e.keys(call.Args[2]) {
		if text, ok := v.Key.Literal(); ok {
			tmpl.Src = strings.Replace(tmpl.Src, old, text, n)
			return tmpl, true
		}
	}
	return ScriptRef{}, false
}

// replacerScript returns the script that a strings.Replacer of constant
// pairs, made where it is used, makes of a script the package holds:
// roshi fills one generic Lua text's placeholders so, once per script,
// strings.NewReplacer("REMSUFFIX", deleteSuffix, "ADDSUFFIX",
// insertSuffix).Replace(genericScript).
func (g *Engine) replacerScript(e *evaluator, call *ast.CallExpr, name string) (ScriptRef, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || fn.FullName() != "(*strings.Replacer).Replace" || len(call.Args) != 1 {
		return ScriptRef{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ScriptRef{}, false
	}
	mk, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok || mk.Ellipsis.IsValid() {
		return ScriptRef{}, false
	}
	if f, _ := typeutil.Callee(g.info, mk).(*types.Func); f == nil || f.FullName() != "strings.NewReplacer" {
		return ScriptRef{}, false
	}
	pairs := make([]string, len(mk.Args))
	for i, a := range mk.Args {
		v := g.info.Types[a].Value
		if v == nil || v.Kind() != constant.String {
			return ScriptRef{}, false
		}
		pairs[i] = constant.StringVal(v)
	}
	if len(pairs)%2 != 0 {
		return ScriptRef{}, false
	}
	tmpl, ok := g.scriptOf(e, call.Args[0], name)
	if !ok {
		return ScriptRef{}, false
	}
	tmpl.Src = strings.NewReplacer(pairs...).Replace(tmpl.Src)
	tmpl.Name = name
	return tmpl, true
}

// formattedScript returns the script that fmt.Sprintf makes of a
// constant template whose verbs are all %s, %v or %d, each given a
// script source or constant text the package holds, or an integer
// constant (goharbor/harbor's job service puts its shared Lua functions
// and its keys per job into its scripts so). A number or a bool known
// only at run time (%d of a configured queue size, %t of a flag: meitu's
// bifrost) is a Lua name, _fmt_N for the Nth argument, where the script
// still parses with it.
func (g *Engine) formattedScript(e *evaluator, call *ast.CallExpr, name string) (ScriptRef, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Sprintf" || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return ScriptRef{}, false
	}
	tv := g.info.Types[call.Args[0]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return ScriptRef{}, false
	}
	if g.formatting[call] {
		// s = fmt.Sprintf("%s%s", s, more): a value made of itself.
		return ScriptRef{}, false
	}
	if g.formatting == nil {
		g.formatting = map[*ast.CallExpr]bool{}
	}
	g.formatting[call] = true
	defer delete(g.formatting, call)
	var b strings.Builder
	args := call.Args[1:]
	used, holes := 0, 0
	ok := walkFormat(constant.StringVal(tv.Value), len(args), func(s string) { b.WriteString(s) }, func(i int, verb byte) bool {
		used = i + 1
		if v := g.info.Types[args[i]].Value; v != nil && v.Kind() == constant.Int && (verb == 'd' || verb == 'v') {
			b.WriteString(v.ExactString())
			return true
		}
		if t, ok := g.info.TypeOf(args[i]).Underlying().(*types.Basic); ok && (t.Info()&types.IsInteger != 0 && (verb == 'd' || verb == 'v') || t.Info()&types.IsBoolean != 0 && (verb == 't' || verb == 'v')) {
			// A number or a bool the code formats in at run time
			// (index%%%d of a configured size): a Lua name stands for it.
			holes++
			fmt.Fprintf(&b, "_fmt_%d", i+1)
			return true
		}
		part, ok := g.scriptOf(e, args[i], name)
		if !ok || verb == 'd' {
			return false
		}
		b.WriteString(part.Src)
		return verb == 's' || verb == 'v'
	})
	if !ok || used != len(args) {
		return ScriptRef{}, false
	}
	if holes > 0 {
		if _, err := luacheck.Parse(name, b.String()); err != nil {
			// A name where a number goes does not parse there: the
			// syntax error would be slotlint's, not the script's.
			return ScriptRef{}, false
		}
	}
	return ScriptRef{Name: name, Src: b.String(), Pos: call.Pos()}, true
}

// pkgVarScript returns the script that a package-level variable holds:
// by its initializer (or the one assignment of init that replaces it),
// its //go:embed file, its one assignment in a
// function of the package (setOnce), or its fact for a variable of another package.
func (g *Engine) pkgVarScript(v *types.Var, name string) (ScriptRef, bool) {
	if init, ok := g.pkgVars[v]; ok && v.Pkg() == g.pkg {
		return g.scriptOf(g.pkgEval, init, name)
	}
	if set, ok := g.initReset(v); ok {
		if g.resetting[v] {
			// What the assignment reads of the variable itself.
			return g.scriptOf(g.pkgEval, g.pkgInitial[v], name)
		}
		if g.resetting == nil {
			g.resetting = map[*types.Var]bool{}
		}
		g.resetting[v] = true
		defer delete(g.resetting, v)
		return g.scriptOf(g.writerEval(set.decl), set.rhs, name)
	}
	if src, ok := g.embeddedFile(v); ok {
		return ScriptRef{Name: name, Src: src, Pos: v.Pos()}, true
	}
	if set, ok := g.setOnce(v); ok {
		return g.scriptOf(g.writerEval(set.decl), set.rhs, name)
	}
	if ref, ok := g.registeredScript(v, name); ok {
		return ref, true
	}
	return g.importedScript(v)
}

// IdentOf returns the identifier that names x, a name or a selector's
// name (pkg.Name, x.Field), or nil.
func IdentOf(x ast.Expr) *ast.Ident {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// digestScript reads x as the first argument of EVALSHA, a SHA1 digest:
// digest is true when x holds constant text (a literal, a constant, a
// variable set only to such), and ref is then the script of the package
// whose digest it is, if any. Constant text there is never Lua source: a
// placeholder such as "sha" (go-redis/redismock's tests), or the digest of
// a script loaded elsewhere, names no script slotlint knows, and Redis
// answers NOSCRIPT, not a syntax error.
func (g *Engine) digestScript(e *evaluator, x ast.Expr) (ref ScriptRef, ok, digest bool) {
	if e == nil {
		return ScriptRef{}, false, false
	}
	alts := e.keys(x)
	if len(alts) == 0 {
		return ScriptRef{}, false, false
	}
	for _, a := range alts {
		if _, lit := a.Key.Literal(); !lit {
			return ScriptRef{}, false, false
		}
	}
	if s, _ := alts[0].Key.Literal(); len(alts) == 1 && isSHA1(s) {
		ref, ok = g.scriptsBySHA()[s]
	}
	return ref, ok, true
}

func isSHA1(s string) bool {
	if len(s) != 40 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// scriptFields finds the struct fields set, anywhere in the package, to one
// known script: in composite literals and in assignments.
func (g *Engine) scriptFields() map[*types.Var]ScriptRef {
	if g.scripts.fields != nil {
		return g.scripts.fields
	}
	fields := map[*types.Var]ScriptRef{}
	conflict := map[*types.Var]bool{}
	set := func(v *types.Var, w fieldWrite) {
		ref, ok := g.scriptOf(g.writerEval(w.decl), w.value, v.Name())
		if prev, seen := fields[v]; !ok || seen && prev.Src != ref.Src {
			conflict[v] = true
			return
		}
		fields[v] = ref
	}
	g.scripts.fields = fields // guards against recursion through a field
	writes, _ := g.fieldWrites()
	for v, ws := range writes {
		for _, w := range ws {
			set(v, w)
		}
	}
	for v := range conflict {
		delete(fields, v)
	}
	return fields
}

// scriptsBySHA maps the SHA1 of every script the package makes with
// NewScript or loads with SCRIPT LOAD to the script.
func (g *Engine) scriptsBySHA() map[string]ScriptRef {
	if g.scripts.bySHA != nil {
		return g.scripts.bySHA
	}
	g.scripts.bySHA = map[string]ScriptRef{}
	for _, f := range g.files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			_, m := g.Resolve(call)
			if m == nil || (m.Kind != ruleset.KindNewScript && m.Kind != ruleset.KindScriptLoad) || m.Script < 0 || m.Script >= len(call.Args) {
				return true
			}
			tv := g.info.Types[call.Args[m.Script]]
			if tv.Value != nil && tv.Value.Kind() == constant.String {
				src := constant.StringVal(tv.Value)
				name := "script"
				if id := IdentOf(ast.Unparen(call.Args[m.Script])); id != nil {
					name = id.Name
				}
				g.scripts.bySHA[digest(src)] = ScriptRef{Name: name, Src: src, Pos: call.Args[m.Script].Pos()}
			}
			return true
		})
	}
	// A constant of the package that holds Lua is its digest's script,
	// however the package loads it (a raw SCRIPT LOAD in a helper): a
	// digest written in the code that equals its SHA1 names it.
	scope := g.pkg.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			continue
		}
		src := constant.StringVal(c.Val())
		if !strings.Contains(src, "redis.call") && !strings.Contains(src, "redis.pcall") {
			continue
		}
		if _, ok := g.scripts.bySHA[digest(src)]; !ok {
			g.scripts.bySHA[digest(src)] = ScriptRef{Name: name, Src: src, Pos: c.Pos()}
		}
	}
	return g.scripts.bySHA
}

// digest is the SHA1 of a script, as EVALSHA names it.
func digest(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}

// scriptAlts returns the scripts that a local variable holds when each of
// its assignments sets it to a known script, as centrifuge's history add
// sets script to b.addHistoryListScript in one branch and to
// b.addHistoryStreamScript in the other; its zero value, no script, runs
// nothing.
func (g *Engine) scriptAlts(e *evaluator, x ast.Expr) []ScriptRef {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || e == nil {
		return nil
	}
	v := e.localVar(id)
	if v == nil {
		return nil
	}
	var out []ScriptRef
	for _, d := range e.defs[v] {
		if d.rhs == zeroExpr {
			continue
		}
		if d.rhs == nil || d.add {
			return nil
		}
		ref, ok := g.scriptOf(e, d.rhs, id.Name)
		if !ok {
			return nil
		}
		if !slices.ContainsFunc(out, func(r ScriptRef) bool { return r.Src == ref.Src }) {
			out = append(out, ref)
		}
	}
	return out
}

// scriptRun is the run of the script of Eval, EvalSha, Script.Run and the
// like, when its source is known.
func (g *Engine) scriptRun(e *evaluator, call *ast.CallExpr, m *ruleset.Method, keys []Group, keysOpen bool) *ScriptRun {
	var srcExpr, client ast.Expr
	sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	switch {
	case m.Script == ruleset.ReceiverParam:
		if sel == nil {
			return nil
		}
		srcExpr = sel.X
		// Script.Run(ctx, client, keys, args...): the client is parameter 1.
		if len(call.Args) > 1 {
			client = call.Args[1]
		}
	case m.Script >= 0 && m.Script < len(call.Args):
		srcExpr = call.Args[m.Script]
		if sel != nil {
			client = sel.X
		}
	default:
		return nil
	}
	var ref ScriptRef
	var alts []ScriptRef
	var ok, digest bool
	if m.Kind == ruleset.KindScriptSHA {
		ref, ok, digest = g.digestScript(e, srcExpr)
	}
	if digest {
		if !ok {
			return nil
		}
	} else if ref, ok = g.scriptOf(e, srcExpr, "script"); !ok {
		if alts = g.scriptAlts(e, srcExpr); len(alts) == 0 {
			return nil
		}
		ref, alts = alts[0], alts[1:]
	}
	run := &ScriptRun{Ref: ref, Alts: alts, Keys: keys, KeysOpen: keysOpen, ArgsOpen: true, Cluster: g.clusterCapable(client), ReadOnly: g.readOnlyCommand(m.Command)}
	if m.Args != nil {
		run.Args, run.ArgsOpen = g.selectKeys(e, call, []ruleset.Selector{*m.Args})
	}
	return run
}

// functionRun is FCall(ctx, name, keys, args...) or FCallRO, when the
// function's name is a constant.
func (g *Engine) functionRun(e *evaluator, call *ast.CallExpr, m *ruleset.Method, keys []Group, keysOpen bool) *ScriptRun {
	if len(m.Keys) == 0 || m.Keys[0].Param < 1 || m.Keys[0].Param-1 >= len(call.Args) {
		return nil
	}
	tv := g.info.Types[call.Args[m.Keys[0].Param-1]]
	if tv.Value == nil {
		return nil
	}
	name, ok := constString(tv.Value)
	if !ok || name == "" {
		return nil
	}
	run := &ScriptRun{Function: name, Keys: keys, KeysOpen: keysOpen, ArgsOpen: true, Cluster: g.clusterCapable(receiver(call)), ReadOnly: g.readOnlyCommand(m.Command)}
	if m.Args != nil {
		run.Args, run.ArgsOpen = g.selectKeys(e, call, []ruleset.Selector{*m.Args})
	}
	return run
}

// rawScript is the script run by Do(ctx, "EVAL", src, numkeys, keys...,
// args...) and EVALSHA, EVAL_RO and EVALSHA_RO, the function run by FCALL
// and FCALL_RO, or the library of Do(ctx, "FUNCTION", "LOAD", src).
// keys are those that the command's key specs found at positions pos of
// r.args: a script's KEYS are those keys, not the arguments read again.
func (g *Engine) rawScript(e *evaluator, call *ast.CallExpr, r rawCall, pos []int, keys []Group) (*ScriptRun, *ScriptRef) {
	args, argv := r.args, r.argv
	run := &ScriptRun{Cluster: g.clusterCapable(receiver(call)), ReadOnly: g.readOnlyCommand(argv[0])}
	switch strings.ToLower(argv[0]) {
	case "eval", "evalsha", "eval_ro", "evalsha_ro":
		if len(args) < 3 || argv[2] == "" {
			return nil, nil
		}
		var ref ScriptRef
		var ok, digest bool
		if strings.HasPrefix(strings.ToLower(argv[0]), "evalsha") {
			ref, ok, digest = g.digestScript(e, args[1])
		}
		if !digest {
			ref, ok = g.scriptOf(e, args[1], "script")
		}
		if !ok {
			return nil, nil
		}
		run.Ref = ref
	case "fcall", "fcall_ro":
		if len(args) < 3 || argv[1] == "" || argv[2] == "" {
			return nil, nil
		}
		run.Function = argv[1]
	case "function":
		if x := rawLibrarySource(args, argv); x != nil {
			if ref, ok := g.scriptOf(e, x, "library"); ok {
				return nil, &ref
			}
		}
		return nil, nil
	default:
		return nil, nil
	}
	// "CMD", script or function, numkeys, keys..., args...
	var n int
	if _, err := fmt.Sscan(argv[2], &n); err != nil || n < 0 || 3+n > len(args) || len(pos) != n {
		return nil, nil
	}
	for i, p := range pos {
		if p != 3+i {
			return nil, nil
		}
	}
	run.Keys = keys
	for _, a := range args[3+n:] {
		run.Args = append(run.Args, e.keys(a))
	}
	return run, nil
}

// readOnlyCommand reports whether the rules' command table flags the Redis
// command name readonly, as Redis's key specs do EVAL_RO, EVALSHA_RO and
// FCALL_RO.
func (g *Engine) readOnlyCommand(name string) bool {
	cmd := g.rules.Command(name)
	return cmd != nil && slices.Contains(cmd.Flags, "readonly")
}

// receiver is the client a method is called on, or nil.
func receiver(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// initName is the name of the package-level variable that call initializes,
// or "script".
func (g *Engine) initName(call *ast.CallExpr) string {
	if name, ok := g.initNames[call]; ok {
		return name
	}
	return "script"
}

// librarySource returns the library that a call loads: the source argument
// of FunctionLoad(ctx, src), FunctionLoadReplace(ctx, src) and Do(ctx,
// "FUNCTION", "LOAD", [REPLACE,] src), or nil.
func (g *Engine) librarySource(call *ast.CallExpr) ast.Expr {
	fn, m := g.Resolve(call)
	switch {
	case fn == nil:
		return nil
	case m == nil:
		if (fn.Name() == "FunctionLoad" || fn.Name() == "FunctionLoadReplace") && g.IsClientPackage(fn.Pkg()) && len(call.Args) == 2 {
			return call.Args[1]
		}
		return nil
	case m.Kind != ruleset.KindRaw:
		return nil
	}
	r, ok := g.rawArgs(call, m)
	if !ok {
		return nil
	}
	return rawLibrarySource(r.args, r.argv)
}

// rawLibrarySource returns the source argument of FUNCTION LOAD [REPLACE]
// src, or nil.
func rawLibrarySource(args []ast.Expr, argv []string) ast.Expr {
	if len(argv) < 3 || !strings.EqualFold(argv[0], "function") || !strings.EqualFold(argv[1], "load") {
		return nil
	}
	i := 2
	if strings.EqualFold(argv[i], "replace") {
		i++
	}
	if i != len(args)-1 {
		return nil
	}
	return args[i]
}

// Libraries returns the function libraries that the package loads from a
// source known statically, each once.
func (g *Engine) Libraries() []ScriptRef {
	if g.scripts.libs != nil {
		return g.scripts.libs
	}
	g.scripts.libs = []ScriptRef{}
	seen := map[string]bool{}
	for _, f := range g.files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			x := g.librarySource(call)
			if x == nil {
				return true
			}
			ref, ok := g.scriptOf(g.pkgEval, x, "library")
			if !ok || seen[ref.Src] {
				return true
			}
			seen[ref.Src] = true
			g.scripts.libs = append(g.scripts.libs, ref)
			return true
		})
	}
	return g.scripts.libs
}
