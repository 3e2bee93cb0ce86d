package luacheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

// A site is a redis.call (redis.pcall, server.call, server.pcall) in the
// script, with what the analysis found its arguments may be, over every way
// the script reaches it.
type site struct {
	line, col int
	text      string // the call as the script writes it, shortened
	cmd       vset   // the command name
	args      vset2  // the arguments after the command name
	argExprs  []ast.Expr
	tail      *spread // the arguments past args, when a spread ends the list
}

// vset2 is a list of value sets, one per position.
type vset2 = []vset

// A keyRead is KEYS[i] in the script.
type keyRead struct {
	line, col int
	idx       int  // 0 when i is not a constant
	guarded   bool // the read is tested (if KEYS[3] then, KEYS[3] or x)
}

// A numRead is KEYS[i] that tonumber reads: the caller passes a number in
// KEYS.
type numRead struct {
	line, col int
	idx       int
	text      string // the call of tonumber
}

// A closure is a function defined in the script, with the scope it sees.
type closure struct {
	expr   *ast.FunctionExpr
	scope  *scope
	method bool // function t:m(): self is its first parameter
	name   string
}

func (c *closure) label() string {
	if c.name != "" {
		return "function " + c.name
	}
	return fmt.Sprintf("the function at line %d", c.expr.Line())
}

// A scope is the chain of local names visible at a point of the script.
// Each local statement extends it, so closures see exactly the locals that
// were declared before them.
type scope struct {
	name   string
	v      *variable
	parent *scope
}

// A variable is a local, or a global the script assigns.
type variable struct {
	name   string
	global bool
}

// A state maps the variables to the values they may hold at a point of the
// script. A dead state is one no path reaches: after return, break or goto.
type state struct {
	vars map[*variable]vset
	dead bool
}

func newState() *state { return &state{vars: map[*variable]vset{}} }

func (st *state) copy() *state {
	c := &state{vars: make(map[*variable]vset, len(st.vars)), dead: st.dead}
	for k, v := range st.vars {
		c.vars[k] = v
	}
	return c
}

func (st *state) set(from *state) { st.vars, st.dead = from.vars, from.dead }

func (st *state) equal(o *state) bool {
	if st.dead != o.dead || len(st.vars) != len(o.vars) {
		return false
	}
	for k, v := range st.vars {
		if w, ok := o.vars[k]; !ok || !sameSet(v, w) {
			return false
		}
	}
	return true
}

// join merges the states that paths reach, ignoring dead ones.
func join(states ...*state) *state {
	var out *state
	for _, s := range states {
		if s == nil || s.dead {
			continue
		}
		if out == nil {
			out = s.copy()
			continue
		}
		for k, v := range s.vars {
			out.vars[k] = union(out.vars[k], v)
		}
	}
	if out == nil {
		out = newState()
		for _, s := range states {
			if s != nil {
				out = s.copy()
				break
			}
		}
		out.dead = true
	}
	return out
}

// A frame is one activation of a function the analysis walks into.
type frame struct {
	inst    int
	varargs vset2
	vtail   *spread
	returns vset2
	rtail   *spread
	exits   []*state
}

type varKey struct {
	node any
	i    int
	inst int
}

// instKey names a function activation by its call site: the activations of
// one call site share their locals, so a tree of calls makes as many
// variables as the script has call sites, not as it has paths.
type instKey struct {
	call ast.Expr
	fn   *ast.FunctionExpr
}

type nodeInst struct {
	node any
	inst int
}

type pendingFn struct {
	c    *closure
	snap *state
}

// analysis bounds: the walk gives up on precision, never on soundness of
// what it reports, past them.
const (
	maxSteps    = 50000 // statements walked, over all function activations
	maxLoopIter = 6     // passes over a loop body to reach a fixed point
)

type analyzer struct {
	identCol map[*ast.IdentExpr]int

	globals  map[string]*variable
	vars     map[varKey]*variable
	insts    map[instKey]int
	tables   map[nodeInst]*table
	closures map[nodeInst]*closure
	gotos    map[nodeInst]*state

	sites    map[ast.Expr]*site
	siteList []*site
	keyReads map[*ast.AttrGetExpr]*keyRead
	readList []*keyRead

	keysWhole bool // KEYS is used other than as KEYS[constant]
	keysLen   bool // the script takes #KEYS
	// numReads are the KEYS[i] the script reads as numbers.
	numReads []*numRead

	// lib is set when the analysis walks a function library: KEYS and
	// ARGV are then the parameters of a function's callback, not globals.
	lib *libWalk

	testDepth int
	steps     int
	nextInst  int
	stack     map[*ast.FunctionExpr]bool
	analyzed  map[*ast.FunctionExpr]bool
	pending   []pendingFn
	loops     []*[]*state
	memo      map[int]*memoCall
}

// A memoCall is the last walk of a function activation: entered again with
// the same arguments and state, it ends the same way.
type memoCall struct {
	args    vset2
	tail    *spread
	entry   *state
	exit    *state
	results vset2
	rtail   *spread
}

func sameArgs(a, b vset2, ta, tb *spread) bool {
	if len(a) != len(b) || (ta == nil) != (tb == nil) {
		return false
	}
	for i := range a {
		if !sameSet(a[i], b[i]) {
			return false
		}
	}
	if ta != nil && (ta.from != tb.from || ta.start != tb.start || !sameSet(ta.elems, tb.elems)) {
		return false
	}
	return true
}

func newAnalyzer(identCol map[*ast.IdentExpr]int) *analyzer {
	return &analyzer{
		identCol: identCol,
		globals:  map[string]*variable{},
		vars:     map[varKey]*variable{},
		insts:    map[instKey]int{},
		tables:   map[nodeInst]*table{},
		closures: map[nodeInst]*closure{},
		gotos:    map[nodeInst]*state{},
		sites:    map[ast.Expr]*site{},
		keyReads: map[*ast.AttrGetExpr]*keyRead{},
		stack:    map[*ast.FunctionExpr]bool{},
		analyzed: map[*ast.FunctionExpr]bool{},
		memo:     map[int]*memoCall{},
	}
}

