package luacheck

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// A token is a Lua token with its 1-based line and byte column.
type token struct {
	typ       int
	str       string
	line, col int
}

// tokenize splits the script body into tokens with gopher-lua's own scanner.
// bad is the token the scanner failed on, if it did.
func tokenize(body, name string) (toks []token, bad *token) {
	sc := parse.NewScanner(strings.NewReader(body), name)
	lx := &parse.Lexer{}
	for {
		tok, err := sc.Scan(lx)
		if err != nil {
			return toks, &token{typ: tok.Type, str: tok.Str, line: tok.Pos.Line, col: tok.Pos.Column}
		}
		if tok.Type < 0 {
			return toks, nil
		}
		lx.PrevTokenType = tok.Type
		toks = append(toks, token{typ: tok.Type, str: tok.Str, line: tok.Pos.Line, col: tok.Pos.Column})
	}
}

// SyntaxError is a script that does not parse as Lua.
type SyntaxError struct {
	Name      string // the script's name, as given to Parse
	Line, Col int    // 1-based; Col counts bytes
	Msg       string // "unexpected \"then\"", "unterminated string", ...
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("script %s line %d column %d: %s", e.Name, e.Line, e.Col, e.Msg)
}

// syntaxError turns gopher-lua's error into a SyntaxError at the start of the
// offending token. gopher-lua reports the parser's position, which is inside
// the token it stopped at (or -1 at the end of the script).
func syntaxError(name, body string, err error, toks []token, bad *token) *SyntaxError {
	se := &SyntaxError{Name: name, Line: 1, Col: 1}
	var pe *parse.Error
	if !errors.As(err, &pe) {
		se.Msg = strings.TrimSpace(err.Error())
		return se
	}
	all := toks
	if bad != nil {
		all = append(append([]token(nil), toks...), *bad)
	}
	lexical := pe.Message != "syntax error" && pe.Message != "parse error"
	if pe.Pos.Line == parse.EOF && !lexical {
		se.Line, se.Col = endOfScript(body, toks)
		se.Msg = "unexpected end of script"
		return se
	}
	// The offending token is the last one that starts at or before the
	// reported position.
	var off *token
	for i := range all {
		t := &all[i]
		if pe.Pos.Line != parse.EOF && (t.line > pe.Pos.Line || t.line == pe.Pos.Line && t.col > pe.Pos.Column) {
			break
		}
		off = t
	}
	if lexical && bad != nil {
		off = bad
	}
	if off != nil {
		se.Line, se.Col = off.line, off.col
	} else if pe.Pos.Line > 0 {
		se.Line, se.Col = pe.Pos.Line, max(pe.Pos.Column, 1)
	}
	if lexical {
		se.Msg = lowerFirst(pe.Message)
		if pe.Message == "Invalid token" && pe.Token != "" {
			se.Msg += " " + strconv.Quote(pe.Token)
		}
		return se
	}
	se.Msg = "unexpected " + describeToken(off)
	return se
}

// endOfScript is the position just after the script's last token.
func endOfScript(body string, toks []token) (line, col int) {
	if len(toks) == 0 {
		return 1, 1
	}
	last := toks[len(toks)-1]
	if last.typ != parse.TString {
		n := len(last.str)
		if last.typ == '.' {
			n = 1 // gopher-lua leaves the text of a "." token empty
		}
		return last.line, last.col + n
	}
	// A string's text is not its source: end at the end of its line.
	lines := luaLines(body)
	if last.line-1 < len(lines) {
		return last.line, len(strings.TrimRight(lines[last.line-1], " \t")) + 1
	}
	return last.line, last.col + 1
}

// luaLines splits a script into lines as Lua counts them: "\n", "\r",
// "\r\n" and "\n\r" each end a line.
func luaLines(src string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\n' && c != '\r' {
			continue
		}
		lines = append(lines, src[start:i])
		if i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r') && src[i+1] != c {
			i++
		}
		start = i + 1
	}
	return append(lines, src[start:])
}

