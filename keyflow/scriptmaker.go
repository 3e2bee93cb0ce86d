package keyflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/types/typeutil"
)

// A function may make a script whose key count its caller chooses:
//
//	// RedisLuaReenqueueScript returns the script for jobTypesCount queues.
//	func RedisLuaReenqueueScript(jobTypesCount int) *redis.Script {
//		return redis.NewScript(jobTypesCount*requeueKeysPerJob, src)
//	}
//
// (goharbor/harbor's job service). Its callers run the script with keys
// for each of their collection's elements: the count at the caller is
// Fixed + Per times the argument, which may itself be len(collection).

// KeyScriptMaker is the fact that a function returns a script of known
// source made with a key count of Fixed plus Per times its parameter
// Param (Param -1: Fixed alone).
type KeyScriptMaker struct {
	Name       string // the Go name that holds the source, for messages
	Src        string
	Fixed, Per int
	Param      int
}

func (*KeyScriptMaker) AFact() {}

func (f *KeyScriptMaker) String() string {
	count := strconv.Itoa(f.Fixed)
	if f.Param >= 0 {
		count = fmt.Sprintf("%d+%d*arg%d", f.Fixed, f.Per, f.Param)
	}
	return "keyScriptMaker(" + strconv.Quote(f.Name) + ", " + count + ")"
}

// scriptMaker returns what a function that makes a counted script makes:
// by its body in this package, by its fact in another.
func (g *Engine) scriptMaker(fn *types.Func) (*KeyScriptMaker, bool) {
	fn = fn.Origin()
	if fn.Pkg() != g.pkg {
		var f KeyScriptMaker
		if fn.Pkg() == nil || !g.facts.ImportObjectFact(fn, &f) {
			return nil, false
		}
		return &f, true
	}
	if f, ok := g.makers[fn]; ok {
		return f, f != nil
	}
	if g.makers == nil {
		g.makers = map[*types.Func]*KeyScriptMaker{}
	}
	g.makers[fn] = nil // no recursion through itself
	f := g.makerOfDecl(g.decls[fn])
	g.makers[fn] = f
	return f, f != nil
}

// makerOfDecl reads a function whose body ends in return NewScript(count,
// src), with count a constant or linear in one integer parameter.
func (g *Engine) makerOfDecl(decl *ast.FuncDecl) *KeyScriptMaker {
	if decl == nil || decl.Body == nil || len(decl.Body.List) == 0 || decl.Type.Results == nil || decl.Type.Results.NumFields() != 1 {
		return nil
	}
	ret, ok := decl.Body.List[len(decl.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	_, m := g.Resolve(call)
	if m == nil || m.Kind != ruleset.KindNewScript || m.Script < 0 || m.Script >= len(call.Args) || len(call.Args) != 2 {
		return nil
	}
	count := call.Args[1-m.Script]
	params := map[types.Object]int{}
	i := 0
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			params[g.info.Defs[name]] = i
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	f := &KeyScriptMaker{Param: -1}
	if !g.linearCount(count, params, f) || f.Fixed < 0 || f.Per < 0 {
		return nil
	}
	ref, ok := g.scriptOf(g.writerEval(decl), call.Args[m.Script], decl.Name.Name)
	if !ok || !looksLikeScript(ref.Src) {
		return nil
	}
	f.Name, f.Src = ref.Name, ref.Src
	return f
}

// linearCount reads x as Fixed + Per*param into f: integer constants,
// one parameter, and their sums, differences and products by constants.
func (g *Engine) linearCount(x ast.Expr, params map[types.Object]int, f *KeyScriptMaker) bool {
	x = ast.Unparen(x)
	if tv := g.info.Types[x]; tv.Value != nil {
		n, ok := constInt(tv.Value)
		f.Fixed += int(n)
		return ok
	}
	switch x := x.(type) {
	case *ast.Ident:
		p, ok := params[g.info.Uses[x]]
		if !ok || f.Param >= 0 && f.Param != p {
			return false
		}
		f.Param = p
		f.Per++
		return true
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD:
			return g.linearCount(x.X, params, f) && g.linearCount(x.Y, params, f)
		case token.SUB:
			tv := g.info.Types[x.Y]
			n, ok := constInt(tv.Value)
			if tv.Value == nil || !ok {
				return false
			}
			f.Fixed -= int(n)
			return g.linearCount(x.X, params, f)
		case token.MUL:
			c, v := x.X, x.Y
			if g.info.Types[c].Value == nil {
				c, v = v, c
			}
			tv := g.info.Types[c]
			n, ok := constInt(tv.Value)
			if tv.Value == nil || !ok {
				return false
			}
			var inner KeyScriptMaker
			inner.Param = f.Param
			if !g.linearCount(v, params, &inner) {
				return false
			}
			f.Fixed += inner.Fixed * int(n)
			f.Per += inner.Per * int(n)
			f.Param = inner.Param
			return true
		}
	}
	return false
}

// makerKeyCount returns the key count of the script a call of a script
// maker returns, with the caller's argument.
func (g *Engine) makerKeyCount(e *evaluator, call *ast.CallExpr) (keyCount, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || call.Ellipsis.IsValid() {
		return keyCount{}, false
	}
	f, ok := g.scriptMaker(fn)
	if !ok {
		return keyCount{}, false
	}
	if f.Param < 0 {
		return keyCount{fixed: f.Fixed}, true
	}
	if f.Param >= len(call.Args) {
		return keyCount{}, false
	}
	if e == nil {
		e = g.pkgEval
	}
	k, ok := e.keyCount(call.Args[f.Param], 0)
	if !ok {
		return keyCount{}, false
	}
	return keyCount{fixed: f.Fixed + f.Per*k.fixed, per: f.Per * k.per}, true
}

// makerScript returns the script a call of a script maker returns.
func (g *Engine) makerScript(call *ast.CallExpr, name string) (ScriptRef, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil {
		return ScriptRef{}, false
	}
	f, ok := g.scriptMaker(fn)
	if !ok {
		return ScriptRef{}, false
	}
	return ScriptRef{Name: f.Name, Src: f.Src}, true
}

// exportMakers exports the script makers among the package's exported
// functions.
func (g *Engine) exportMakers() {
	scope := g.pkg.Scope()
	for _, name := range scope.Names() {
		if fn, ok := scope.Lookup(name).(*types.Func); ok && fn.Exported() {
			if f, ok := g.scriptMaker(fn); ok {
				g.facts.ExportObjectFact(fn, f)
			}
		}
	}
}
