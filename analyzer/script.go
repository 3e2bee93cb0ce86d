package analyzer

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

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
)

// Lua scripts are checked by package luacheck whenever their source is known
// statically: a constant, a package-level variable, a redis.NewScript result
// kept in a variable or a struct field, or the SHA1 of a script that the
// package loads with SCRIPT LOAD or NewScript. The analyzer supplies what it
// knows of KEYS and ARGV at each call.

// A scriptRef is a script whose source is known.
type scriptRef struct {
	name string // the Go name that holds it, for messages
	src  string
	pos  token.Pos // where it is defined
}

// scripts caches what the package's scripts are.
type scripts struct {
	parsed map[string]*luacheck.Script
	fields map[*types.Var]scriptRef // struct fields set to a known script
	bySHA  map[string]scriptRef
	// reported dedupes findings about one script reported at several calls.
	reported map[string]bool
	// libs are the function libraries the package loads, by source; nil
	// until libraries scans the package.
	libs      []*library
	libParsed map[string]*luacheck.Library
}

// scriptOf returns the script that x holds: a source string, a *redis.Script,
// or the SHA1 of a script loaded in the package.
func (c *checker) scriptOf(e *evaluator, x ast.Expr, name string) (scriptRef, bool) {
	info := c.pass.TypesInfo
	x = ast.Unparen(x)
	if tv := info.Types[x]; tv.Value != nil && tv.Value.Kind() == constant.String {
		src := constant.StringVal(tv.Value)
		pos := x.Pos()
		if id := identOf(x); id != nil {
			name = id.Name
			if obj := info.ObjectOf(id); obj != nil {
				pos = obj.Pos()
			}
		}
		if isSHA1(src) {
			ref, ok := c.scriptsBySHA()[src]
			return ref, ok
		}
		return scriptRef{name: name, src: src, pos: pos}, true
	}
	switch x := x.(type) {
	case *ast.CallExpr:
		// redis.NewScript(src), rdb.ScriptLoad(ctx, src).Result() and .Val().
		if _, m := c.resolve(x); m != nil && (m.Kind == ruleset.KindNewScript || m.Kind == ruleset.KindScriptLoad) {
			switch {
			case m.Script >= 0 && m.Script < len(x.Args):
				return c.scriptOf(e, x.Args[m.Script], name)
			case m.Script == ruleset.ReceiverParam:
				// script.Load(ctx, rdb): the receiver is the script.
				if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
					return c.scriptOf(e, sel.X, name)
				}
			}
		}
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Result" || sel.Sel.Name == "Val") {
			if inner, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok {
				return c.scriptOf(e, inner, name)
			}
		}
	case *ast.Ident:
		v, ok := info.ObjectOf(x).(*types.Var)
		if !ok {
			return scriptRef{}, false
		}
		if init, ok := c.pkgVars[v]; ok && v.Pkg() == c.pass.Pkg {
			return c.scriptOf(c.pkgEval, init, x.Name)
		}
		if lv := e.localVar(x); lv != nil {
			if defs := e.defs[lv]; len(defs) == 1 && defs[0].rhs != nil {
				return c.scriptOf(e, defs[0].rhs, x.Name)
			}
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			if v, ok := sel.Obj().(*types.Var); ok {
				ref, ok := c.scriptFields()[v]
				return ref, ok
			}
		}
		return c.scriptOf(e, x.Sel, x.Sel.Name)
	}
	return scriptRef{}, false
}

func identOf(x ast.Expr) *ast.Ident {
	switch x := x.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
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
func (c *checker) scriptFields() map[*types.Var]scriptRef {
	if c.scripts.fields != nil {
		return c.scripts.fields
	}
	fields := map[*types.Var]scriptRef{}
	conflict := map[*types.Var]bool{}
	set := func(field types.Object, value ast.Expr) {
		v, ok := field.(*types.Var)
		if !ok || !v.IsField() {
			return
		}
		ref, ok := c.scriptOf(c.pkgEval, value, v.Name())
		if prev, seen := fields[v]; !ok || seen && prev.src != ref.src {
			conflict[v] = true
			return
		}
		fields[v] = ref
	}
	c.scripts.fields = fields // guards against recursion through a field
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							if obj := c.pass.TypesInfo.ObjectOf(id); obj != nil {
								set(obj, kv.Value)
							}
						}
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, lhs := range n.Lhs {
						if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
							if s, ok := c.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.FieldVal {
								set(s.Obj(), n.Rhs[i])
							}
						}
					}
				}
			}
			return true
		})
	}
	for v := range conflict {
		delete(fields, v)
	}
	return fields
}