func describeToken(t *token) string {
	if t == nil {
		return "end of script"
	}
	switch t.typ {
	case parse.TString:
		return "string " + strconv.Quote(t.str)
	case parse.TNumber:
		return "number " + strconv.Quote(t.str)
	case '.':
		return `"."`
	}
	return strconv.Quote(t.str)
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// identColumns gives each identifier expression of the chunk its column: the
// k-th use of a name on a line is the k-th token of that name on the line
// that is not a field name, a label or a name being declared.
func identColumns(chunk []ast.Stmt, toks []token) map[*ast.IdentExpr]int {
	type lineName struct {
		line int
		name string
	}
	cands := map[lineName][]int{}
	lineStart := map[int]int{}
	for i, t := range toks {
		if _, ok := lineStart[t.line]; !ok {
			lineStart[t.line] = t.col
		}
		if t.typ != parse.TIdent {
			continue
		}
		if i > 0 {
			switch toks[i-1].typ {
			case '.', ':', parse.T2Colon, parse.TGoto, parse.TLocal, parse.TFunction, parse.TFor:
				continue
			}
		}
		k := lineName{t.line, t.str}
		cands[k] = append(cands[k], t.col)
	}
	cols := map[*ast.IdentExpr]int{}
	seen := map[lineName]int{}
	walkIdents(chunk, func(id *ast.IdentExpr) {
		k := lineName{id.Line(), id.Value}
		n := seen[k]
		seen[k] = n + 1
		if c := cands[k]; n < len(c) {
			cols[id] = c[n]
		} else if c, ok := lineStart[id.Line()]; ok {
			cols[id] = c
		} else {
			cols[id] = 1
		}
	})
	return cols
}

// walkIdents calls f for every identifier expression, in source order.
func walkIdents(stmts []ast.Stmt, f func(*ast.IdentExpr)) {
	var expr func(ast.Expr)
	var block func([]ast.Stmt)
	exprs := func(es []ast.Expr) {
		for _, e := range es {
			expr(e)
		}
	}
	expr = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.IdentExpr:
			f(e)
		case *ast.AttrGetExpr:
			expr(e.Object)
			expr(e.Key)
		case *ast.TableExpr:
			for _, fl := range e.Fields {
				if fl.Key != nil {
					expr(fl.Key)
				}
				expr(fl.Value)
			}
		case *ast.FuncCallExpr:
			if e.Receiver != nil {
				expr(e.Receiver)
			} else {
				expr(e.Func)
			}
			exprs(e.Args)
		case *ast.LogicalOpExpr:
			expr(e.Lhs)
			expr(e.Rhs)
		case *ast.RelationalOpExpr:
			expr(e.Lhs)
			expr(e.Rhs)
		case *ast.StringConcatOpExpr:
			expr(e.Lhs)
			expr(e.Rhs)
		case *ast.ArithmeticOpExpr:
			expr(e.Lhs)
			expr(e.Rhs)
		case *ast.UnaryMinusOpExpr:
			expr(e.Expr)
		case *ast.UnaryNotOpExpr:
			expr(e.Expr)
		case *ast.UnaryLenOpExpr:
			expr(e.Expr)
		case *ast.FunctionExpr:
			block(e.Stmts)
		}
	}
	block = func(stmts []ast.Stmt) {
		for _, s := range stmts {
			switch s := s.(type) {
			case *ast.AssignStmt:
				exprs(s.Lhs)
				exprs(s.Rhs)
			case *ast.LocalAssignStmt:
				exprs(s.Exprs)
			case *ast.FuncCallStmt:
				expr(s.Expr)
			case *ast.DoBlockStmt:
				block(s.Stmts)
			case *ast.WhileStmt:
				expr(s.Condition)
				block(s.Stmts)
			case *ast.RepeatStmt:
				block(s.Stmts)
				expr(s.Condition)
			case *ast.IfStmt:
				expr(s.Condition)
				block(s.Then)
				block(s.Else)
			case *ast.NumberForStmt:
				expr(s.Init)
				expr(s.Limit)
				if s.Step != nil {
					expr(s.Step)
				}
				block(s.Stmts)
			case *ast.GenericForStmt:
				exprs(s.Exprs)
				block(s.Stmts)
			case *ast.FuncDefStmt:
				if s.Name.Func != nil {
					expr(s.Name.Func)
				} else {
					expr(s.Name.Receiver)
				}
				expr(s.Func)
			case *ast.ReturnStmt:
				exprs(s.Exprs)
			}
		}
	}
	block(stmts)
}