func (a *analyzer) exhausted() bool { return a.steps > maxSteps }

// run walks the main chunk, then every function the script defines but the
// walk did not reach with known arguments.
func (a *analyzer) run(chunk []ast.Stmt) {
	st := newState()
	a.block(chunk, nil, st, &frame{})
	for len(a.pending) > 0 {
		p := a.pending[0]
		a.pending = a.pending[1:]
		// Past the step budget the walk no longer enters calls, so walking
		// what is left of the script stays linear in its size.
		if a.analyzed[p.c.expr] {
			continue
		}
		a.analyzed[p.c.expr] = true
		a.nextInst++
		fr := &frame{inst: a.nextInst}
		body := p.snap.copy()
		sc := p.c.scope
		for i, name := range p.c.params() {
			v := a.variable(p.c.expr, i, fr.inst, name)
			body.vars[v] = one(opaque(fmt.Sprintf("the parameter %s of %s, which the script calls from nowhere the analysis follows", name, p.c.label())))
			sc = &scope{name, v, sc}
		}
		if p.c.expr.ParList.HasVargs {
			fr.vtail = &spread{elems: one(opaque(fmt.Sprintf("an argument of %s, which the script calls from nowhere the analysis follows", p.c.label())))}
		}
		a.stack[p.c.expr] = true
		a.block(p.c.expr.Stmts, sc, body, fr)
		delete(a.stack, p.c.expr)
	}
}

func (c *closure) params() []string {
	if c.method {
		return append([]string{"self"}, c.expr.ParList.Names...)
	}
	return c.expr.ParList.Names
}

func (a *analyzer) variable(node any, i, inst int, name string) *variable {
	k := varKey{node, i, inst}
	v := a.vars[k]
	if v == nil {
		v = &variable{name: name}
		a.vars[k] = v
	}
	return v
}

func (a *analyzer) lookup(sc *scope, name string) *variable {
	for s := sc; s != nil; s = s.parent {
		if s.name == name {
			return s.v
		}
	}
	return a.globals[name]
}

// block walks statements and returns the scope at their end.
func (a *analyzer) block(stmts []ast.Stmt, sc *scope, st *state, fr *frame) *scope {
	for _, s := range stmts {
		if l, ok := s.(*ast.LabelStmt); ok {
			if g := a.gotos[nodeInst{l.Name, fr.inst}]; g != nil {
				st.set(join(st, g))
			}
			continue
		}
		if st.dead {
			continue
		}
		sc = a.stmt(s, sc, st, fr)
	}
	return sc
}

func (a *analyzer) stmt(s ast.Stmt, sc *scope, st *state, fr *frame) *scope {
	a.steps++
	switch s := s.(type) {
	case *ast.LocalAssignStmt:
		if len(s.Names) == 1 && len(s.Exprs) == 1 {
			if fe, ok := s.Exprs[0].(*ast.FunctionExpr); ok {
				// local function f: f is visible in its own body.
				v := a.variable(s, 0, fr.inst, s.Names[0])
				sc = &scope{s.Names[0], v, sc}
				st.vars[v] = one(funcValue(a.closure(fe, sc, st, fr, s.Names[0], false)))
				return sc
			}
		}
		vals, tail := a.list(s.Exprs, sc, st, fr)
		for i, name := range s.Names {
			v := a.variable(s, i, fr.inst, name)
			st.vars[v] = pick(vals, tail, i)
			sc = &scope{name, v, sc}
		}
	case *ast.AssignStmt:
		vals, tail := a.list(s.Rhs, sc, st, fr)
		for i, lhs := range s.Lhs {
			a.store(lhs, pick(vals, tail, i), sc, st, fr)
		}
	case *ast.FuncCallStmt:
		if call, ok := s.Expr.(*ast.FuncCallExpr); ok {
			a.call(call, sc, st, fr)
		} else {
			a.eval(s.Expr, sc, st, fr)
		}
	case *ast.DoBlockStmt:
		a.block(s.Stmts, sc, st, fr)
	case *ast.WhileStmt:
		a.loop(st, func(body *state) {
			a.test(s.Condition, sc, body, fr)
			a.refine(s.Condition, true, sc, body)
			a.block(s.Stmts, sc, body, fr)
		})
	case *ast.RepeatStmt:
		a.loop(st, func(body *state) {
			inner := a.block(s.Stmts, sc, body, fr)
			if !body.dead {
				a.test(s.Condition, inner, body, fr)
			}
		})
	case *ast.IfStmt:
		a.test(s.Condition, sc, st, fr)
		then := st.copy()
		a.refine(s.Condition, true, sc, then)
		a.block(s.Then, sc, then, fr)
		els := st.copy()
		a.refine(s.Condition, false, sc, els)
		a.block(s.Else, sc, els, fr)
		st.set(join(then, els))
	case *ast.NumberForStmt:
		a.eval(s.Init, sc, st, fr)
		a.eval(s.Limit, sc, st, fr)
		if s.Step != nil {
			a.eval(s.Step, sc, st, fr)
		}
		v := a.variable(s, 0, fr.inst, s.Name)
		inner := &scope{s.Name, v, sc}
		a.loop(st, func(body *state) {
			body.vars[v] = one(numValue)
			a.block(s.Stmts, inner, body, fr)
		})
	case *ast.GenericForStmt:
		vals := a.iterate(s, sc, st, fr)
		inner := sc
		vars := make([]*variable, len(s.Names))
		for i, name := range s.Names {
			vars[i] = a.variable(s, i, fr.inst, name)
			inner = &scope{name, vars[i], inner}
		}
		a.loop(st, func(body *state) {
			for i, v := range vars {
				if i < len(vals) {
					body.vars[v] = vals[i]
				} else {
					body.vars[v] = one(nilValue)
				}
			}
			a.block(s.Stmts, inner, body, fr)
		})
	case *ast.FuncDefStmt:
		if s.Name.Func != nil {
			c := a.closure(s.Func, sc, st, fr, render(s.Name.Func), false)
			a.store(s.Name.Func, one(funcValue(c)), sc, st, fr)
		} else {
			c := a.closure(s.Func, sc, st, fr, render(s.Name.Receiver)+":"+s.Name.Method, true)
			for _, o := range a.eval(s.Name.Receiver, sc, st, fr) {
				if o.kind == kTable {
					o.tab.set(one(litValue(s.Name.Method)), one(funcValue(c)))
				}
			}
		}
	case *ast.ReturnStmt:
		vals, tail := a.list(s.Exprs, sc, st, fr)
		for i, v := range vals {
			if i < len(fr.returns) {
				fr.returns[i] = union(fr.returns[i], v)
			} else {
				fr.returns = append(fr.returns, v)
			}
		}
		fr.rtail = joinSpread(fr.rtail, tail)
		fr.exits = append(fr.exits, st.copy())
		st.dead = true
	case *ast.BreakStmt:
		if n := len(a.loops); n > 0 {
			*a.loops[n-1] = append(*a.loops[n-1], st.copy())
		}
		st.dead = true
	case *ast.GotoStmt:
		k := nodeInst{s.Label, fr.inst}
		a.gotos[k] = join(a.gotos[k], st)
		st.dead = true
	}
	return sc
}

