package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// keyFunc is the fact that a function returns a key built from its
// parameters: its possible results, with unknowns "$0", "$1", ... standing
// for the arguments and "$recv.f" for fields of the receiver.
type keyFunc struct {
	Results []keyspace.Key
}

func (*keyFunc) AFact() {}

func (f *keyFunc) String() string {
	s := make([]string, len(f.Results))
	for i, k := range f.Results {
		s[i] = strconv.Quote(k.String())
	}
	return "keyFunc(" + strings.Join(s, ", ") + ")"
}

// keyVar is the fact that a package-level variable holds a known key, or a
// keyspace template.
type keyVar struct {
	Keys     []keyspace.Key
	Template string // the template's text, for a *keyspace.Template
}

func (*keyVar) AFact() {}

func (f *keyVar) String() string {
	if f.Template != "" {
		return "keyTemplate(" + strconv.Quote(f.Template) + ")"
	}
	s := make([]string, len(f.Keys))
	for i, k := range f.Keys {
		s[i] = strconv.Quote(k.String())
	}
	return "keyVar(" + strings.Join(s, ", ") + ")"
}

// keyWrapper is the fact that a function passes keys built from its
// parameters to commands whose keys must share a slot, so that the
// function's callers are checked instead.
type keyWrapper struct {
	Calls []wrappedCall
}

func (*keyWrapper) AFact() {}

func (f *keyWrapper) String() string {
	s := make([]string, len(f.Calls))
	for i, c := range f.Calls {
		keys := make([]string, len(c.Keys))
		for j, k := range c.Keys {
			keys[j] = strconv.Quote(k.String())
		}
		s[i] = c.Command + " " + strings.Join(keys, " ")
	}
	return "keyWrapper(" + strings.Join(s, "; ") + ")"
}

// A wrappedCall is a command inside a wrapper, its keys in terms of the
// wrapper's parameters.
type wrappedCall struct {
	Command string
	Keys    []keyspace.Key
	Where   string // the call's position, for messages
	Pos     token.Pos
}

// A summary is what slotlint learned of one function declaration.
type summary struct {
	decl    *ast.FuncDecl
	busy    bool
	results []kval
	wrapped []wrappedCall
	diags   []diag
}

// summarize analyzes a function declaration once: what key it returns, the
// commands it issues, and what to report in it.
func (c *checker) summarize(decl *ast.FuncDecl) *summary {
	fn, _ := c.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if s := c.summaries[fn]; s != nil {
		return s
	}
	s := &summary{decl: decl, busy: true}
	c.summaries[fn] = s
	sig := fn.Signature()
	returnsKey := sig.Results().Len() > 0 && isStringType(sig.Results().At(0).Type())
	if !returnsKey && !c.checkCalls {
		// Where no command can be sent only the keys a function returns
		// matter: do not collect the assignments of the others.
		s.busy = false
		return s
	}
	e := newEvaluator(c, decl)
	if returnsKey {
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) > 0 {
					s.results = append(s.results, e.keys(n.Results[0])...)
				}
			}
			return true
		})
		if len(s.results) > maxAlts || allOpaque(s.results) {
			s.results = nil
		}
	}
	if c.checkCalls {
		c.checkBody(e, s)
		c.checkAtomicity(e, s)
	}
	s.busy = false
	return s
}

func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// allOpaque reports whether no alternative says more than "some value".
func allOpaque(alts []kval) bool {
	for _, a := range alts {
		if len(a.key.Parts) != 1 || !a.key.Parts[0].Unknown || strings.HasPrefix(a.key.Parts[0].ID, "$") {
			return false
		}
	}
	return true
}

func (c *checker) orderedSummaries() []*summary {
	out := make([]*summary, 0, len(c.summaries))
	for _, s := range c.summaries {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *summary) int { return int(a.decl.Pos() - b.decl.Pos()) })
	return out
}

// summaryCall evaluates a call to a function that returns a key built from
// its arguments.
func (c *checker) summaryCall(e *evaluator, call *ast.CallExpr, fn *types.Func) ([]kval, bool) {
	var results []keyspace.Key
	if decl := c.decls[fn.Origin()]; decl != nil && decl.Body != nil {
		s := c.summarize(decl)
		if s.busy {
			return nil, false
		}
		for _, r := range s.results {
			results = append(results, r.key)
		}
	} else {
		var f keyFunc
		if !c.pass.ImportObjectFact(fn.Origin(), &f) {
			return nil, false
		}
		results = f.Results
	}
	if len(results) == 0 {
		return nil, false
	}
	var out []kval
	for _, r := range results {
		for _, k := range c.substitute(e, call, r) {
			out = append(out, kval{k, call.Pos()})
		}
	}
	if len(out) == 0 || len(out) > maxAlts {
		return nil, false
	}
	return out, true
}

