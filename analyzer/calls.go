package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// A keyGroup is one key argument: its possible values.
type keyGroup []kval

// checkBody checks every call in a function body, closures included.
func (c *checker) checkBody(e *evaluator, s *summary) {
	ast.Inspect(s.decl.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			c.checkCall(e, s, call)
		}
		return true
	})
}

// resolve returns the called function and its rule, if any: a client
// method from the rules' table, or a wrapper the user declared.
func (c *checker) resolve(call *ast.CallExpr) (*types.Func, *ruleset.Method) {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return nil, nil
	}
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return fn, nil
	}
	recv := ""
	if r := fn.Signature().Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			recv = n.Obj().Name()
		}
	}
	if m := c.rules.Method(fn.Pkg().Path(), recv, fn.Name()); m != nil {
		return fn, m
	}
	if w := c.rules.Wrapper(fn.FullName()); w != nil {
		return fn, w.Method
	}
	return fn, nil
}

// checkCall checks one call: a command's keys, a transaction, a script, or
// the commands a wrapper issues.
func (c *checker) checkCall(e *evaluator, s *summary, call *ast.CallExpr) {
	fn, m := c.resolve(call)
	if fn == nil {
		return
	}
	if m == nil {
		if x := c.librarySource(call); x != nil {
			c.checkLibraryLoad(e, s, call, x)
			return
		}
		c.checkWrapperCall(e, s, call, fn)
		return
	}
	switch m.Kind {
	case ruleset.KindCommand:
		groups, _ := c.selectKeys(e, call, m.Keys)
		groups = append(groups, c.patternKeys(e, s, call, m)...)
		c.checkKeys(e, s, call, commandName(m, fn), groups)
		c.checkDB(s, call, m)
	case ruleset.KindFunction:
		groups, open := c.selectKeys(e, call, m.Keys)
		c.checkKeys(e, s, call, commandName(m, fn), append(groups, c.patternKeys(e, s, call, m)...))
		c.checkDB(s, call, m)
		c.functionCall(e, s, call, m, groups, open)
	case ruleset.KindScript, ruleset.KindScriptSHA:
		groups, open := c.selectKeys(e, call, m.Keys)
		c.checkKeys(e, s, call, commandName(m, fn), groups)
		c.scriptCall(e, s, call, m, groups, open)
	case ruleset.KindNewScript, ruleset.KindScriptLoad:
		// A script with no call in sight is still checked for what does not
		// depend on a call: its syntax, its flags, keys it makes up.
		if m.Script >= 0 && m.Script < len(call.Args) {
			if ref, ok := c.scriptOf(e, call.Args[m.Script], c.initName(call)); ok {
				c.checkScriptDef(s, call, ref)
			}
		}
	case ruleset.KindRaw:
		c.checkRaw(e, s, call, m)
	case ruleset.KindWatch:
		c.checkWatch(e, s, call, m)
	case ruleset.KindTxPipelined:
		c.checkTxPipelined(e, s, call, m)
	case ruleset.KindTxPipeline:
		c.checkTxPipeline(e, s, call)
	}
}

func commandName(m *ruleset.Method, fn *types.Func) string {
	if m.Command != "" {
		return strings.ToUpper(m.Command)
	}
	return fn.Name()
}

// selectKeys returns the keys that selectors pick out of a call's
// arguments. open is true when some keys cannot be seen.
func (c *checker) selectKeys(e *evaluator, call *ast.CallExpr, sels []ruleset.Selector) (groups []keyGroup, open bool) {
	args := call.Args
	for _, sel := range sels {
		if sel.Param >= len(args) {
			continue
		}
		arg := args[sel.Param]
		if sel.Field != "" {
			arg = c.fieldExpr(e, arg, sel.Field)
			if arg == nil {
				open = true
				continue
			}
		}
		switch {
		case sel.Variadic && !(call.Ellipsis.IsValid() && len(args) == sel.Param+1):
			for i := sel.Param; i < len(args); i += max(sel.Step, 1) {
				groups = append(groups, e.keys(args[i]))
			}
		case sel.Variadic || sel.Slice:
			sl := e.slice(arg)
			open = open || sl.open
			elems := sl.elems
			if sel.Half {
				if sl.open || hasMany(elems) {
					open = true
					continue
				}
				elems = elems[:len(elems)/2]
			}
			for i := 0; i < len(elems); i += max(sel.Step, 1) {
				el := elems[i]
				groups = append(groups, el.alts)
				if el.many {
					// Another iteration of the loop that built it.
					var again keyGroup
					for _, a := range el.alts {
						again = append(again, kval{e.vary(a.key), a.pos})
					}
					groups = append(groups, again)
				}
			}
		default:
			groups = append(groups, e.keys(arg))
		}
	}
	return groups, open
}