// loop walks a loop body until the state at its head no longer changes.
func (a *analyzer) loop(st *state, body func(*state)) {
	breaks := &[]*state{}
	a.loops = append(a.loops, breaks)
	head := st.copy()
	for i := 0; ; i++ {
		b := head.copy()
		body(b)
		next := join(head, b)
		done := next.equal(head) || i+1 >= maxLoopIter || a.exhausted()
		head = next
		if done {
			break
		}
	}
	a.loops = a.loops[:len(a.loops)-1]
	st.set(join(append([]*state{head}, *breaks...)...))
}

// store assigns val to a variable or a table field.
func (a *analyzer) store(lhs ast.Expr, val vset, sc *scope, st *state, fr *frame) {
	switch l := lhs.(type) {
	case *ast.IdentExpr:
		v := a.lookup(sc, l.Value)
		if v == nil {
			v = &variable{name: l.Value, global: true}
			a.globals[l.Value] = v
		}
		st.vars[v] = val
	case *ast.AttrGetExpr:
		objs := a.eval(l.Object, sc, st, fr)
		key := a.eval(l.Key, sc, st, fr)
		for _, o := range objs {
			if o.kind == kTable {
				o.tab.set(key, val)
			}
		}
	}
}

func (a *analyzer) closure(fe *ast.FunctionExpr, sc *scope, st *state, fr *frame, name string, method bool) *closure {
	k := nodeInst{fe, fr.inst}
	if c := a.closures[k]; c != nil {
		return c
	}
	c := &closure{expr: fe, scope: sc, method: method, name: name}
	a.closures[k] = c
	if !a.analyzed[fe] {
		a.pending = append(a.pending, pendingFn{c, st.copy()})
	}
	return c
}

// pick returns the i-th of a list of values that may end in a spread.
func pick(vals vset2, tail *spread, i int) vset {
	if i < len(vals) {
		return vals[i]
	}
	if tail != nil {
		return tail.elem(i - len(vals))
	}
	return one(nilValue)
}

// skip returns what is left of a spread after its first n elements.
func (sp *spread) skip(n int) *spread {
	if sp == nil || n <= 0 {
		return sp
	}
	if sp.from != nil {
		return &spread{from: sp.from, start: sp.start + n}
	}
	return sp
}

// list evaluates an expression list, whose last expression may give many
// values.
func (a *analyzer) list(es []ast.Expr, sc *scope, st *state, fr *frame) (vset2, *spread) {
	var out vset2
	for i, e := range es {
		if i == len(es)-1 {
			vals, tail := a.multi(e, sc, st, fr)
			return append(out, vals...), tail
		}
		out = append(out, a.eval(e, sc, st, fr))
	}
	return out, nil
}

func (a *analyzer) multi(e ast.Expr, sc *scope, st *state, fr *frame) (vset2, *spread) {
	switch e := e.(type) {
	case *ast.FuncCallExpr:
		vals, tail := a.call(e, sc, st, fr)
		if e.AdjustRet {
			return vset2{pick(vals, tail, 0)}, nil
		}
		return vals, tail
	case *ast.Comma3Expr:
		if e.AdjustRet {
			return vset2{pick(fr.varargs, fr.vtail, 0)}, nil
		}
		return fr.varargs, fr.vtail
	}
	return vset2{a.eval(e, sc, st, fr)}, nil
}

// test evaluates an expression whose truth the script tests.
func (a *analyzer) test(e ast.Expr, sc *scope, st *state, fr *frame) vset {
	a.testDepth++
	defer func() { a.testDepth-- }()
	return a.eval(e, sc, st, fr)
}