// scriptsBySHA maps the SHA1 of every script the package makes with
// NewScript or loads with SCRIPT LOAD to the script.
func (c *checker) scriptsBySHA() map[string]scriptRef {
	if c.scripts.bySHA != nil {
		return c.scripts.bySHA
	}
	c.scripts.bySHA = map[string]scriptRef{}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			_, m := c.resolve(call)
			if m == nil || (m.Kind != ruleset.KindNewScript && m.Kind != ruleset.KindScriptLoad) || m.Script < 0 || m.Script >= len(call.Args) {
				return true
			}
			tv := c.pass.TypesInfo.Types[call.Args[m.Script]]
			if tv.Value != nil && tv.Value.Kind() == constant.String {
				src := constant.StringVal(tv.Value)
				name := "script"
				if id := identOf(ast.Unparen(call.Args[m.Script])); id != nil {
					name = id.Name
				}
				sum := sha1.Sum([]byte(src))
				c.scripts.bySHA[hex.EncodeToString(sum[:])] = scriptRef{name: name, src: src, pos: call.Args[m.Script].Pos()}
			}
			return true
		})
	}
	return c.scripts.bySHA
}

// parse parses a script once per package.
func (c *checker) parse(ref scriptRef) *luacheck.Script {
	key := ref.name + "\x00" + ref.src
	if s := c.scripts.parsed[key]; s != nil {
		return s
	}
	s, _ := luacheck.Parse(ref.name, ref.src) // a syntax error is reported by Check
	c.scripts.parsed[key] = s
	return s
}

// checkScriptCall runs the Lua checks for one call of a script. Findings
// about the slots of KEYS are left to checkKeys, which knows where each key
// was built; findings that do not depend on the call are reported once.
// readOnly is true for EVAL_RO and EVALSHA_RO.
func (c *checker) checkScriptCall(s *summary, call *ast.CallExpr, ref scriptRef, keys []keyGroup, keysOpen bool, args []keyGroup, argsOpen bool, client ast.Expr, readOnly bool) {
	c.checkScript(s, call, ref, keys, keysOpen, args, argsOpen, client, readOnly, nil)
}

// checkScriptDef checks a script where it is made, with no call in sight:
// only for what does not depend on a call, its syntax and its flags.
func (c *checker) checkScriptDef(s *summary, call *ast.CallExpr, ref scriptRef) {
	only := map[string]bool{luacheck.CategorySyntax: true, luacheck.CategoryFlags: true}
	c.checkScript(s, call, ref, nil, true, nil, true, nil, false, only)
}

func (c *checker) checkScript(s *summary, call *ast.CallExpr, ref scriptRef, keys []keyGroup, keysOpen bool, args []keyGroup, argsOpen bool, client ast.Expr, readOnly bool, only map[string]bool) {
	c.checkLua(s, call, c.parse(ref), ref, "script", luacheck.Call{
		KnownKeyCount: !keysOpen,
		KnownArgCount: !argsOpen,
		Cluster:       c.clusterCapable(client),
		ReadOnly:      readOnly,
	}, keys, args, only)
}

// checkLua reports what luacheck finds in a script or a function of a
// library (what names it in messages) for one call.
func (c *checker) checkLua(s *summary, call *ast.CallExpr, script *luacheck.Script, ref scriptRef, what string, lc luacheck.Call, keys, args []keyGroup, only map[string]bool) {
	for _, g := range keys {
		lc.Keys = append(lc.Keys, firstKey(g))
	}
	for _, g := range args {
		lc.Args = append(lc.Args, firstKey(g))
	}
	for _, f := range script.Check(luacheck.CommandsFrom(c.rules), lc) {
		if f.Category == luacheck.CategoryCrossSlot || f.Category == luacheck.CategoryMaybeCrossSlot || only != nil && !only[f.Category] {
			continue
		}
		// The same finding about one script is reported once, at the first
		// call that finds it.
		key := ref.src + "\x00" + f.Message
		if c.scripts.reported[key] {
			continue
		}
		c.scripts.reported[key] = true
		d := diag{pos: call.Pos(), end: call.End(), category: f.Category, message: f.Message}
		if ref.pos.IsValid() && (ref.pos < call.Pos() || ref.pos >= call.End()) {
			d.related = []analysis.RelatedInformation{{Pos: ref.pos, Message: fmt.Sprintf("%s %s is defined here", what, ref.name)}}
		}
		s.diags = append(s.diags, d)
	}
}

func firstKey(g keyGroup) keyspace.Key {
	if len(g) == 0 {
		return keyspace.Unknown("", "?", false)
	}
	return g[0].key
}

// clusterCapable reports whether a client expression may talk to a Redis
// Cluster, by its static type.
func (c *checker) clusterCapable(x ast.Expr) bool {
	if x == nil {
		return false
	}
	t := c.pass.TypesInfo.TypeOf(x)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	switch n.Obj().Name() {
	case "ClusterClient", "UniversalClient", "Ring":
		return true
	}
	return false
}