func hasMany(elems []elem) bool {
	for _, el := range elems {
		if el.many {
			return true
		}
	}
	return false
}

// fieldExpr returns the expression that sets field name of the struct that
// x builds: &T{Name: v}, T{Name: v}, or a variable set once to one.
func (c *checker) fieldExpr(e *evaluator, x ast.Expr, name string) ast.Expr {
	switch x := ast.Unparen(x).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.fieldExpr(e, x.X, name)
		}
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
					return kv.Value
				}
			}
		}
	case *ast.Ident:
		if v := e.localVar(x); v != nil {
			if defs := e.defs[v]; len(defs) == 1 && defs[0].rhs != nil {
				return c.fieldExpr(e, defs[0].rhs, name)
			}
		}
	}
	return nil
}

// checkKeys reports keys of one command, transaction or script that may
// not share a slot. When the doubt comes from the function's parameters,
// it records the command for the function's callers instead.
func (c *checker) checkKeys(e *evaluator, s *summary, call *ast.CallExpr, name string, groups []keyGroup) {
	if len(groups) < 2 {
		return
	}
	col, chosen := colocate(groups)
	if col.Verdict == keyspace.Same {
		return
	}
	if col.Verdict == keyspace.Maybe && passesParam(chosen) {
		w := wrappedCall{Command: name, Where: c.where(call.Pos()), Pos: call.Pos()}
		for _, k := range chosen {
			w.Keys = append(w.Keys, k.key)
		}
		s.wrapped = append(s.wrapped, w)
		return
	}
	a, b := chosen[col.Pair[0]], chosen[col.Pair[1]]
	d := diag{
		pos:      call.Pos(),
		end:      call.End(),
		category: categoryOf(col.Verdict),
		message:  fmt.Sprintf("%s %s; %s", name, reason(col, a.key, b.key), col.Fix),
	}
	for _, k := range []kval{a, b} {
		if k.pos.IsValid() && (k.pos < call.Pos() || k.pos >= call.End()) {
			d.related = append(d.related, analysis.RelatedInformation{Pos: k.pos, Message: fmt.Sprintf("key %s is built here", k.key.Quote())})
		}
	}
	s.diags = append(s.diags, d)
}

// reason is the colocation's reason, worded for two keys that look the same
// because a loop built them from different values.
func reason(col keyspace.Colocation, a, b keyspace.Key) string {
	if a.String() != b.String() {
		return col.Reason
	}
	verb := "may hash to different slots"
	if col.Verdict == keyspace.Different {
		verb = "hash to different slots"
	}
	return fmt.Sprintf("keys built as %s from different values %s", a.Quote(), verb)
}

func categoryOf(v keyspace.Verdict) string {
	if v == keyspace.Different {
		return "cross-slot"
	}
	return "maybe-cross-slot"
}

// maxCombos bounds the combinations of alternatives that colocate tries.
const maxCombos = 64

// colocate gives the verdict on groups of alternatives: the worst over
// their combinations, and the combination that has it.
func colocate(groups []keyGroup) (keyspace.Colocation, []kval) {
	idx := make([]int, len(groups))
	var worst keyspace.Colocation
	var worstKeys []kval
	for n := 0; n < maxCombos; n++ {
		keys := make([]keyspace.Key, len(groups))
		chosen := make([]kval, len(groups))
		for i, g := range groups {
			if len(g) == 0 {
				continue
			}
			chosen[i] = g[idx[i]]
			keys[i] = chosen[i].key
		}
		col := keyspace.Colocate(keys...)
		if worstKeys == nil || col.Verdict > worst.Verdict {
			worst, worstKeys = col, chosen
		}
		if worst.Verdict == keyspace.Different {
			break
		}
		// The next combination, odometer style.
		i := 0
		for ; i < len(groups); i++ {
			idx[i]++
			if idx[i] < len(groups[i]) {
				break
			}
			idx[i] = 0
		}
		if i == len(groups) {
			break
		}
	}
	return worst, worstKeys
}

// passesParam reports whether one of the keys is a parameter of the
// function, passed on as it is: only the function's callers know that key,
// so they are checked instead. A function that builds keys around its
// parameters ("emq:{" + queue + "}:pending") owns their design, and is
// checked itself.
func passesParam(keys []kval) bool {
	for _, k := range keys {
		if p := k.key.Parts; len(p) == 1 && p[0].Unknown && isParamID(p[0].ID) {
			return true
		}
	}
	return false
}