func (a *analyzer) eval(e ast.Expr, sc *scope, st *state, fr *frame) vset {
	switch e := e.(type) {
	case *ast.StringExpr:
		return one(litValue(e.Value))
	case *ast.NumberExpr:
		return one(numLit(normalizeNumber(e.Value)))
	case *ast.NilExpr:
		return one(nilValue)
	case *ast.TrueExpr, *ast.FalseExpr:
		return one(boolValue)
	case *ast.Comma3Expr:
		return pick(fr.varargs, fr.vtail, 0)
	case *ast.IdentExpr:
		return a.ident(e, sc, st)
	case *ast.AttrGetExpr:
		return a.index(e, sc, st, fr)
	case *ast.TableExpr:
		return a.tableExpr(e, sc, st, fr)
	case *ast.FuncCallExpr:
		vals, tail := a.call(e, sc, st, fr)
		return pick(vals, tail, 0)
	case *ast.LogicalOpExpr:
		l := a.test(e.Lhs, sc, st, fr)
		// The right operand runs only where the left one is true (and)
		// or false (or); past the expression, either path may have run.
		short := st.copy()
		a.refine(e.Lhs, e.Operator == "and", sc, st)
		var r vset
		if !st.dead {
			r = a.eval(e.Rhs, sc, st, fr)
		}
		st.set(join(short, st))
		if e.Operator == "or" {
			return union(l, r)
		}
		var falsy vset
		for _, v := range l {
			if v.kind == kNil || v.kind == kBool {
				falsy = union(falsy, one(v))
			}
		}
		return union(r, falsy)
	case *ast.RelationalOpExpr:
		a.test(e.Lhs, sc, st, fr)
		a.test(e.Rhs, sc, st, fr)
		return one(boolValue)
	case *ast.StringConcatOpExpr:
		return concatSets(a.eval(e.Lhs, sc, st, fr), a.eval(e.Rhs, sc, st, fr))
	case *ast.ArithmeticOpExpr:
		a.eval(e.Lhs, sc, st, fr)
		a.eval(e.Rhs, sc, st, fr)
		return one(numValue)
	case *ast.UnaryMinusOpExpr:
		if n, ok := e.Expr.(*ast.NumberExpr); ok {
			return one(numLit(normalizeNumber("-" + n.Value)))
		}
		a.eval(e.Expr, sc, st, fr)
		return one(numValue)
	case *ast.UnaryNotOpExpr:
		a.test(e.Expr, sc, st, fr)
		return one(boolValue)
	case *ast.UnaryLenOpExpr:
		if a.eval(e.Expr, sc, st, fr).has(keysTableValue) {
			a.keysLen = true
		}
		return one(numValue)
	case *ast.FunctionExpr:
		return one(funcValue(a.closure(e, sc, st, fr, "", false)))
	}
	return one(opaque("a value"))
}

// normalizeNumber writes a Lua number constant the way Lua 5.1 turns it into
// a string (%.14g), which is what Redis receives.
func normalizeNumber(s string) string {
	var f float64
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") || strings.HasPrefix(s, "-0x") || strings.HasPrefix(s, "-0X") {
		n, err := strconv.ParseInt(strings.Replace(strings.Replace(s, "0x", "", 1), "0X", "", 1), 16, 64)
		if err != nil {
			return s
		}
		f = float64(n)
	} else {
		var err error
		f, err = strconv.ParseFloat(s, 64)
		if err != nil {
			return s
		}
	}
	return strconv.FormatFloat(f, 'g', 14, 64)
}

func concatSets(l, r vset) vset {
	var out vset
	for _, x := range l {
		for _, y := range r {
			out = union(out, one(concatValue(x, y)))
		}
	}
	return out
}

var (
	libraries = map[string]bool{"string": true, "table": true, "math": true, "cjson": true, "cmsgpack": true,
		"bit": true, "struct": true, "redis": true, "server": true, "os": true, "coroutine": true}
	globalFuncs = map[string]bool{"assert": true, "error": true, "getmetatable": true, "ipairs": true, "next": true,
		"pairs": true, "pcall": true, "rawequal": true, "rawget": true, "rawset": true, "select": true,
		"setmetatable": true, "tonumber": true, "tostring": true, "type": true, "unpack": true, "xpcall": true,
		"loadstring": true, "gcinfo": true, "print": true}
)

func (a *analyzer) ident(e *ast.IdentExpr, sc *scope, st *state) vset {
	if v := a.lookup(sc, e.Value); v != nil {
		if vs, ok := st.vars[v]; ok {
			if a.lib != nil && vs.has(keysTableValue) {
				a.keysWhole = true
			}
			return vs
		}
		if !v.global {
			return one(opaque("the variable " + e.Value))
		}
	}
	switch {
	case a.lib != nil && (e.Value == "KEYS" || e.Value == "ARGV"):
		return one(opaque("the global \"" + e.Value + "\", which Redis does not set for functions"))
	case e.Value == "KEYS":
		a.keysWhole = true
		return one(keysTableValue)
	case e.Value == "ARGV":
		return one(argvTableValue)
	case libraries[e.Value], globalFuncs[e.Value]:
		return one(builtin(e.Value))
	}
	return one(opaque("the global " + e.Value))
}

// root returns the KEYS or ARGV table that x names: the globals in a
// script, the callback's parameters in a function library.
func (a *analyzer) root(x ast.Expr, sc *scope, st *state) (*ast.IdentExpr, *value) {
	id, ok := x.(*ast.IdentExpr)
	if !ok {
		return nil, nil
	}
	v := a.lookup(sc, id.Value)
	if a.lib == nil {
		switch {
		case v != nil:
		case id.Value == "KEYS":
			return id, keysTableValue
		case id.Value == "ARGV":
			return id, argvTableValue
		}
		return nil, nil
	}
	if v == nil || v.global {
		return nil, nil
	}
	if vs := st.vars[v]; len(vs) == 1 && (vs[0] == keysTableValue || vs[0] == argvTableValue) {
		return id, vs[0]
	}
	return nil, nil
}

