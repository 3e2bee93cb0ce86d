package luacheck

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// A Library is a Redis 7 function library, as FUNCTION LOAD takes it:
//
//	#!lua name=mylib
//	redis.register_function('enqueue', function(keys, args) ... end)
//
// ParseLibrary finds the functions it registers, with either form of
// redis.register_function, and analyses each callback as a script whose
// first parameter is KEYS and whose second is ARGV. Like a Script, a Library
// does not change once parsed.
type Library struct {
	Label  string // how messages call the library: the Go name that holds it
	Name   string // the library's name=, "" when it has none
	Source string // the library as given to ParseLibrary

	// Syntax is the library's syntax error, nil when it parses.
	Syntax *SyntaxError

	problems []Finding
	funcs    map[string]*Script
	names    []string
}

// A function is what a Script made from a library's function knows of it.
type function struct {
	library  *Library
	keysName string // the callback's first parameter
	line     int    // where the function is registered
	col      int
	argsName string // the callback's second parameter
}

// ParseLibrary parses a function library and analyses the functions it
// registers. label is how messages call the library, such as the Go
// constant that holds it.
//
// It returns an error when Redis 7 would refuse to load the library: a
// syntax error (a *SyntaxError), a missing or malformed "#!lua name=" line,
// a function registered twice or under a name Redis rejects. The Library is
// returned all the same; Problems lists every such problem, and the
// functions that could be analysed are there to Check.
func ParseLibrary(label, src string) (*Library, error) {
	l := &Library{Label: label, Source: src, funcs: map[string]*Script{}}
	body := l.metadata(src)
	toks, bad := tokenize(body, label)
	chunk, err := parse.Parse(strings.NewReader(body), label)
	if err != nil {
		l.Syntax = syntaxError(label, body, err, toks, bad)
		l.problem(CategorySyntax, l.Syntax.Line, l.Syntax.Col, "syntax error at column %d: %s", l.Syntax.Col, l.Syntax.Msg)
		return l, l.Syntax
	}
	identCol := identColumns(chunk, toks)
	regs, dynamic := walkLibrary(chunk, identCol)
	seen := map[string]bool{}
	for _, r := range regs {
		if !validName(r.name) {
			l.problem(CategoryFlags, r.line, r.col, "the function name %q has characters Redis 7 refuses (\"Function names can only contain letters, numbers, or underscores(_) and must be at least one character long\"); rename it", r.name)
			continue
		}
		if seen[r.name] {
			l.problem(CategoryFlags, r.line, r.col, "the function %s is registered twice, so Redis 7 refuses the library (\"Function already exists in the library\"); register it once", r.name)
			continue
		}
		seen[r.name] = true
		if r.fn == nil {
			continue
		}
		l.names = append(l.names, r.name)
		l.funcs[r.name] = l.function(chunk, identCol, r)
	}
	if len(regs) == 0 && !dynamic {
		l.problem(CategoryFlags, 0, 0, "the library registers no function, so Redis 7 refuses it (\"No functions registered\"); register its functions with redis.register_function")
	}
	sort.Strings(l.names)
	sort.SliceStable(l.problems, func(i, j int) bool {
		a, b := l.problems[i], l.problems[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	if len(l.problems) > 0 {
		return l, errors.New(l.problems[0].Message)
	}
	return l, nil
}

// Function returns the function the library registers under name, to Check
// like a script. ok is false when the library registers no such function,
// or registers it with a callback the analysis cannot follow.
func (l *Library) Function(name string) (*Script, bool) {
	s, ok := l.funcs[name]
	return s, ok
}

// Functions returns the names of the functions Function knows, sorted.
func (l *Library) Functions() []string { return append([]string(nil), l.names...) }

// Problems returns what makes Redis 7 refuse to load the library, sorted by
// position: its syntax error (category lua-syntax), and a missing or
// malformed "#!lua name=" line or a bad registration (category
// script-flags). Messages read "library LABEL line L: ...".
func (l *Library) Problems() []Finding { return append([]Finding(nil), l.problems...) }

func (l *Library) problem(category string, line, col int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if line > 0 {
		msg = fmt.Sprintf("library %s line %d: %s", l.Label, line, msg)
	} else {
		msg = fmt.Sprintf("library %s: %s", l.Label, msg)
		col = 0
	}
	l.problems = append(l.problems, Finding{Category: category, Line: line, Col: col, Message: msg})
}

// metadata reads the "#!lua name=..." line as Redis 7 does
// (functionExtractLibMetaData) and returns the body that Lua parses, the
// line break kept so that line numbers stay the library's.
func (l *Library) metadata(src string) string {
	if !strings.HasPrefix(src, "#!") {
		l.problem(CategoryFlags, 1, 1, "the library has no \"#!lua name=\" line, so Redis 7 refuses it (\"Missing library metadata\"); start it with #!lua name=<library>")
		return src
	}
	end := strings.IndexByte(src, '\n')
	if end < 0 {
		l.problem(CategoryFlags, 1, 1, "the \"#!lua name=\" line has no line break after it, so Redis 7 refuses the library (\"Invalid library metadata\")")
		return ""
	}
	line, body := src[:end], src[end:]
	type field struct {
		text string
		col  int
	}
	var fields []field
	for i := 0; i < len(line); {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if j > i {
			fields = append(fields, field{line[i:j], i + 1})
		}
		i = j
	}
	if engine := strings.TrimPrefix(fields[0].text, "#!"); !strings.EqualFold(engine, "lua") {
		l.problem(CategoryFlags, 1, 1, "the library names the engine %q, so Redis 7 refuses it (\"Engine '%s' not found\"); start it with #!lua", engine, engine)
	}
	named := false
	for _, f := range fields[1:] {
		if len(f.text) < 5 || !strings.EqualFold(f.text[:5], "name=") {
			l.problem(CategoryFlags, 1, f.col, "%q is not name=, so Redis 7 refuses the library (\"Invalid metadata value given: %s\"); the line takes only name=<library>", f.text, f.text)
			continue
		}
		if named {
			l.problem(CategoryFlags, 1, f.col, "the library is named twice, so Redis 7 refuses it (\"Invalid metadata value, name argument was given multiple times\"); keep one name=")
			continue
		}
		named = true
		l.Name = f.text[5:]
		if !validName(l.Name) {
			l.problem(CategoryFlags, 1, f.col, "the library name %q has characters Redis 7 refuses (\"Library names can only contain letters, numbers, or underscores(_) and must be at least one character long\"); rename it", l.Name)
		}
	}
	if !named {
		l.problem(CategoryFlags, 1, 1, "the \"#!lua\" line has no name=, so Redis 7 refuses the library (\"Library name was not given\"); write #!lua name=<library>")
	}
	return body
}

// validName reports whether Redis 7 accepts a library or function name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// function analyses one registered function's callback and makes it a
// Script whose flags are those of the registration.
func (l *Library) function(chunk []ast.Stmt, identCol map[*ast.IdentExpr]int, r *registration) *Script {
	sh := &Shebang{Engine: "lua", Flags: r.flags, Line: r.line}
	for range r.flags {
		sh.flagCols = append(sh.flagCols, r.col)
	}
	fn := &function{library: l, keysName: "keys", argsName: "args", line: r.line, col: r.col}
	if names := r.fn.expr.ParList.Names; len(names) > 0 {
		fn.keysName = names[0]
		if len(names) > 1 {
			fn.argsName = names[1]
		}
	}
	s := &Script{Name: r.name, Source: l.Source, Shebang: sh, shebangProblems: r.problems, fn: fn}
	a := newAnalyzer(identCol)
	a.lib = &libWalk{regs: map[*ast.FuncCallExpr]*registration{}}
	st := newState()
	a.block(chunk, nil, st, &frame{})
	// What the chunk does when it loads is not part of the function.
	a.siteList, a.readList = nil, nil
	a.sites = map[ast.Expr]*site{}
	a.keyReads = map[*ast.AttrGetExpr]*keyRead{}
	a.keysWhole, a.keysLen, a.numReads = false, false, nil
	if t := a.lib.find(r.name); t != nil && t.fn != nil {
		a.callFunc(t.fn, t.node, vset2{one(keysTableValue), one(argvTableValue)}, nil, st.copy(), &frame{})
	}
	s.collect(a)
	return s
}

// A libWalk is what the analysis of a library records of its
// redis.register_function calls.
type libWalk struct {
	regs    map[*ast.FuncCallExpr]*registration
	order   []*registration
	dynamic bool // a function registered under a name the analysis cannot tell
}

func (w *libWalk) find(name string) *registration {
	for _, r := range w.order {
		if r.name == name {
			return r
		}
	}
	return nil
}

// A registration is one redis.register_function call.
type registration struct {
	node      *ast.FuncCallExpr
	name      string
	line, col int
	fn        *closure
	flags     []string
	problems  []problem
}

// walkLibrary walks a library's main chunk and returns the functions it
// registers, in the order of the source, and whether it registers some
// under names it computes.
func walkLibrary(chunk []ast.Stmt, identCol map[*ast.IdentExpr]int) ([]*registration, bool) {
	a := newAnalyzer(identCol)
	a.lib = &libWalk{regs: map[*ast.FuncCallExpr]*registration{}}
	a.block(chunk, nil, newState(), &frame{})
	out := append([]*registration(nil), a.lib.order...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].line != out[j].line {
			return out[i].line < out[j].line
		}
		return out[i].col < out[j].col
	})
	return out, a.lib.dynamic
}

// register records a call of redis.register_function: with a name and a
// callback, or with a table of function_name, callback and flags.
func (a *analyzer) register(e *ast.FuncCallExpr, args vset2) {
	if a.lib.regs[e] != nil {
		return
	}
	r := &registration{node: e, line: e.Line(), col: 1}
	if id := leftIdent(e); id != nil {
		r.col = a.identCol[id]
	}
	var name, callback vset
	if len(args) > 0 && len(args[0]) == 1 && args[0][0].kind == kTable {
		t := args[0][0].tab
		name = t.get(one(litValue("function_name")))
		callback = t.get(one(litValue("callback")))
		for _, f := range t.get(one(litValue("flags"))) {
			if f.kind != kTable {
				continue
			}
			for _, el := range f.tab.all() {
				if el.kind != kLit {
					continue
				}
				r.flags = append(r.flags, el.text)
				if !isKnownFlag(el.text) {
					msg := fmt.Sprintf("unknown function flag %q, so Redis 7 refuses the library (\"unknown flag given\")", el.text)
					if near := nearestFlag(el.text); near != "" {
						msg += "; did you mean " + near + "?"
					} else {
						msg += "; the flags are " + strings.Join(knownFlags, ", ")
					}
					r.problems = append(r.problems, problem{r.col, msg})
				}
			}
		}
	} else {
		if len(args) > 0 {
			name = args[0]
		}
		if len(args) > 1 {
			callback = args[1]
		}
	}
	if len(name) != 1 || name[0].kind != kLit {
		a.lib.dynamic = true
		return
	}
	r.name = name[0].text
	for _, c := range callback {
		if c.kind == kFunc {
			r.fn = c.fn
			break
		}
	}
	a.lib.regs[e] = r
	a.lib.order = append(a.lib.order, r)
}

// rename rewrites a message written for scripts for a function: KEYS and
// ARGV become the callback's parameters, EVAL becomes FCALL, outside the
// quoted parts of the message.
func (f *function) rename(msg string) string {
	words := map[string]string{
		"KEYS":    f.keysName,
		"ARGV":    f.argsName,
		"EVAL":    "FCALL",
		"EVAL_RO": "FCALL_RO",
		"script":  "function",
	}
	var b strings.Builder
	quoted := false
	for i := 0; i < len(msg); {
		c := msg[i]
		switch {
		case quoted && c == '\\' && i+1 < len(msg):
			b.WriteString(msg[i : i+2])
			i += 2
			continue
		case c == '"':
			quoted = !quoted
		case !quoted && isWordByte(c) && (i == 0 || !isWordByte(msg[i-1])):
			j := i
			for j < len(msg) && isWordByte(msg[j]) {
				j++
			}
			if w, ok := words[msg[i:j]]; ok {
				b.WriteString(w)
			} else {
				b.WriteString(msg[i:j])
			}
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// functionFlags reports what the flags of a function's registration make
// Redis 7 refuse.
func (c *checker) functionFlags() {
	sh := c.s.Shebang
	if c.call.ReadOnly && !sh.NoWrites() {
		c.add(CategoryFlags, sh.Line, c.s.fn.col, "the function runs with FCALL_RO, but it is registered without the flag no-writes, so Redis 7 refuses it (\"Can not execute a script with write flag using *_ro command.\"); register it with flags={'no-writes'}, or call it with FCALL")
	}
	for _, p := range c.s.shebangProblems {
		c.add(CategoryFlags, sh.Line, p.col, "%s", p.msg)
	}
	if sh.NoCluster() && c.call.Cluster {
		c.add(CategoryFlags, sh.Line, sh.flagCol(FlagNoCluster),
			"the function is registered with the flag no-cluster, so Redis 7 refuses to run it on a cluster (\"Can not run script on cluster, 'no-cluster' flag is set\"), and a cluster client calls it; drop the flag")
	}
}

// flagName names a flag the way the script or function sets it.
func (c *checker) flagName(flag string) string {
	if c.s.fn != nil {
		return "the flag " + flag
	}
	return "flags=" + flag
}
