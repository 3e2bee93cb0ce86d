package keyflow

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Projects keep their scripts in a package of their own and run them from
// others:
//
//	package script
//
//	//go:embed *.lua
//	var luaScripts embed.FS
//
//	var EnqueueCmd *redis.Script
//
//	func init() {
//		src, err := loadLuaScript("enqueue") // luaScripts.ReadFile(fmt.Sprintf("%s.lua", name))
//		...
//		EnqueueCmd = redis.NewScript(src)
//	}
//
// An exported package-level variable that holds a script whose source is
// known, by its initializer, its //go:embed file or its one assignment in
// an init function, reaches the packages that run it as a KeyScript fact.

// KeyScript is the fact that a package-level variable holds a Lua script
// (its source, a []byte of it, a *redis.Script made from it) whose source
// is known.
type KeyScript struct {
	Name string // the Go name that holds the source, for messages
	Src  string
	// Counted is true for a script made with a key count (redigo's
	// NewScript(2, src)): Fixed keys, plus Per for each element of a
	// collection.
	Counted    bool
	Fixed, Per int
}

func (*KeyScript) AFact() {}

func (f *KeyScript) String() string {
	return "keyScript(" + strconv.Quote(f.Name) + ")"
}

// importedScript returns the script that a package-level variable of
// another package holds, from its KeyScript fact.
func (g *Engine) importedScript(v *types.Var) (ScriptRef, bool) {
	if v.Pkg() == nil || v.Pkg() == g.pkg || v.Parent() != v.Pkg().Scope() {
		return ScriptRef{}, false
	}
	var f KeyScript
	if !g.facts.ImportObjectFact(v, &f) {
		return ScriptRef{}, false
	}
	// Its position is in another package's files: none is given.
	return ScriptRef{Name: f.Name, Src: f.Src}, true
}

// KeyScriptFunc is the fact that a function of one string parameter
// returns a script whose source is known for some constants of its
// package, as a getter of an embed.FS does:
//
//	const LuaAddPlayer = "add_player.lua"
//
//	func GetLuaScript(name string) (string, error) {
//		b, err := LuaScripts.ReadFile("scripts/" + name)
//		...
//	}
type KeyScriptFunc struct {
	Scripts []ScriptByArg
}

// A ScriptByArg is the script a function returns for one argument.
type ScriptByArg struct {
	Arg, Name, Src string
}

func (*KeyScriptFunc) AFact() {}

func (f *KeyScriptFunc) String() string { return "keyScriptFunc(" + quoteArgs(f.Scripts) + ")" }

// quoteArgs lists the arguments or names of scripts, quoted.
func quoteArgs(scripts []ScriptByArg) string {
	s := make([]string, len(scripts))
	for i, sc := range scripts {
		s[i] = strconv.Quote(sc.Arg)
	}
	return strings.Join(s, ", ")
}

// exportScripts exports the scripts that the package's exported
// package-level variables hold, and those that its exported functions of
// one string parameter return for the package's string constants.
func (g *Engine) exportScripts() {
	scope := g.pkg.Scope()
	var consts []string
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && c.Val().Kind() == constant.String {
			consts = append(consts, constant.StringVal(c.Val()))
		}
	}
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Var:
			if !obj.Exported() {
				continue
			}
			if ref, ok := g.pkgVarScript(obj, name); ok && looksLikeScript(ref.Src) {
				f := &KeyScript{Name: name, Src: ref.Src}
				if init, ok := g.pkgVars[obj]; ok {
					if k, ok := g.scriptKeyCount(g.pkgEval, init); ok {
						f.Counted, f.Fixed, f.Per = true, k.fixed, k.per
					}
				}
				g.facts.ExportObjectFact(obj, f)
			}
			if f := g.embeddedScripts(obj); f != nil {
				g.facts.ExportObjectFact(obj, f)
			}
		case *types.Func:
			params := obj.Signature().Params()
			decl := g.decls[obj]
			if !obj.Exported() || decl == nil || params.Len() != 1 || !isStringType(params.At(0).Type()) || !g.readsEmbedFS(decl) {
				continue
			}
			f := &KeyScriptFunc{}
			seen := map[string]bool{}
			for _, c := range consts {
				if seen[c] {
					continue
				}
				seen[c] = true
				if ref, ok := g.scriptOfDecl(decl, map[int]string{0: c}, c); ok && looksLikeScript(ref.Src) {
					f.Scripts = append(f.Scripts, ScriptByArg{Arg: c, Name: c, Src: ref.Src})
				}
			}
			if len(f.Scripts) > 0 {
				g.facts.ExportObjectFact(obj, f)
			}
		}
	}
}

// KeyScriptFS is the fact that an embed.FS variable holds Lua scripts:
// its .lua files, by name, for the packages that read them with
// fsys.ReadFile(name) or fs.ReadFile(fsys, name).
type KeyScriptFS struct {
	Files []ScriptByArg
}

func (*KeyScriptFS) AFact() {}

func (f *KeyScriptFS) String() string { return "keyScriptFS(" + quoteArgs(f.Files) + ")" }

// maxFSScripts bounds the Lua an embed.FS fact carries.
const maxFSScripts = 1 << 20