// index evaluates obj[key] and obj.name.
func (a *analyzer) index(e *ast.AttrGetExpr, sc *scope, st *state, fr *frame) vset {
	if id, root := a.root(e.Object, sc, st); root != nil {
		idx, ok := a.eval(e.Key, sc, st, fr).intIndex()
		if !ok || idx < 1 {
			idx = 0
		}
		if root == argvTableValue {
			return one(argValue(idx))
		}
		if idx == 0 {
			a.keysWhole = true
		}
		r := a.keyReads[e]
		if r == nil {
			r = &keyRead{line: id.Line(), col: a.identCol[id], idx: idx, guarded: true}
			a.keyReads[e] = r
			a.readList = append(a.readList, r)
		}
		r.guarded = r.guarded && a.testDepth > 0
		return one(keyValue(idx))
	}
	objs := a.eval(e.Object, sc, st, fr)
	key := a.eval(e.Key, sc, st, fr)
	var out vset
	for _, o := range objs {
		switch o.kind {
		case kKeysTable, kArgvTable:
			idx, ok := key.intIndex()
			if !ok || idx < 1 {
				idx = 0
			}
			if o.kind == kKeysTable {
				out = union(out, one(keyValue(idx)))
			} else {
				out = union(out, one(argValue(idx)))
			}
		case kBuiltin:
			if len(key) == 1 && key[0].kind == kLit {
				out = union(out, one(builtin(o.text+"."+key[0].text)))
			} else {
				out = union(out, one(opaque("a field of "+o.text)))
			}
		case kTable:
			out = union(out, o.tab.get(key))
		case kRedis:
			out = union(out, one(o))
		case kNil, kBool, kNum:
			out = union(out, one(nilValue))
		default:
			out = union(out, one(opaque("a field of "+origin(o))))
		}
	}
	return out
}

func (a *analyzer) tableExpr(e *ast.TableExpr, sc *scope, st *state, fr *frame) vset {
	k := nodeInst{e, fr.inst}
	t := a.tables[k]
	if t == nil {
		t = &table{}
		a.tables[k] = t
	}
	pos := 1
	for i, f := range e.Fields {
		if f.Key != nil {
			t.set(a.eval(f.Key, sc, st, fr), a.eval(f.Value, sc, st, fr))
			continue
		}
		if i < len(e.Fields)-1 {
			t.set(one(numLit(strconv.Itoa(pos))), a.eval(f.Value, sc, st, fr))
			pos++
			continue
		}
		vals, tail := a.multi(f.Value, sc, st, fr)
		for _, v := range vals {
			t.set(one(numLit(strconv.Itoa(pos))), v)
			pos++
		}
		if tail != nil {
			t.rest = union(t.rest, tail.asElems())
		}
	}
	return one(tableValue(t))
}

// elements returns what iterating over values gives.
func elements(x vset) vset {
	var out vset
	for _, v := range x {
		switch v.kind {
		case kKeysTable:
			out = union(out, one(keyValue(0)))
		case kArgvTable:
			out = union(out, one(argValue(0)))
		case kTable:
			out = union(out, v.tab.all())
		case kRedis:
			out = union(out, one(v))
		case kNil:
		default:
			out = union(out, one(opaque("an element of "+origin(v))))
		}
	}
	return out
}

// iterate returns the values of the names of a generic for loop.
func (a *analyzer) iterate(s *ast.GenericForStmt, sc *scope, st *state, fr *frame) vset2 {
	if len(s.Exprs) == 1 {
		if call, ok := s.Exprs[0].(*ast.FuncCallExpr); ok && call.Receiver == nil && len(call.Args) >= 1 {
			fns := a.eval(call.Func, sc, st, fr)
			if len(fns) == 1 && fns[0].kind == kBuiltin {
				switch fns[0].text {
				case "ipairs", "pairs":
					x := a.eval(call.Args[0], sc, st, fr)
					for _, arg := range call.Args[1:] {
						a.eval(arg, sc, st, fr)
					}
					key := one(numValue)
					if fns[0].text == "pairs" {
						key = union(key, one(opaque("a table key")))
					}
					return vset2{key, elements(x)}
				case "string.gmatch":
					args, _ := a.list(call.Args, sc, st, fr)
					return vset2{one(derived("string.gmatch", flatten(args[:1])...))}
				}
			}
		}
	}
	vals, _ := a.list(s.Exprs, sc, st, fr)
	what := opaque(fmt.Sprintf("a value of the loop at line %d", s.Line()))
	if len(vals) > 0 {
		for _, v := range vals[0] {
			if v.kind == kDerived && v.text == "string.gmatch" {
				return vset2{one(v)}
			}
		}
	}
	out := make(vset2, len(s.Names))
	for i := range out {
		out[i] = one(what)
	}
	return out
}

func flatten(sets vset2) []*value {
	var out []*value
	for _, s := range sets {
		out = append(out, s...)
	}
	return out
}

// call evaluates a function call and returns its results.
func (a *analyzer) call(e *ast.FuncCallExpr, sc *scope, st *state, fr *frame) (vset2, *spread) {
	var res vset2
	var rtail *spread
	merge := func(vals vset2, tail *spread) {
		for i, v := range vals {
			if i < len(res) {
				res[i] = union(res[i], v)
			} else {
				res = append(res, v)
			}
		}
		rtail = joinSpread(rtail, tail)
	}
	if e.Receiver != nil {
		recv := a.eval(e.Receiver, sc, st, fr)
		args, tail := a.list(e.Args, sc, st, fr)
		for _, r := range recv {
			switch {
			case r.kind == kTable:
				for _, f := range r.tab.get(one(litValue(e.Method))) {
					if f.kind == kFunc {
						merge(a.callFunc(f.fn, e, append(vset2{one(r)}, args...), tail, st, fr))
					}
				}
			case r.kind == kBuiltin:
				merge(vset2{one(opaque("the result of " + r.text + ":" + e.Method + "()"))}, nil)
			case r.stringish():
				merge(a.builtinCall("string."+e.Method, e, append(vset2{one(r)}, args...), tail, st, fr))
			default:
				merge(vset2{one(opaque("the result of " + render(e)))}, nil)
			}
		}
		return res, rtail
	}
	fns := a.eval(e.Func, sc, st, fr)
	args, tail := a.list(e.Args, sc, st, fr)
	for _, f := range fns {
		switch f.kind {
		case kRedisFn:
			s := a.record(e, args, tail, e.Args)
			merge(vset2{one(redisValue(s))}, nil)
		case kFunc:
			merge(a.callFunc(f.fn, e, args, tail, st, fr))
		case kBuiltin:
			merge(a.builtinCall(f.text, e, args, tail, st, fr))
		default:
			merge(vset2{one(opaque("the result of " + render(e)))}, nil)
		}
	}
	return res, rtail
}