// leftIdent returns the identifier an expression starts with, if any.
func leftIdent(e ast.Expr) *ast.IdentExpr {
	for {
		switch x := e.(type) {
		case *ast.IdentExpr:
			return x
		case *ast.AttrGetExpr:
			e = x.Object
		case *ast.FuncCallExpr:
			if x.Receiver != nil {
				e = x.Receiver
			} else {
				e = x.Func
			}
		default:
			return nil
		}
	}
}

// render shows an expression for messages, in Lua syntax with strings
// quoted the Go way, shortened where it is long.
func render(e ast.Expr) string { return renderDepth(e, 0) }

const maxRenderArgs = 4

func renderDepth(e ast.Expr, depth int) string {
	switch e := e.(type) {
	case *ast.StringExpr:
		s := e.Value
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return strconv.Quote(s)
	case *ast.NumberExpr:
		return e.Value
	case *ast.NilExpr:
		return "nil"
	case *ast.TrueExpr:
		return "true"
	case *ast.FalseExpr:
		return "false"
	case *ast.Comma3Expr:
		return "..."
	case *ast.IdentExpr:
		return e.Value
	case *ast.AttrGetExpr:
		obj := renderDepth(e.Object, depth)
		if k, ok := e.Key.(*ast.StringExpr); ok && isLuaName(k.Value) {
			return obj + "." + k.Value
		}
		return obj + "[" + renderDepth(e.Key, depth) + "]"
	case *ast.FuncCallExpr:
		var callee string
		if e.Receiver != nil {
			callee = renderDepth(e.Receiver, depth) + ":" + e.Method
		} else {
			callee = renderDepth(e.Func, depth)
		}
		if len(e.Args) == 0 {
			return callee + "()"
		}
		if depth >= 2 {
			return callee + "(...)"
		}
		var args []string
		for i, a := range e.Args {
			if i == maxRenderArgs {
				args = append(args, "...")
				break
			}
			args = append(args, renderDepth(a, depth+1))
		}
		text := callee + "(" + strings.Join(args, ", ") + ")"
		if depth >= 1 && len(text) > 24 {
			return callee + "(...)"
		}
		return text
	case *ast.TableExpr:
		if len(e.Fields) == 0 {
			return "{}"
		}
		return "{...}"
	case *ast.LogicalOpExpr:
		return renderDepth(e.Lhs, depth) + " " + e.Operator + " " + renderDepth(e.Rhs, depth)
	case *ast.RelationalOpExpr:
		return renderDepth(e.Lhs, depth) + " " + e.Operator + " " + renderDepth(e.Rhs, depth)
	case *ast.StringConcatOpExpr:
		return renderDepth(e.Lhs, depth) + " .. " + renderDepth(e.Rhs, depth)
	case *ast.ArithmeticOpExpr:
		return renderDepth(e.Lhs, depth) + " " + e.Operator + " " + renderDepth(e.Rhs, depth)
	case *ast.UnaryMinusOpExpr:
		return "-" + renderDepth(e.Expr, depth)
	case *ast.UnaryNotOpExpr:
		return "not " + renderDepth(e.Expr, depth)
	case *ast.UnaryLenOpExpr:
		return "#" + renderDepth(e.Expr, depth)
	case *ast.FunctionExpr:
		return "function"
	}
	return "?"
}

func isLuaName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