// scriptCall checks the script of Eval, EvalSha, Script.Run and the like.
func (c *checker) scriptCall(e *evaluator, s *summary, call *ast.CallExpr, m *ruleset.Method, keys []keyGroup, keysOpen bool) {
	var srcExpr, client ast.Expr
	sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	switch {
	case m.Script == ruleset.ReceiverParam:
		if sel == nil {
			return
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
		return
	}
	ref, ok := c.scriptOf(e, srcExpr, "script")
	if !ok {
		return
	}
	var args []keyGroup
	argsOpen := true
	if m.Args != nil {
		args, argsOpen = c.selectKeys(e, call, []ruleset.Selector{*m.Args})
	}
	c.checkScriptCall(s, call, ref, keys, keysOpen, args, argsOpen, client, c.readOnlyCommand(m.Command))
}

// rawScript checks Do(ctx, "EVAL", src, numkeys, keys..., args...) and
// EVALSHA, EVAL_RO and EVALSHA_RO, FCALL and FCALL_RO, and the library of
// Do(ctx, "FUNCTION", "LOAD", src).
func (c *checker) rawScript(e *evaluator, s *summary, call *ast.CallExpr, args []ast.Expr, argv []string) {
	switch strings.ToLower(argv[0]) {
	case "eval", "evalsha", "eval_ro", "evalsha_ro":
	case "fcall", "fcall_ro":
		c.rawFunctionCall(e, s, call, args, argv)
		return
	case "function":
		if x := rawLibrarySource(args, argv); x != nil {
			c.checkLibraryLoad(e, s, call, x)
		}
		return
	default:
		return
	}
	if len(args) < 3 || argv[2] == "" {
		return
	}
	ref, ok := c.scriptOf(e, args[1], "script")
	if !ok {
		return
	}
	keys, rest, ok := splitNumKeys(e, args, argv)
	if !ok {
		return
	}
	c.checkScriptCall(s, call, ref, keys, false, rest, false, receiver(call), c.readOnlyCommand(argv[0]))
}

// splitNumKeys splits the arguments of a raw EVAL or FCALL, "CMD", script or
// function, numkeys, keys..., args..., into its keys and its arguments.
func splitNumKeys(e *evaluator, args []ast.Expr, argv []string) (keys, rest []keyGroup, ok bool) {
	var n int
	if _, err := fmt.Sscan(argv[2], &n); err != nil || n < 0 || 3+n > len(args) {
		return nil, nil, false
	}
	for _, a := range args[3 : 3+n] {
		keys = append(keys, e.keys(a))
	}
	for _, a := range args[3+n:] {
		rest = append(rest, e.keys(a))
	}
	return keys, rest, true
}

// readOnlyCommand reports whether the rules' command table flags the Redis
// command name readonly, as Redis's key specs do EVAL_RO, EVALSHA_RO and
// FCALL_RO.
func (c *checker) readOnlyCommand(name string) bool {
	cmd := c.rules.Command(name)
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
func (c *checker) initName(call *ast.CallExpr) string {
	if name, ok := c.initNames[call]; ok {
		return name
	}
	return "script"
}

// Redis 7 function libraries are checked like scripts: a library whose
// source is known statically, loaded with FunctionLoad, FunctionLoadReplace
// or Do(ctx, "FUNCTION", "LOAD", src), is checked where it is loaded for
// what makes Redis refuse it, and each FCall of a function it registers is
// checked against that function.

// A library is a function library the package loads.
type library struct {
	ref scriptRef
	lib *luacheck.Library
}

func isClientPackage(path string) bool {
	return strings.HasPrefix(path, "github.com/redis/go-redis/") || strings.HasPrefix(path, "github.com/go-redis/redis/")
}

// librarySource returns the library that a call loads: the source argument
// of FunctionLoad(ctx, src), FunctionLoadReplace(ctx, src) and Do(ctx,
// "FUNCTION", "LOAD", [REPLACE,] src), or nil.
func (c *checker) librarySource(call *ast.CallExpr) ast.Expr {
	fn, m := c.resolve(call)
	switch {
	case fn == nil:
		return nil
	case m == nil:
		if (fn.Name() == "FunctionLoad" || fn.Name() == "FunctionLoadReplace") && fn.Pkg() != nil && isClientPackage(fn.Pkg().Path()) && len(call.Args) == 2 {
			return call.Args[1]
		}
		return nil
	case m.Kind != ruleset.KindRaw || m.Args == nil || call.Ellipsis.IsValid() || m.Args.Param >= len(call.Args):
		return nil
	}
	args := call.Args[m.Args.Param:]
	argv := make([]string, len(args))
	for i, a := range args {
		if tv := c.pass.TypesInfo.Types[a]; tv.Value != nil {
			argv[i], _ = constString(tv.Value)
		}
	}
	return rawLibrarySource(args, argv)
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

// parseLibrary parses a library once per package.
func (c *checker) parseLibrary(ref scriptRef) *luacheck.Library {
	if c.scripts.libParsed == nil {
		c.scripts.libParsed = map[string]*luacheck.Library{}
	}
	key := ref.name + "\x00" + ref.src
	if l := c.scripts.libParsed[key]; l != nil {
		return l
	}
	l, _ := luacheck.ParseLibrary(ref.name, ref.src) // its problems are reported where it is loaded
	c.scripts.libParsed[key] = l
	return l
}

// libraries finds the function libraries that the package loads from a
// source known statically.
func (c *checker) libraries() []*library {
	if c.scripts.libs != nil {
		return c.scripts.libs
	}
	c.scripts.libs = []*library{}
	seen := map[string]bool{}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			x := c.librarySource(call)
			if x == nil {
				return true
			}
			ref, ok := c.scriptOf(c.pkgEval, x, "library")
			if !ok || seen[ref.src] {
				return true
			}
			seen[ref.src] = true
			c.scripts.libs = append(c.scripts.libs, &library{ref: ref, lib: c.parseLibrary(ref)})
			return true
		})
	}
	return c.scripts.libs
}