// noteNumRead notes the KEYS[i] among vals, which the call e of tonumber
// reads.
func (a *analyzer) noteNumRead(e *ast.FuncCallExpr, vals vset) {
	for _, v := range vals {
		if v.kind != kKey || v.idx == 0 {
			continue
		}
		r := &numRead{line: e.Line(), col: 1, idx: v.idx, text: render(e)}
		if id := leftIdent(e); id != nil {
			r.col = a.identCol[id]
		}
		a.numReads = append(a.numReads, r)
	}
}

// record notes a call of redis.call or the like, whose arguments, the
// command name first, are args and tail, written as exprs.
func (a *analyzer) record(node *ast.FuncCallExpr, args vset2, tail *spread, exprs []ast.Expr) *site {
	s := a.sites[node]
	if s == nil {
		s = &site{line: node.Line(), col: 1, text: render(node)}
		if id := leftIdent(node); id != nil {
			s.col = a.identCol[id]
		}
		if len(exprs) > 0 {
			s.argExprs = exprs[1:]
		}
		a.sites[node] = s
		a.siteList = append(a.siteList, s)
	}
	if len(args) == 0 {
		s.cmd = union(s.cmd, one(opaque("a spread command name")))
		return s
	}
	s.cmd = union(s.cmd, args[0])
	for i, v := range args[1:] {
		if i < len(s.args) {
			s.args[i] = union(s.args[i], v)
		} else {
			s.args = append(s.args, v)
		}
	}
	s.tail = joinSpread(s.tail, tail)
	return s
}

// callFunc walks into a function of the script with the given arguments.
func (a *analyzer) callFunc(c *closure, node ast.Expr, args vset2, tail *spread, st *state, fr *frame) (vset2, *spread) {
	if a.stack[c.expr] || a.exhausted() {
		return vset2{one(opaque("the result of " + c.label()))}, nil
	}
	a.analyzed[c.expr] = true
	a.stack[c.expr] = true
	defer delete(a.stack, c.expr)

	ik := instKey{node, c.expr}
	inst, ok := a.insts[ik]
	if !ok {
		a.nextInst++
		inst = a.nextInst
		a.insts[ik] = inst
	}
	if m := a.memo[inst]; m != nil && sameArgs(m.args, args, m.tail, tail) && m.entry.equal(st) {
		st.set(m.exit.copy())
		return m.results, m.rtail
	}
	entry := st.copy()
	nf := &frame{inst: inst}
	sc := c.scope
	body := st.copy()
	params := c.params()
	for i, name := range params {
		v := a.variable(c.expr, i, inst, name)
		body.vars[v] = pick(args, tail, i)
		sc = &scope{name, v, sc}
	}
	if c.expr.ParList.HasVargs {
		if len(args) > len(params) {
			nf.varargs = args[len(params):]
			nf.vtail = tail
		} else {
			nf.vtail = tail.skip(len(params) - len(args))
		}
	}
	a.block(c.expr.Stmts, sc, body, nf)
	exits := nf.exits
	if !body.dead {
		exits = append(exits, body)
	}
	if len(exits) > 0 {
		st.set(join(exits...))
	}
	a.memo[inst] = &memoCall{args: args, tail: tail, entry: entry, exit: st.copy(), results: nf.returns, rtail: nf.rtail}
	return nf.returns, nf.rtail
}