// embeddedScripts returns the fact of an embed.FS variable of the package
// whose patterns hold .lua files, or nil.
func (g *Engine) embeddedScripts(v *types.Var) *KeyScriptFS {
	if n := namedOf(v.Type()); n == nil || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "embed" || n.Obj().Name() != "FS" {
		return nil
	}
	pats, dir, ok := g.embedded(v)
	if !ok {
		return nil
	}
	f := &KeyScriptFS{}
	seen := map[string]bool{}
	size := 0
	for _, p := range pats {
		matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(p, "all:"))))
		for _, m := range matches {
			filepath.WalkDir(m, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lua") {
					return nil
				}
				rel, err := filepath.Rel(dir, path)
				if err != nil || seen[rel] {
					return nil
				}
				seen[rel] = true
				b, err := os.ReadFile(path)
				if err != nil || size+len(b) > maxFSScripts {
					return nil
				}
				size += len(b)
				name := filepath.ToSlash(rel)
				f.Files = append(f.Files, ScriptByArg{Arg: name, Name: name, Src: string(b)})
				return nil
			})
		}
	}
	if len(f.Files) == 0 {
		return nil
	}
	return f
}

// importedFSFile returns the file name of an embed.FS variable of another
// package, from its fact.
func (g *Engine) importedFSFile(v *types.Var, name string) (string, bool) {
	if v.Pkg() == nil || v.Pkg() == g.pkg {
		return "", false
	}
	var f KeyScriptFS
	if !g.facts.ImportObjectFact(v, &f) {
		return "", false
	}
	for _, sc := range f.Files {
		if sc.Arg == name {
			return sc.Src, true
		}
	}
	return "", false
}

// readsEmbedFS reports whether a function refers to an embed.FS variable
// of the package.
func (g *Engine) readsEmbedFS(decl *ast.FuncDecl) bool {
	if decl.Body == nil {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found {
			if v, ok := g.info.Uses[id].(*types.Var); ok {
				if _, _, ok := g.embedded(v); ok {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// looksLikeScript reports whether src reads as a Lua script for Redis,
// rather than any text a variable may hold.
func looksLikeScript(src string) bool {
	for _, s := range []string{"redis.call", "redis.pcall", "KEYS[", "ARGV[", "#!lua"} {
		if strings.Contains(src, s) {
			return true
		}
	}
	return false
}

// initSet is the one assignment of a package-level variable, made in an
// init function.
type initSet struct {
	decl *ast.FuncDecl
	rhs  ast.Expr
}

// setOnce returns the value that a function of the package gives a
// package-level variable without an initializer, when that is the only
// assignment of the variable in the package: in an init function, or in
// a getter that makes it on first use (if lpoprpush == nil { lpoprpush =
// redis.NewScript(2, src) }, redutil's LPOPRPUSH). Until then it holds
// its zero value, which no command can run.
func (g *Engine) setOnce(v *types.Var) (initSet, bool) {
	if g.initSets == nil {
		g.initSets = map[*types.Var]initSet{}
		count := map[*types.Var]int{}
		for _, f := range g.files {
			for _, d := range f.Decls {
				decl, _ := d.(*ast.FuncDecl)
				ast.Inspect(d, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.AssignStmt:
						for i, lhs := range n.Lhs {
							v := g.pkgVarOf(lhs)
							if v == nil {
								continue
							}
							count[v]++
							if decl != nil && n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
								g.initSets[v] = initSet{decl, n.Rhs[i]}
							}
						}
					case *ast.UnaryExpr:
						if v := g.pkgVarOf(n.X); v != nil && n.Op == token.AND {
							count[v] += 2
						}
					case *ast.IncDecStmt:
						if v := g.pkgVarOf(n.X); v != nil {
							count[v] += 2
						}
					}
					return true
				})
			}
		}
		g.initResets = map[*types.Var]initSet{}
		for v, set := range g.initSets {
			_, initial := g.pkgInitial[v]
			switch {
			case count[v] != 1:
				delete(g.initSets, v)
			case initial && set.decl.Recv == nil && set.decl.Name.Name == "init":
				g.initResets[v] = set
				delete(g.initSets, v)
			}
		}
	}
	s, ok := g.initSets[v]
	return s, ok
}

// initReset returns the value that the package's init function gives a
// package-level variable with an initializer, when that is the variable's
// only assignment: genericScript = strings.NewReplacer(...).Replace(
// genericScript) (roshi's scripts). Its uses outside init see it, and the
// initializer is what the assignment reads of the variable itself.
func (g *Engine) initReset(v *types.Var) (initSet, bool) {
	g.setOnce(v)
	s, ok := g.initResets[v]
	return s, ok
}

// pkgVarOf returns the package-level variable of the package that x
// names, or nil.
func (g *Engine) pkgVarOf(x ast.Expr) *types.Var {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := g.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != g.pkg || v.Parent() != g.pkg.Scope() {
		return nil
	}
	return v
}

// constText folds x to constant text: a constant, a parameter that the
// call being followed gives a constant, a concatenation of such, or
// fmt.Sprintf of a constant format with %s and %v verbs alone, as
// asynq's loadLuaScript reads fmt.Sprintf("%s.lua", name).
func (e *evaluator) constText(x ast.Expr) (string, bool) {
	if s, ok := e.constArg(x); ok {
		return s, true
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		l, lok := e.constText(x.X)
		r, rok := e.constText(x.Y)
		return l + r, lok && rok
	case *ast.CallExpr:
		fn, _ := e.g.info.Uses[calleeIdent(x)].(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Sprintf" || len(x.Args) == 0 || x.Ellipsis.IsValid() {
			return "", false
		}
		tv := e.g.info.Types[x.Args[0]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		format := constant.StringVal(tv.Value)
		if strings.Count(format, "%") != strings.Count(format, "%s")+strings.Count(format, "%v") {
			return "", false
		}
		var args []any
		for _, a := range x.Args[1:] {
			s, ok := e.constText(a)
			if !ok {
				return "", false
			}
			args = append(args, s)
		}
		return fmt.Sprintf(format, args...), true
	}
	return "", false
}
