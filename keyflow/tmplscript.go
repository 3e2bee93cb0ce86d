package keyflow

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"text/template/parse"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/luacheck"
)

// Lua written piece by piece into a buffer, some pieces rendered from
// text/template templates:
//
//	var updateEntry = template.Must(template.New("updateEntry").Parse(`
//		{{.Var}}["updated"] = redis.call("HINCRBY", "{{.Name}}", "updated", 0)
//	`))
//	...
//	s := bytes.NewBufferString("local entries = {}\n")
//	for name, adj := range adjs {
//		updateEntry.Execute(s, map[string]any{"Var": ..., "Name": name})
//	}
//	redis.NewScript(0, s.String()).Do(conn)
//
// The script is the buffer's pieces in the order of the function's text,
// each once: its initial text, what WriteString writes, and what each
// Execute of a template of the package renders. A template's actions
// stand for values: inside a Lua string as the action in angle brackets,
// as a key template shows an unknown ("<.Name>"), elsewhere as a Lua name.
// A template with control actions (if, range, with, template), and any
// other use of the buffer, leave the script unknown.

// bufferScript returns the script that b.String() gives, for b a local
// bytes.Buffer or strings.Builder that the function fills with constant
// text and rendered templates.
func (g *Engine) bufferScript(e *evaluator, call *ast.CallExpr, name string) (ScriptRef, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "String" || len(call.Args) != 0 || e == nil || e.decl == nil || e.decl.Body == nil {
		return ScriptRef{}, false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return ScriptRef{}, false
	}
	v := e.localVar(id)
	if v == nil || !isBuilder(deref(v.Type())) {
		return ScriptRef{}, false
	}
	var uses []*ast.Ident
	parents := map[*ast.Ident]ast.Node{}
	var stack []ast.Node
	ast.Inspect(e.decl.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if x, ok := n.(*ast.Ident); ok && x.Pos() < call.Pos() && (g.info.Uses[x] == v || g.info.Defs[x] == v) {
			uses = append(uses, x)
			parents[x] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	slices.SortFunc(uses, func(a, b *ast.Ident) int { return int(a.Pos() - b.Pos()) })
	var b strings.Builder
	for _, u := range uses {
		text, ok := g.bufferPiece(e, u, parents[u], b.String())
		if !ok {
			return ScriptRef{}, false
		}
		b.WriteString(text)
	}
	if b.Len() == 0 {
		return ScriptRef{}, false
	}
	return ScriptRef{Name: id.Name, Src: b.String(), Pos: call.Pos()}, true
}

// bufferPiece returns the text that a use u of a buffer adds to it, its
// parent node given, after the text so far.
func (g *Engine) bufferPiece(e *evaluator, u *ast.Ident, parent ast.Node, sofar string) (string, bool) {
	switch p := parent.(type) {
	case *ast.AssignStmt:
		// s := bytes.NewBufferString(src), s := &bytes.Buffer{}
		if len(p.Lhs) != 1 || len(p.Rhs) != 1 || p.Lhs[0] != u {
			return "", false
		}
		switch rhs := ast.Unparen(p.Rhs[0]).(type) {
		case *ast.UnaryExpr, *ast.CompositeLit:
			return "", true
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(g.info, rhs).(*types.Func)
			if fn == nil || fn.Pkg() == nil {
				return "", false
			}
			switch fn.Pkg().Path() + "." + fn.Name() {
			case "bytes.NewBufferString", "bytes.NewBuffer":
				if len(rhs.Args) != 1 {
					return "", false
				}
				ref, ok := g.scriptOf(e, rhs.Args[0], "")
				return ref.Src, ok
			}
		}
		return "", false
	case *ast.ValueSpec:
		return "", len(p.Values) == 0 // var s bytes.Buffer
	case *ast.SelectorExpr:
		// s.WriteString(src), s.String()
		switch p.Sel.Name {
		case "String", "Len":
			return "", true
		case "WriteString", "Write":
			call := e.callOf(p)
			if call == nil || len(call.Args) != 1 {
				return "", false
			}
			ref, ok := g.scriptOf(e, call.Args[0], "")
			return ref.Src, ok
		}
		return "", false
	case *ast.UnaryExpr:
		// tmpl.Execute(&s, data) of a bytes.Buffer value
		if call, ok := e.parentOf(p).(*ast.CallExpr); ok {
			return g.executed(e, call, p, sofar)
		}
		return "", false
	case *ast.CallExpr:
		return g.executed(e, p, u, sofar)
	}
	return "", false
}

// callOf returns the call whose function is sel, or nil.
func (e *evaluator) callOf(sel *ast.SelectorExpr) *ast.CallExpr {
	call, _ := e.parentOf(sel).(*ast.CallExpr)
	if call == nil || call.Fun != sel {
		return nil
	}
	return call
}

// parentOf returns the node that encloses n directly in the function.
func (e *evaluator) parentOf(n ast.Node) ast.Node {
	path := e.pathTo(n.Pos())
	for i := len(path) - 1; i > 0; i-- {
		if path[i] == n {
			return path[i-1]
		}
	}
	return nil
}

// executed returns the text that tmpl.Execute(w, data) renders into the
// buffer w, a template of the package whose text is known.
func (g *Engine) executed(e *evaluator, call *ast.CallExpr, w ast.Expr, sofar string) (string, bool) {
	fn, _ := typeutil.Callee(g.info, call).(*types.Func)
	if fn == nil || fn.FullName() != "(*text/template.Template).Execute" || len(call.Args) != 2 || call.Args[0] != w {
		return "", false
	}
	src, ok := g.textTemplate(e, receiver(call))
	if !ok {
		return "", false
	}
	return renderLua(src, sofar)
}

// textTemplate returns the text of a text/template that x holds: a
// variable set to template.Must(template.New(name).Parse(src)) of a
// known source.
func (g *Engine) textTemplate(e *evaluator, x ast.Expr) (string, bool) {
	for range 4 {
		switch y := ast.Unparen(x).(type) {
		case *ast.Ident:
			v, ok := g.info.ObjectOf(y).(*types.Var)
			if !ok {
				return "", false
			}
			init, ok := g.pkgVars[v]
			if !ok || v.Pkg() != g.pkg {
				if x = e.setOnce(y); x == nil {
					return "", false
				}
				continue
			}
			x, e = init, g.pkgEval
			continue
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(g.info, y).(*types.Func)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "text/template" {
				return "", false
			}
			switch fn.Name() {
			case "Must":
				if len(y.Args) != 1 {
					return "", false
				}
				x = y.Args[0]
				continue
			case "Parse":
				if len(y.Args) != 1 {
					return "", false
				}
				ref, ok := g.scriptOf(e, y.Args[0], "")
				return ref.Src, ok
			}
		}
		return "", false
	}
	return "", false
}

// renderLua renders a template's text as Lua, after the Lua text sofar:
// each action a placeholder, inside a string the action in angle
// brackets, elsewhere a Lua name. false for a template with control
// actions, or one that does not parse.
func renderLua(src, sofar string) (string, bool) {
	t := parse.New("lua")
	t.Mode = parse.SkipFuncCheck
	if _, err := t.Parse(src, "", "", map[string]*parse.Tree{}); err != nil || t.Root == nil {
		return "", false
	}
	var b strings.Builder
	for _, n := range t.Root.Nodes {
		switch n := n.(type) {
		case *parse.TextNode:
			b.Write(n.Text)
		case *parse.CommentNode:
		case *parse.ActionNode:
			text := n.Pipe.String()
			if luacheck.InString(sofar + b.String()) {
				b.WriteString(holeText(text))
				continue
			}
			b.WriteString("tmpl_" + strings.Map(func(r rune) rune {
				if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
					return r
				}
				return -1
			}, text))
		default:
			return "", false
		}
	}
	return b.String(), true
}
