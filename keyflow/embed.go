package keyflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Projects keep their Lua in files next to the Go code and embed them:
//
//	//go:embed lua/release.lua
//	var releaseSrc string          // or []byte
//
//	//go:embed lua/*.lua
//	var scriptsFS embed.FS         // read with scriptsFS.ReadFile(name) or fs.ReadFile
//
// The compiler reads those files when it builds the package, so they are as
// much the program's source as its Go files. An analysis pass cannot read
// them through Pass.ReadFile, which serves the package's Go and other
// files only; the engine reads them itself, relative to the directory of
// the Go file that embeds them, as the compiler does. A file that cannot
// be read leaves the script unknown, as a source built at run time would.

// embedded returns the patterns of the //go:embed directive of a
// package-level variable of the package, and the directory of its file.
func (g *Engine) embedded(v *types.Var) (patterns []string, dir string, ok bool) {
	if v.Pkg() != g.pkg || v.Parent() != g.pkg.Scope() {
		return nil, "", false
	}
	if g.embeds == nil {
		g.embeds = map[*types.Var]embedDirective{}
		for _, f := range g.files {
			dir := filepath.Dir(g.fset.File(f.FileStart).Name())
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					doc := vs.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					pats := embedPatterns(doc)
					if len(pats) == 0 || len(vs.Names) != 1 {
						continue
					}
					if ev, ok := g.info.Defs[vs.Names[0]].(*types.Var); ok {
						g.embeds[ev] = embedDirective{patterns: pats, dir: dir}
					}
				}
			}
		}
	}
	d, ok := g.embeds[v]
	return d.patterns, d.dir, ok
}

type embedDirective struct {
	patterns []string
	dir      string
}

// embedPatterns returns the patterns of the //go:embed lines of a comment.
func embedPatterns(doc *ast.CommentGroup) []string {
	if doc == nil {
		return nil
	}
	var out []string
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//go:embed ")
		if !ok {
			continue
		}
		for _, p := range strings.Fields(rest) {
			out = append(out, strings.Trim(p, "\"`"))
		}
	}
	return out
}

// embeddedFile returns the content of a variable's single embedded file,
// for a string or []byte variable.
func (g *Engine) embeddedFile(v *types.Var) (string, bool) {
	pats, dir, ok := g.embedded(v)
	if !ok || len(pats) != 1 || strings.ContainsAny(pats[0], "*?[") {
		return "", false
	}
	return readEmbedded(dir, pats[0])
}

// embeddedFSFile returns the content of the file name of an embed.FS
// variable, when one of its patterns holds that name.
func (g *Engine) embeddedFSFile(v *types.Var, name string) (string, bool) {
	pats, dir, ok := g.embedded(v)
	if !ok {
		return "", false
	}
	for _, p := range pats {
		p = strings.TrimPrefix(p, "all:")
		if ok, _ := path.Match(p, name); ok || strings.HasPrefix(name, p+"/") {
			return readEmbedded(dir, name)
		}
	}
	return "", false
}