// substitute puts a call's arguments in place of the parameters that a
// summary key refers to. The callee's own locals become fresh values.
func (c *checker) substitute(e *evaluator, call *ast.CallExpr, k keyspace.Key) []keyspace.Key {
	out := []keyspace.Key{{}}
	for _, p := range k.Parts {
		var alts []keyspace.Key
		switch {
		case !p.Unknown:
			alts = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		case strings.HasPrefix(p.ID, "$"):
			alts = c.paramValue(e, call, p)
		case strings.Contains(p.ID, "@"):
			p.ID = ""
			alts = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		default:
			alts = []keyspace.Key{{Parts: []keyspace.Part{p}}}
		}
		next := make([]keyspace.Key, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, keyspace.Concat(o, a))
			}
		}
		out = next
		if len(out) > maxAlts {
			return []keyspace.Key{keyspace.Unknown("", e.c.exprName(call), false)}
		}
	}
	return out
}

// paramValue is the value of a summary's "$N", "$N.f" or "$recv.f" at a call.
func (c *checker) paramValue(e *evaluator, call *ast.CallExpr, p keyspace.Part) []keyspace.Key {
	param, path, _ := strings.Cut(p.ID[1:], ".")
	var arg ast.Expr
	if param == "recv" {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			arg = sel.X
		}
	} else if i, err := strconv.Atoi(param); err == nil && i < len(call.Args) && !call.Ellipsis.IsValid() {
		arg = call.Args[i]
	}
	anon := []keyspace.Key{keyspace.Unknown("", p.Name, p.NoBraces)}
	if arg == nil {
		return anon
	}
	if path != "" {
		id := e.identity(arg)
		if id == "" {
			return anon
		}
		return []keyspace.Key{keyspace.Unknown(id+"."+path, c.exprName(arg)+"."+path, p.NoBraces)}
	}
	var out []keyspace.Key
	for _, a := range e.keys(arg) {
		out = append(out, a.key)
	}
	return out
}

// packageVar evaluates a package-level variable: its initializer when it is
// never assigned, or what a fact from its package says.
func (c *checker) packageVar(v *types.Var, pos token.Pos) []kval {
	id := v.Pkg().Path() + "." + v.Name()
	self := []kval{{keyspace.Unknown(id, v.Name(), false), pos}}
	if v.Pkg() == c.pass.Pkg {
		init, ok := c.pkgVars[v]
		if !ok || c.pkgEval.busy[v] {
			return self
		}
		c.pkgEval.busy[v] = true
		defer delete(c.pkgEval.busy, v)
		alts := c.pkgEval.keys(init)
		return identify(alts, id, v.Name())
	}
	var f keyVar
	if c.pass.ImportObjectFact(v, &f) && len(f.Keys) > 0 {
		out := make([]kval, len(f.Keys))
		for i, k := range f.Keys {
			out[i] = kval{k, pos}
		}
		return out
	}
	return self
}

// packageSlice is what is known of a package-level []string variable.
func (c *checker) packageSlice(v *types.Var) slice {
	init, ok := c.pkgVars[v]
	if v.Pkg() != c.pass.Pkg || !ok || c.pkgEval.busy[v] {
		return slice{open: true}
	}
	c.pkgEval.busy[v] = true
	defer delete(c.pkgEval.busy, v)
	return c.pkgEval.slice(init)
}

// exportFacts exports the summaries of this package's functions and
// variables for the packages that import it.
func (c *checker) exportFacts() {
	for fn, decl := range c.decls {
		// Only exported functions can be called from other packages.
		if decl.Body == nil || !fn.Exported() {
			continue
		}
		s := c.summarize(decl)
		if len(s.results) > 0 {
			f := &keyFunc{}
			for _, r := range s.results {
				f.Results = append(f.Results, r.key)
			}
			c.pass.ExportObjectFact(fn, f)
		}
		if len(s.wrapped) > 0 {
			c.pass.ExportObjectFact(fn, &keyWrapper{Calls: s.wrapped})
		}
	}
	for v, init := range c.pkgVars {
		if !v.Exported() {
			continue
		}
		if text, ok := c.templateText(c.pkgEval, init); ok {
			c.pass.ExportObjectFact(v, &keyVar{Template: text})
			continue
		}
		if !isStringType(v.Type()) {
			continue
		}
		alts := c.packageVar(v, init.Pos())
		if allOpaque(alts) {
			continue
		}
		f := &keyVar{}
		for _, a := range alts {
			f.Keys = append(f.Keys, a.key)
		}
		c.pass.ExportObjectFact(v, f)
	}
}

// where shows a position as file:line, for messages about other functions.
func (c *checker) where(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", shortFile(p.Filename), p.Line)
}

func shortFile(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}
