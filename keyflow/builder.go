package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/slotlint/slotlint/keyspace"
)

// Keys written piece by piece into a local bytes.Buffer or strings.Builder,
// or into a buffer taken from valyala/bytebufferpool (key :=
// bytebufferpool.Get(); key.SetString(prefix), as fasthttp/session does),
// and read back with String():
//
//	var buf bytes.Buffer
//	buf.WriteString(prefix)
//	buf.WriteString("unique:")
//	buf.WriteString(jobName)
//	buf.WriteRune(':')
//	if args != nil {
//		json.NewEncoder(&buf).Encode(args)
//	}
//	return buf.String()
//
// The key is the text of the writes before String(), in the order of the
// function's text. A write made only on some paths or in a loop (inside an
// if, a loop, a switch or a function literal that the builder's
// declaration is not in), and any other use of the builder (&buf handed
// to an encoder), is a hole: an unknown part there. A key whose hashtag
// holds a value the function computes (computedTag) stays unknown.

// builderString returns the keys of b.String() of a local builder.
func (e *evaluator) builderString(call *ast.CallExpr) ([]Value, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || e.decl == nil || e.decl.Body == nil {
		return nil, false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v := e.localVar(id)
	if v == nil || !isBuilder(v.Type()) && !e.pooledBuffer(v) || e.busy[v] {
		return nil, false
	}
	e.busy[v] = true
	defer delete(e.busy, v)
	declBlock := innermostBlock(e.pathTo(v.Pos()))
	if declBlock == nil {
		return nil, false
	}
	// The uses of v before the call, in order: each a method call on it,
	// or another use.
	type use struct {
		id   *ast.Ident
		call *ast.CallExpr // v.M(...), or nil
	}
	var uses []use
	methodOf := map[*ast.Ident]*ast.CallExpr{}
	ast.Inspect(e.decl.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
				if x, ok := ast.Unparen(s.X).(*ast.Ident); ok && e.g.info.Uses[x] == v {
					methodOf[x] = c
				}
			}
		}
		if x, ok := n.(*ast.Ident); ok && e.g.info.Uses[x] == v && x.Pos() < call.Pos() {
			uses = append(uses, use{id: x})
		}
		return true
	})
	slices.SortFunc(uses, func(a, b use) int { return int(a.id.Pos() - b.id.Pos()) })
	out := []Value{{keyspace.Lit(""), call.Pos()}}
	for _, u := range uses {
		c := methodOf[u.id]
		var part []Value
		switch {
		case c == nil:
			part = []Value{e.opaque(u.id)}
		default:
			name := ast.Unparen(c.Fun).(*ast.SelectorExpr).Sel.Name
			switch name {
			case "String", "Len", "Cap", "Grow":
				continue
			case "Reset":
				if !e.unconditional(c.Pos(), declBlock) {
					return nil, false
				}
				out = []Value{{keyspace.Lit(""), call.Pos()}}
				continue
			case "SetString", "Set":
				// A pooled buffer's SetString is a Reset and a write.
				if len(c.Args) != 1 || !e.unconditional(c.Pos(), declBlock) {
					return nil, false
				}
				out = []Value{{keyspace.Lit(""), call.Pos()}}
				part = e.written(c.Args[0], name)
			case "WriteString", "Write", "WriteByte", "WriteRune":
				if len(c.Args) != 1 {
					return nil, false
				}
				if !e.unconditional(c.Pos(), declBlock) {
					part = []Value{e.opaque(c.Args[0])}
					break
				}
				part = e.written(c.Args[0], name)
			default:
				return nil, false
			}
		}
		out = concatAlts(out, part, call.Pos())
		if len(out) > maxAlts {
			return nil, false
		}
	}
	for _, a := range out {
		if computedTag(a.Key) {
			return nil, false
		}
	}
	return out, true
}

// computedTag reports whether a key's hashtag holds a value that the
// function computes itself (a local, a call's result): each call of the
// function computes it again, and two calls with the same arguments,
// which give one hashtag, would be taken for two. Such a builder's key
// is left unknown, as it was before builders were followed.
func computedTag(k keyspace.Key) bool {
	state := 0 // 0 before the first '{', 1 inside the hashtag, 2 after
	for _, p := range k.Parts {
		if p.Unknown {
			if state == 1 && (p.ID == "" || strings.Contains(p.ID, "@")) {
				return true
			}
			continue
		}
		for _, c := range p.Lit {
			switch {
			case state == 0 && c == '{':
				state = 1
			case state == 1 && c == '}':
				state = 2
			}
		}
	}
	return false
}

// written returns the text that b.WriteString(x), Write(x), WriteByte(x)
// or WriteRune(x) adds.
func (e *evaluator) written(x ast.Expr, method string) []Value {
	if method == "WriteByte" || method == "WriteRune" {
		if tv := e.g.info.Types[x]; tv.Value != nil {
			if n, ok := constInt(tv.Value); ok {
				if method == "WriteByte" {
					return []Value{{keyspace.Lit(string([]byte{byte(n)})), x.Pos()}}
				}
				return []Value{{keyspace.Lit(string(rune(n))), x.Pos()}}
			}
		}
		return []Value{e.opaque(x)}
	}
	return e.keys(x)
}

// unconditional reports whether a statement at pos runs once each time
// the block that declares the builder runs: nothing between that block
// and pos branches or loops.
func (e *evaluator) unconditional(pos token.Pos, declBlock *ast.BlockStmt) bool {
	path := e.pathTo(pos)
	i := slices.IndexFunc(path, func(n ast.Node) bool { return n == declBlock })
	if i < 0 {
		return false
	}
	for _, n := range path[i+1:] {
		switch n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
			*ast.SelectStmt, *ast.FuncLit, *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return false
		}
	}
	return true
}

// innermostBlock returns the last block of a path.
func innermostBlock(path []ast.Node) *ast.BlockStmt {
	for i := len(path) - 1; i >= 0; i-- {
		if b, ok := path[i].(*ast.BlockStmt); ok {
			return b
		}
	}
	return nil
}

// isBuilder reports whether t is bytes.Buffer or strings.Builder (not a
// pointer to one: a pointer may be shared).
func isBuilder(t types.Type) bool {
	return isNamed(t, "bytes", "Buffer") || isNamed(t, "strings", "Builder")
}

// isNamed reports whether t is the named type pkg.name.
func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// bytebufferpool is the package of fasthttp's pooled byte buffers.
const bytebufferpool = "github.com/valyala/bytebufferpool"

// pooledBuffer reports whether v is a *bytebufferpool.ByteBuffer set
// once, to bytebufferpool.Get() or a Pool's Get(): an empty buffer that
// only the function holds until it gives it back with Put.
func (e *evaluator) pooledBuffer(v *types.Var) bool {
	p, ok := types.Unalias(v.Type()).(*types.Pointer)
	if !ok || !isNamed(p.Elem(), bytebufferpool, "ByteBuffer") {
		return false
	}
	defs := e.defs[v]
	if len(defs) != 1 || defs[0].rhs == nil {
		return false
	}
	call, ok := ast.Unparen(defs[0].rhs).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	fn, ok := typeutil.Callee(e.g.info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == bytebufferpool && fn.Name() == "Get"
}