// builtinCall evaluates a call of a library function with args.
func (a *analyzer) builtinCall(name string, e *ast.FuncCallExpr, args vset2, tail *spread, st *state, fr *frame) (vset2, *spread) {
	arg := func(i int) vset { return pick(args, tail, i) }
	switch name {
	case "pcall", "xpcall":
		n := 1
		if name == "xpcall" {
			n = 2
			for _, h := range arg(1) {
				if h.kind == kFunc {
					a.callFunc(h.fn, e, vset2{one(opaque("an error"))}, nil, st, fr)
				}
			}
		}
		var rest vset2
		if len(args) > n {
			rest = args[n:]
		}
		restTail := tail
		if len(args) < n {
			restTail = tail.skip(n - len(args))
		}
		var res vset2
		var rtail *spread
		for _, f := range arg(0) {
			switch f.kind {
			case kRedisFn:
				var exprs []ast.Expr
				if len(e.Args) > n {
					exprs = e.Args[n:]
				}
				s := a.record(e, rest, restTail, exprs)
				res = append(res, one(redisValue(s)))
			case kFunc:
				vals, t := a.callFunc(f.fn, e, rest, restTail, st, fr)
				for i, v := range vals {
					if i < len(res) {
						res[i] = union(res[i], v)
					} else {
						res = append(res, v)
					}
				}
				rtail = joinSpread(rtail, t)
			}
		}
		return append(vset2{one(boolValue)}, res...), rtail
	case "unpack", "table.unpack":
		start := 1
		if s, ok := arg(1).intIndex(); ok && len(args) > 1 {
			start = s
		}
		t := arg(0)
		if len(t) == 1 {
			switch t[0].kind {
			case kKeysTable, kArgvTable:
				return nil, &spread{from: t[0], start: start}
			case kTable:
				tab := t[0].tab
				var vals vset2
				if start >= 1 && start <= len(tab.elems) {
					for _, el := range tab.elems[start-1:] {
						vals = append(vals, el)
					}
				}
				if len(tab.rest) > 0 {
					return vals, &spread{elems: tab.rest}
				}
				return vals, nil
			}
		}
		return nil, &spread{elems: elements(t)}
	case "tostring":
		return vset2{arg(0)}, nil
	case "tonumber", "table.getn", "string.len", "string.byte":
		if arg(0).has(keysTableValue) {
			a.keysLen = true
		}
		if name == "tonumber" {
			a.noteNumRead(e, arg(0))
		}
		return vset2{one(numValue)}, nil
	case "string.format":
		return vset2{formatValue(arg(0), args, tail)}, nil
	case "table.insert":
		if len(args) >= 2 {
			val := args[len(args)-1]
			for _, t := range arg(0) {
				if t.kind == kTable {
					t.tab.rest = union(t.tab.rest, val)
				}
			}
		}
		return nil, nil
	case "table.remove", "rawget":
		return vset2{union(elements(arg(0)), one(nilValue))}, nil
	case "table.concat":
		return vset2{one(derived("table.concat", elements(arg(0))...))}, nil
	case "cjson.decode", "cmsgpack.unpack", "struct.unpack":
		return vset2{one(opaque("a value decoded from " + describeSet(arg(0))))}, nil
	case "select":
		if len(args) > 0 && len(args[0]) == 1 && args[0][0].kind == kLit && args[0][0].text == "#" {
			return vset2{one(numValue)}, nil
		}
		var all vset
		for _, v := range args[min(1, len(args)):] {
			all = union(all, v)
		}
		if tail != nil {
			all = union(all, tail.asElems())
		}
		return nil, &spread{elems: all}
	case "assert":
		return args, tail
	case "setmetatable":
		return vset2{arg(0)}, nil
	case "type":
		return vset2{one(opaque("a type name"))}, nil
	case "redis.status_reply", "redis.error_reply", "server.status_reply", "server.error_reply":
		return vset2{one(opaque("a reply"))}, nil
	case "redis.register_function", "server.register_function":
		if a.lib != nil {
			a.register(e, args)
		}
		return nil, nil
	case "redis.sha1hex", "server.sha1hex":
		return vset2{one(derived(name, flatten(args)...))}, nil
	}
	switch {
	case strings.HasPrefix(name, "math."), strings.HasPrefix(name, "bit."):
		return vset2{one(numValue)}, nil
	case strings.HasPrefix(name, "string."), strings.HasPrefix(name, "cjson."), strings.HasPrefix(name, "cmsgpack."), strings.HasPrefix(name, "struct."):
		return vset2{one(derived(name, flatten(args)...))}, nil
	case strings.HasPrefix(name, "redis."), strings.HasPrefix(name, "server."):
		return nil, nil
	}
	return vset2{one(opaque("the result of " + name + "()"))}, nil
}

// describeSet says where a set's values come from, for messages.
func describeSet(s vset) string {
	if len(s) == 0 {
		return "nothing"
	}
	d := origin(s[0])
	if len(s) > 1 {
		d += " or another value"
	}
	return d
}

// formatValue evaluates string.format(f, ...): with a constant format, the
// concatenation of its text and the values of its %s and %d.
func formatValue(f vset, args vset2, tail *spread) vset {
	if len(f) != 1 || f[0].kind != kLit {
		return one(derived("string.format", flatten(args)...))
	}
	format := f[0].text
	seq := []vset{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			seq = append(seq, one(litValue(lit.String())))
			lit.Reset()
		}
	}
	ai := 1
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			lit.WriteByte('%')
			continue
		}
		plain := true
		for i < len(format) && strings.IndexByte("-+ #0123456789.", format[i]) >= 0 {
			plain = false
			i++
		}
		if i >= len(format) {
			break
		}
		flush()
		v := pick(args, tail, ai)
		ai++
		switch {
		case plain && (format[i] == 's' || format[i] == 'd' || format[i] == 'i'):
			seq = append(seq, v)
		default:
			seq = append(seq, one(derived("string.format", v...)))
		}
	}
	flush()
	out := one(litValue(""))
	for _, s := range seq {
		out = concatSets(out, s)
	}
	return out
}

// refine narrows the state to the paths where the condition cond has the
// given truth, by what the condition says of the variables it tests: where
// v ~= "x" (or "x" ~= v, or not (v == "x")) holds, v is not the string "x";
// where v, or v ~= nil, holds, v is not nil; where v == k holds, k a
// variable that holds elements of KEYS only, v is one of them; a
// conjunction that holds holds in each of its operands, a disjunction
// that fails fails in each. A branch where a variable is left with no
// value is one no path reaches.
// Only variables are narrowed, by removing constants they may hold or by
// the KEYS elements they are equal to, so the state stays a superset of
// what the script can see there.
func (a *analyzer) refine(cond ast.Expr, truth bool, sc *scope, st *state) {
	if st.dead {
		return
	}
	switch e := cond.(type) {
	case *ast.LogicalOpExpr:
		if e.Operator == "and" && truth || e.Operator == "or" && !truth {
			a.refine(e.Lhs, truth, sc, st)
			a.refine(e.Rhs, truth, sc, st)
		}
	case *ast.UnaryNotOpExpr:
		a.refine(e.Expr, !truth, sc, st)
	case *ast.IdentExpr:
		if truth {
			a.exclude(e, nilValue, sc, st)
		}
	case *ast.RelationalOpExpr:
		if id, empty, ok := lengthTest(e, truth); ok {
			if empty {
				a.emptyTables(id, sc, st)
			} else {
				a.exclude(id, litValue(""), sc, st)
			}
			return
		}
		if e.Operator == "==" && truth || e.Operator == "~=" && !truth {
			a.equalKey(e.Lhs, e.Rhs, sc, st)
			a.equalKey(e.Rhs, e.Lhs, sc, st)
		}
		if e.Operator != "==" && e.Operator != "~=" || (e.Operator == "~=") != truth {
			return
		}
		if id, ok := e.Lhs.(*ast.IdentExpr); ok {
			if c := a.constant(e.Rhs, sc, st); c != nil {
				a.exclude(id, c, sc, st)
			}
		}
		if id, ok := e.Rhs.(*ast.IdentExpr); ok {
			if c := a.constant(e.Lhs, sc, st); c != nil {
				a.exclude(id, c, sc, st)
			}
		}
	}
}