// checkLibraryLoad reports, where a library is loaded, what makes Redis 7
// refuse it: a syntax error, a missing "#!lua name=" line, a bad
// registration.
func (c *checker) checkLibraryLoad(e *evaluator, s *summary, call *ast.CallExpr, x ast.Expr) {
	ref, ok := c.scriptOf(e, x, "library")
	if !ok {
		return
	}
	for _, f := range c.parseLibrary(ref).Problems() {
		key := ref.src + "\x00" + f.Message
		if c.scripts.reported[key] {
			continue
		}
		c.scripts.reported[key] = true
		d := diag{pos: call.Pos(), end: call.End(), category: f.Category, message: f.Message}
		if ref.pos.IsValid() && (ref.pos < call.Pos() || ref.pos >= call.End()) {
			d.related = []analysis.RelatedInformation{{Pos: ref.pos, Message: fmt.Sprintf("library %s is defined here", ref.name)}}
		}
		s.diags = append(s.diags, d)
	}
}

// functionCall checks FCall(ctx, name, keys, args...) and FCallRO against
// the function the package's libraries register under name.
func (c *checker) functionCall(e *evaluator, s *summary, call *ast.CallExpr, m *ruleset.Method, keys []keyGroup, keysOpen bool) {
	if len(m.Keys) == 0 || m.Keys[0].Param < 1 || m.Keys[0].Param-1 >= len(call.Args) {
		return
	}
	tv := c.pass.TypesInfo.Types[call.Args[m.Keys[0].Param-1]]
	if tv.Value == nil {
		return
	}
	name, ok := constString(tv.Value)
	if !ok || name == "" {
		return
	}
	var args []keyGroup
	argsOpen := true
	if m.Args != nil {
		args, argsOpen = c.selectKeys(e, call, []ruleset.Selector{*m.Args})
	}
	c.checkFunction(s, call, name, c.readOnlyCommand(m.Command), keys, keysOpen, args, argsOpen, receiver(call))
}

// rawFunctionCall checks Do(ctx, "FCALL", name, numkeys, keys..., args...)
// and FCALL_RO.
func (c *checker) rawFunctionCall(e *evaluator, s *summary, call *ast.CallExpr, args []ast.Expr, argv []string) {
	if len(args) < 3 || argv[1] == "" || argv[2] == "" {
		return
	}
	keys, rest, ok := splitNumKeys(e, args, argv)
	if !ok {
		return
	}
	c.checkFunction(s, call, argv[1], c.readOnlyCommand(argv[0]), keys, false, rest, false, receiver(call))
}

// checkFunction runs the Lua checks of the function name for one call of
// it, when exactly one library of the package registers it.
func (c *checker) checkFunction(s *summary, call *ast.CallExpr, name string, readOnly bool, keys []keyGroup, keysOpen bool, args []keyGroup, argsOpen bool, client ast.Expr) {
	var lib *library
	var fn *luacheck.Script
	for _, l := range c.libraries() {
		if f, ok := l.lib.Function(name); ok {
			if fn != nil {
				return // which of the libraries Redis runs is not known
			}
			lib, fn = l, f
		}
	}
	if fn == nil {
		return
	}
	c.checkLua(s, call, fn, lib.ref, "library", luacheck.Call{
		KnownKeyCount: !keysOpen,
		KnownArgCount: !argsOpen,
		Cluster:       c.clusterCapable(client),
		ReadOnly:      readOnly,
	}, keys, args, nil)
}