func readEmbedded(dir, name string) (string, bool) {
	if path.IsAbs(name) || strings.Contains(name, "..") {
		return "", false
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// embeddedRead returns the source that a call reads from an embed.FS:
// fsys.ReadFile(name) or fs.ReadFile(fsys, name), name a constant.
func (g *Engine) embeddedRead(e *evaluator, call *ast.CallExpr) (string, bool) {
	if e == nil {
		e = g.pkgEval
	}
	var fsx, namex ast.Expr
	fn, _ := g.info.Uses[calleeIdent(call)].(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return "", false
	}
	if src, ok := g.packrRead(e, fn, call); ok {
		return src, true
	}
	if fn.Name() != "ReadFile" {
		return "", false
	}
	switch fn.Pkg().Path() {
	case "embed":
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 1 {
			return "", false
		}
		fsx, namex = sel.X, call.Args[0]
	case "io/fs":
		if len(call.Args) != 2 {
			return "", false
		}
		fsx, namex = call.Args[0], call.Args[1]
	default:
		return "", false
	}
	name, ok := e.constText(namex)
	if !ok {
		return "", false
	}
	id, ok := ast.Unparen(fsx).(*ast.Ident)
	if sel, isSel := ast.Unparen(fsx).(*ast.SelectorExpr); isSel {
		id, ok = sel.Sel, true // pkg.Scripts, of another package
	}
	if !ok {
		return "", false
	}
	v, ok := g.info.Uses[id].(*types.Var)
	if !ok {
		return "", false
	}
	if src, ok := g.importedFSFile(v, name); ok {
		return src, true
	}
	return g.embeddedFSFile(v, name)
}

// packrRead returns the source that a call reads from a packr box, as
// SevenTV/ServerGo reads its scripts: box := packr.New("lua", "./lua"),
// then box.FindString("token-consumer.lua") (MustString, Find, MustBytes;
// packr.NewBox(dir) of packr v1). The box's directory is relative to the
// file that makes it, and the name a constant.
func (g *Engine) packrRead(e *evaluator, fn *types.Func, call *ast.CallExpr) (string, bool) {
	switch fn.Pkg().Path() {
	case "github.com/gobuffalo/packr", "github.com/gobuffalo/packr/v2":
	default:
		return "", false
	}
	switch fn.Name() {
	case "FindString", "MustString", "Find", "MustBytes":
	default:
		return "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	name, ok := e.constText(call.Args[0])
	if !ok {
		return "", false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return "", false
	}
	var made ast.Expr
	if v, ok := g.info.Uses[id].(*types.Var); ok && g.pkgVars[v] != nil {
		made = g.pkgVars[v]
	} else {
		made = e.reachingRHS(id)
	}
	newBox, ok := ast.Unparen(made).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	maker, _ := g.info.Uses[calleeIdent(newBox)].(*types.Func)
	if maker == nil || maker.Pkg() != fn.Pkg() {
		return "", false
	}
	var dirx ast.Expr
	switch {
	case maker.Name() == "New" && len(newBox.Args) == 2:
		dirx = newBox.Args[1]
	case maker.Name() == "NewBox" && len(newBox.Args) == 1:
		dirx = newBox.Args[0]
	default:
		return "", false
	}
	dir, ok := e.constText(dirx)
	if !ok || filepath.IsAbs(dir) {
		return "", false
	}
	f := g.fset.File(newBox.Pos())
	if f == nil {
		return "", false
	}
	return readEmbedded(filepath.Join(filepath.Dir(f.Name()), filepath.FromSlash(dir)), name)
}

// constArg returns the constant text of x: a constant, or a parameter that
// the call being followed gives a constant (scriptOfCall).
func (e *evaluator) constArg(x ast.Expr) (string, bool) {
	if tv := e.g.info.Types[x]; tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	if e.consts == nil {
		return "", false
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return "", false
	}
	v, ok := e.g.info.Uses[id].(*types.Var)
	if !ok {
		return "", false
	}
	s, ok := e.consts[v]
	return s, ok
}

// scriptOfCall returns the script that a call of a function of the package
// makes from its constant arguments, as AsynqLab/asynq's
// loadLuaScript(name) reads name from an embed.FS and returns
// redis.NewScript of it: the function's one return value, followed with
// its parameters bound to the call's constants.
func (g *Engine) scriptOfCall(e *evaluator, call *ast.CallExpr, name string) (ScriptRef, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || call.Ellipsis.IsValid() {
		return ScriptRef{}, false
	}
	if e == nil {
		e = g.pkgEval
	}
	if fn.Pkg() != g.pkg {
		// a function of another package, by its fact
		var f KeyScriptFunc
		if len(call.Args) != 1 || !g.facts.ImportObjectFact(fn.Origin(), &f) {
			return ScriptRef{}, false
		}
		arg, ok := e.constText(call.Args[0])
		if !ok {
			return ScriptRef{}, false
		}
		for _, s := range f.Scripts {
			if s.Arg == arg {
				return ScriptRef{Name: s.Name, Src: s.Src}, true
			}
		}
		return ScriptRef{}, false
	}
	decl := g.decls[fn.Origin()]
	if decl == nil {
		return ScriptRef{}, false
	}
	consts := map[int]string{}
	for i, a := range call.Args {
		if s, ok := e.constText(a); ok {
			consts[i] = s
		}
	}
	return g.scriptOfDecl(decl, consts, name)
}

// scriptOfDecl returns the script that a function of the package makes
// from its constant arguments (consts, by parameter index): its one
// return value, followed with its parameters bound to them.
func (g *Engine) scriptOfDecl(decl *ast.FuncDecl, consts map[int]string, name string) (ScriptRef, bool) {
	if decl.Body == nil || g.scriptCalls[decl] {
		return ScriptRef{}, false
	}
	ret := g.oneReturn(decl)
	if ret == nil {
		return ScriptRef{}, false
	}
	ce := newEvaluator(g, decl)
	ce.consts = map[*types.Var]string{}
	for v, p := range ce.params {
		i, err := strconv.Atoi(strings.TrimPrefix(p, "$"))
		if err != nil {
			continue
		}
		if s, ok := consts[i]; ok {
			ce.consts[v] = s
		}
	}
	if g.scriptCalls == nil {
		g.scriptCalls = map[*ast.FuncDecl]bool{}
	}
	g.scriptCalls[decl] = true
	defer delete(g.scriptCalls, decl)
	return g.scriptOf(ce, ret, name)
}

// oneReturn returns what a function declaration returns first, when one
// return statement alone returns something other than nil or "" (return
// "", err: the failure).
func (g *Engine) oneReturn(decl *ast.FuncDecl) ast.Expr {
	if decl.Body == nil {
		return nil
	}
	var ret *ast.ReturnStmt
	n := 0
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) >= 1 {
				if t := g.info.TypeOf(x.Results[0]); t != nil && !isNilExpr(x.Results[0]) && !isEmptyString(g.info, x.Results[0]) {
					ret = x
					n++
				}
			}
		}
		return true
	})
	if n != 1 {
		return nil
	}
	return ret.Results[0]
}

func isEmptyString(info *types.Info, x ast.Expr) bool {
	tv := info.Types[x]
	return tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
}

func isNilExpr(x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	return ok && id.Name == "nil"
}

func calleeIdent(call *ast.CallExpr) *ast.Ident {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}