// equalKey narrows the variable x names to the elements of KEYS that y
// holds, where x == y: a key built from ARGV (queue = ARGV[1] .. name) is
// declared where it equals the loop variable of a for over KEYS.
func (a *analyzer) equalKey(x, y ast.Expr, sc *scope, st *state) {
	id, ok := x.(*ast.IdentExpr)
	other, isID := y.(*ast.IdentExpr)
	if !ok || !isID {
		return
	}
	v, w := a.lookup(sc, id.Value), a.lookup(sc, other.Value)
	if v == nil || w == nil {
		return
	}
	keys, ok := st.vars[w]
	if _, set := st.vars[v]; !ok || !set || len(keys) == 0 {
		return
	}
	var out vset
	for _, k := range keys {
		switch k.kind {
		case kKey:
			out = append(out, k)
		case kNil:
		default:
			return
		}
	}
	if len(out) == 0 {
		return
	}
	st.vars[v] = out
}

// lengthTest returns the variable v of a comparison of its length with 0
// (#v > 0, #v == 0, 0 < #v, string.len(v) >= 1, table.getn(v) > 0 and the
// like), and whether the comparison, with the given truth, says v is
// empty (#v == 0, #v < 1) or not (#v > 0, #v ~= 0, #v >= 1).
func lengthTest(e *ast.RelationalOpExpr, truth bool) (id *ast.IdentExpr, empty, ok bool) {
	op, l, r := e.Operator, e.Lhs, e.Rhs
	if lengthOf(l) == nil {
		op, l, r = swapped[op], r, l // 0 < #v is #v > 0
	}
	id = lengthOf(l)
	n, isNum := r.(*ast.NumberExpr)
	if id == nil || !isNum {
		return nil, false, false
	}
	if !truth {
		op = negated[op]
	}
	switch num := normalizeNumber(n.Value); {
	case num == "0" && (op == ">" || op == "~="), num == "1" && op == ">=":
		return id, false, true
	case num == "0" && (op == "==" || op == "<="), num == "1" && op == "<":
		return id, true, true
	}
	return nil, false, false
}

// emptyTables narrows the variable id names to where its length is 0: a
// table the script made is then empty, so that ipairs over it gives
// nothing (t[1] is nil where #t is 0), and a string constant other than ""
// is not its value.
func (a *analyzer) emptyTables(id *ast.IdentExpr, sc *scope, st *state) {
	v := a.lookup(sc, id.Value)
	if v == nil {
		return
	}
	vs, ok := st.vars[v]
	if !ok {
		return
	}
	var out vset
	changed := false
	for _, x := range vs {
		switch {
		case x.kind == kTable:
			out = union(out, one(tableValue(&table{})))
			changed = true
		case x.kind == kLit && x.text != "":
			changed = true
		default:
			out = union(out, one(x))
		}
	}
	if !changed {
		return
	}
	if len(out) == 0 {
		st.dead = true
		return
	}
	st.vars[v] = out
}

var (
	// swapped is the operator of a comparison with its operands swapped.
	swapped = map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "~=": "~="}
	// negated is the operator of a comparison that fails.
	negated = map[string]string{"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "~=", "~=": "=="}
)

// lengthOf returns v of #v, string.len(v) or table.getn(v).
func lengthOf(e ast.Expr) *ast.IdentExpr {
	switch e := e.(type) {
	case *ast.UnaryLenOpExpr:
		id, _ := e.Expr.(*ast.IdentExpr)
		return id
	case *ast.FuncCallExpr:
		if len(e.Args) != 1 || e.Receiver != nil || render(e.Func) != "string.len" && render(e.Func) != "table.getn" {
			return nil
		}
		id, _ := e.Args[0].(*ast.IdentExpr)
		return id
	}
	return nil
}

// constant returns the string, number or nil that an expression is for
// sure: a literal, or a variable that holds one constant only.
func (a *analyzer) constant(e ast.Expr, sc *scope, st *state) *value {
	switch e := e.(type) {
	case *ast.StringExpr:
		return litValue(e.Value)
	case *ast.NilExpr:
		return nilValue
	case *ast.NumberExpr:
		return numLit(normalizeNumber(e.Value))
	case *ast.IdentExpr:
		if v := a.lookup(sc, e.Value); v != nil {
			if vs := st.vars[v]; len(vs) == 1 && (vs[0].kind == kLit || vs[0].kind == kNil || vs[0].kind == kNum && vs[0].text != "") {
				return vs[0]
			}
		}
	}
	return nil
}

// exclude removes a constant from the values of the variable id names.
func (a *analyzer) exclude(id *ast.IdentExpr, c *value, sc *scope, st *state) {
	v := a.lookup(sc, id.Value)
	if v == nil {
		return
	}
	vs, ok := st.vars[v]
	if !ok || !vs.has(c) {
		return
	}
	out := make(vset, 0, len(vs)-1)
	for _, x := range vs {
		if x.id != c.id {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		st.dead = true
		return
	}
	st.vars[v] = out
}