// isParamID reports whether id is a summary's "$N".
func isParamID(id string) bool {
	if len(id) < 2 || id[0] != '$' {
		return false
	}
	for _, c := range id[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// checkWrapperCall checks a call to a function that passes keys built from
// its parameters to commands: a summary here, or a fact from its package.
func (c *checker) checkWrapperCall(e *evaluator, s *summary, call *ast.CallExpr, fn *types.Func) {
	var wrapped []wrappedCall
	if decl := c.decls[fn]; decl != nil && decl.Body != nil {
		ws := c.summarize(decl)
		if ws.busy {
			return
		}
		wrapped = ws.wrapped
	} else {
		var f keyWrapper
		if !c.pass.ImportObjectFact(fn, &f) {
			return
		}
		wrapped = f.Calls
	}
	for _, w := range wrapped {
		var groups []keyGroup
		for _, k := range w.Keys {
			var g keyGroup
			for _, sk := range c.substitute(e, call, k) {
				g = append(g, kval{sk, call.Pos()})
			}
			groups = append(groups, g)
		}
		name := fmt.Sprintf("%s (through %s at %s)", w.Command, fn.Name(), w.Where)
		c.checkKeys(e, s, call, name, groups)
	}
}

// checkDB reports COPY to a database other than 0, which Redis Cluster
// refuses.
func (c *checker) checkDB(s *summary, call *ast.CallExpr, m *ruleset.Method) {
	if m.DB < 0 || m.DB >= len(call.Args) {
		return
	}
	tv := c.pass.TypesInfo.Types[call.Args[m.DB]]
	if tv.Value == nil || tv.Value.Kind() != constant.Int {
		return
	}
	if db, ok := constant.Int64Val(tv.Value); ok && db != 0 {
		s.diags = append(s.diags, diag{
			pos:      call.Args[m.DB].Pos(),
			end:      call.Args[m.DB].End(),
			category: "copy-db",
			message:  fmt.Sprintf("%s to db %d fails on Redis Cluster, which has only db 0; copy within db 0", strings.ToUpper(m.Command), db),
		})
	}
}

// patternKeys returns the SORT BY and GET patterns that carry a hashtag, as
// keys that must share the sorted key's slot, and reports those without one.
func (c *checker) patternKeys(e *evaluator, s *summary, call *ast.CallExpr, m *ruleset.Method) []keyGroup {
	if len(m.Patterns) == 0 {
		return nil
	}
	groups, _ := c.selectKeys(e, call, m.Patterns)
	var out []keyGroup
	for _, g := range groups {
		if len(g) != 1 {
			continue
		}
		k := g[0]
		text, ok := k.key.Literal()
		if !ok || text == "" || text == "#" || text == "nosort" {
			continue
		}
		if sub := k.key.Subject(); sub.Kind == keyspace.SubjectTag && !strings.Contains(text[:strings.IndexByte(text, '}')], "*") {
			out = append(out, g)
			continue
		}
		s.diags = append(s.diags, diag{
			pos:      k.pos,
			end:      k.pos,
			category: "cross-slot",
			message:  fmt.Sprintf("%s pattern %s has no hashtag outside its '*', so Redis Cluster refuses it; give the pattern the sorted key's hashtag", strings.ToUpper(m.Command), k.key.Quote()),
		})
	}
	return out
}

// checkRaw checks Do(ctx, "CMD", args...) through the command's key specs.
func (c *checker) checkRaw(e *evaluator, s *summary, call *ast.CallExpr, m *ruleset.Method) {
	if m.Args == nil || call.Ellipsis.IsValid() || m.Args.Param >= len(call.Args) {
		return
	}
	args := call.Args[m.Args.Param:]
	argv := make([]string, len(args))
	for i, a := range args {
		if tv := c.pass.TypesInfo.Types[a]; tv.Value != nil {
			argv[i], _ = constString(tv.Value)
		}
	}
	if argv[0] == "" {
		return
	}
	cmd := c.rules.Command(argv[0])
	if len(argv) > 1 && argv[1] != "" {
		cmd = c.rules.Command(argv[0], argv[1])
	}
	if cmd == nil {
		return
	}
	pos, _ := cmd.KeyPositions(argv)
	var groups []keyGroup
	for _, p := range pos {
		if p < len(args) {
			groups = append(groups, e.keys(args[p]))
		}
	}
	c.checkKeys(e, s, call, strings.ToUpper(argv[0]), groups)
	c.rawScript(e, s, call, args, argv)
}
