package keymap

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/keyflow/flowpass"
	"github.com/slotlint/slotlint/keyspace"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

const doc = `map the key families that Redis calls build, and which are used together

keymap follows the keys of every Redis call with slotlint's key-flow
engine and records, for each package, the key families its calls build
(their templates, the helper, template or constant that builds them, the
commands that touch them, where they are built) and the commands,
transactions and scripts that use several families together, with the
verdict on whether their keys share a slot. It reports nothing: each
package's part is a package fact, which "slotlint keys" joins into the
keyspace map of the program.`

// Analyzer computes each package's part of the keyspace map (a *Part,
// exported as a package fact and returned as the result) from the
// key-flow model of package flowpass.
var Analyzer = &analysis.Analyzer{
	Name:       "keymap",
	Doc:        doc,
	URL:        "https://github.com/slotlint/slotlint/blob/main/docs/keymap.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{flowpass.Analyzer},
	FactTypes:  []analysis.Fact{new(Part)},
	ResultType: reflect.TypeOf((*Part)(nil)),
}

func init() {
	flowpass.RulesFlags(&Analyzer.Flags)
}

func run(pass *analysis.Pass) (any, error) {
	part := &Part{Path: pass.Pkg.Path()}
	if pass.Module != nil {
		part.Module = pass.Module.Path
	}
	model := pass.ResultOf[flowpass.Analyzer].(*flowpass.Model)
	sends := false
	model.Use(func(flow *keyflow.Engine) {
		sends = flow.SendsCommands()
		if sends {
			mapPackage(pass, flow, part)
		}
	})
	if sends {
		// Every package that can send commands has a part, even an empty
		// one: it tells a driver the package's module.
		pass.ExportPackageFact(part)
	}
	return part, nil
}

// mapPackage fills the part of a package that can send commands.
func mapPackage(pass *analysis.Pass, flow *keyflow.Engine, part *Part) {
	funcs := flow.Funcs()
	// Only the positions where keys are built are looked up: index the
	// syntax at those alone.
	wanted := map[token.Pos]bool{}
	for _, fn := range funcs {
		for _, site := range fn.Sites {
			for _, g := range site.AllKeys() {
				for _, v := range g {
					wanted[v.Pos] = true
				}
			}
		}
	}
	b := newBuilder(pass, flow, part, wanted)
	for _, fn := range funcs {
		for _, site := range fn.Sites {
			b.site(site)
		}
	}
	b.finish()
}

// A builder makes the part of one package.
type builder struct {
	pass *analysis.Pass
	flow *keyflow.Engine
	part *Part
	fams map[string]*PartFamily
	// calls and names are the calls and the identifiers or selectors that
	// start at each position, outermost first.
	calls map[token.Pos]*ast.CallExpr
	names map[token.Pos]ast.Expr
	// templates are the texts of the package's template variables.
	templates map[*types.Var]string
	cache     map[token.Pos]familyAt
}

// familyAt is the family that builds the keys of one position.
type familyAt struct {
	id, name, origin string
	rank             int
	tmpl             *keyspace.Template
}

// newBuilder indexes the calls and names that start at the wanted
// positions, and the package's template variables.
func newBuilder(pass *analysis.Pass, flow *keyflow.Engine, part *Part, wanted map[token.Pos]bool) *builder {
	b := &builder{pass: pass, flow: flow, part: part, fams: map[string]*PartFamily{},
		calls: map[token.Pos]*ast.CallExpr{}, names: map[token.Pos]ast.Expr{},
		templates: map[*types.Var]string{}, cache: map[token.Pos]familyAt{}}
	if len(wanted) == 0 {
		return b
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if _, ok := b.calls[n.Pos()]; !ok && wanted[n.Pos()] {
					b.calls[n.Pos()] = n
				}
			case *ast.Ident, *ast.SelectorExpr:
				if _, ok := b.names[n.Pos()]; !ok && wanted[n.Pos()] {
					b.names[n.Pos()] = n.(ast.Expr)
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if i >= len(n.Values) {
						break
					}
					if text, ok := templateCall(pass.TypesInfo, n.Values[i]); ok {
						if v, ok := pass.TypesInfo.Defs[id].(*types.Var); ok {
							b.templates[v] = text
						}
					}
				}
			}
			return true
		})
	}
	return b
}

const keyspacePath = "github.com/slotlint/slotlint/keyspace"

// templateCall returns the text of keyspace.MustTemplate("...") or
// ParseTemplate("...").
func templateCall(info *types.Info, x ast.Expr) (string, bool) {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != keyspacePath || (fn.Name() != "MustTemplate" && fn.Name() != "ParseTemplate") {
		return "", false
	}
	tv := info.Types[call.Args[0]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

func (b *builder) where(pos token.Pos) string {
	p := b.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}

// site records one Redis call: the families of its keys, the command that
// touches them, and the families it uses together.
func (b *builder) site(s *keyflow.Site) {
	isTx := s.Tx != nil
	if isTx && s.Tx.Kind == keyflow.TxPlain {
		return
	}
	groups := s.AllKeys()
	ids := make([][]string, len(groups))
	for i, g := range groups {
		for _, v := range g {
			id := b.value(v)
			ids[i] = append(ids[i], id)
			if id == "" {
				continue
			}
			if isTx {
				if s.Tx.Kind == keyflow.TxWatch && i < len(s.Tx.Watched) {
					b.command(id, Command{Name: "WATCH", Read: true})
				}
			} else if s.Command != "" {
				b.command(id, Command{Name: s.Command, Read: s.Read, Write: s.Write})
			}
		}
	}
	if len(groups) < 2 || s.Carried {
		return
	}
	kind := "command"
	switch {
	case isTx:
		kind = "transaction"
	case s.Script != nil:
		kind = "script"
	}
	u := &Use{Kind: kind, Call: s.Name, Where: b.where(s.Call.Pos()), Open: s.Open}
	worst := map[[2]string]keyspace.Verdict{}
	var order [][2]string
	for i := range groups {
		for j := i + 1; j < len(groups); j++ {
			for x, a := range groups[i] {
				for y, c := range groups[j] {
					ia, ic := ids[i][x], ids[j][y]
					if ia == "" || ic == "" {
						u.Open = true
						continue
					}
					if a.Key.Equal(c.Key) {
						continue // one key, used twice
					}
					if ic < ia {
						ia, ic = ic, ia
					}
					key := [2]string{ia, ic}
					v := keyspace.Colocate(a.Key, c.Key).Verdict
					if old, ok := worst[key]; !ok {
						order = append(order, key)
						worst[key] = v
					} else if v > old {
						worst[key] = v
					}
				}
			}
		}
	}
	for _, k := range order {
		u.Pairs = append(u.Pairs, Pair{A: k[0], B: k[1], Verdict: worst[k]})
	}
	if len(u.Pairs) > 0 {
		b.part.Uses = append(b.part.Uses, u)
	}
}

func (b *builder) command(id string, c Command) {
	f := b.fams[id]
	if !slices.Contains(f.Commands, c) {
		f.Commands = append(f.Commands, c)
	}
}

// value records where a key is built and returns its family's ID, or ""
// for a key that is all unknown.
func (b *builder) value(v keyflow.Value) string {
	at := b.familyOf(v)
	if at.id == "" {
		b.part.Unknown++
		return ""
	}
	f := b.fams[at.id]
	if f == nil {
		f = &PartFamily{ID: at.id, Name: at.name, Origin: at.origin, Rank: at.rank, Literal: true}
		b.fams[at.id] = f
		b.part.Families = append(b.part.Families, f)
	}
	lit := v.Key.IsLiteral()
	f.Literal = f.Literal && lit && at.rank < 2
	slot := -1
	if s, ok := v.Key.Slot(); ok {
		slot = s
	}
	built := BuiltAt{Where: b.where(v.Pos), Key: v.Key.String(), Slot: slot}
	if !slices.Contains(f.Sites, built) {
		f.Sites = append(f.Sites, built)
	}
	return at.id
}

// familyOf finds the family of a key: the keyspace template or the helper
// called where it is built, the constant it names, or else the key's own
// shape.
func (b *builder) familyOf(v keyflow.Value) familyAt {
	if at, ok := b.cache[v.Pos]; ok && at.fits(v.Key) {
		return at
	}
	at := b.origin(v)
	if at.id == "" || !at.fits(v.Key) {
		at = familyAt{}
		if text, ok := templateOf(v.Key); ok {
			at.id = text
		} else if hasLiteral(v.Key) {
			at.id = "key:" + v.Key.String()
		}
		if at.id != "" && v.Key.IsLiteral() {
			if x := b.names[v.Pos]; x != nil {
				if obj := b.objectOf(x); obj != nil {
					at.name, at.rank = obj.Name(), 1
					at.origin = "constant " + qualified(obj)
				}
			}
		}
		return at
	}
	b.cache[v.Pos] = at
	return at
}

// fits reports whether a key is one that the family's template builds.
func (at familyAt) fits(k keyspace.Key) bool {
	if at.tmpl == nil {
		return at.id != ""
	}
	_, ok := at.tmpl.Match(k.String())
	if !ok && k.IsLiteral() {
		s, _ := k.Literal()
		_, ok = at.tmpl.Match(s)
	}
	return ok
}

func hasLiteral(k keyspace.Key) bool {
	for _, p := range k.Parts {
		if !p.Unknown {
			return true
		}
	}
	return false
}

// origin is the family of a key built by a call: a keyspace template's Key
// or Build, or a helper whose summary returns one key.
func (b *builder) origin(v keyflow.Value) familyAt {
	call := b.calls[v.Pos]
	if call == nil {
		return familyAt{}
	}
	info := b.pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return familyAt{}
	}
	fn = fn.Origin()
	if fn.Pkg().Path() == keyspacePath && (fn.Name() == "Key" || fn.Name() == "Build") {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return familyAt{}
		}
		obj, _ := b.objectOf(sel.X).(*types.Var)
		if obj == nil {
			return familyAt{}
		}
		text, ok := b.templates[obj]
		if !ok {
			var f keyflow.KeyVar
			if b.flow.Fact(obj, &f) && f.Template != "" {
				text, ok = f.Template, true
			}
		}
		if !ok {
			return familyAt{}
		}
		t, err := keyspace.ParseTemplate(text)
		if err != nil {
			return familyAt{}
		}
		return familyAt{id: text, name: obj.Name(), origin: "template " + qualified(obj), rank: 3, tmpl: t}
	}
	var results []keyspace.Key
	if f := b.flow.Func(fn); f != nil {
		for _, r := range f.Results {
			results = append(results, r.Key)
		}
	} else {
		var f keyflow.KeyFunc
		if b.flow.Fact(fn, &f) {
			results = f.Results
		}
	}
	if len(results) != 1 {
		return familyAt{}
	}
	text, ok := templateOf(results[0])
	if !ok {
		return familyAt{}
	}
	t, err := keyspace.ParseTemplate(text)
	if err != nil {
		return familyAt{}
	}
	return familyAt{id: text, name: fn.Name(), origin: "helper " + qualified(fn), rank: 2, tmpl: t}
}

// objectOf is the package-level variable or constant an identifier or a
// selector names, or nil.
func (b *builder) objectOf(x ast.Expr) types.Object {
	id := keyflow.IdentOf(x)
	if id == nil {
		return nil
	}
	obj := b.pass.TypesInfo.ObjectOf(id)
	switch obj := obj.(type) {
	case *types.Const:
		return obj
	case *types.Var:
		if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
			return obj
		}
	}
	return nil
}

// qualified is pkg.Name, the package by its last element.
func qualified(obj types.Object) string {
	if obj.Pkg() == nil {
		return obj.Name()
	}
	path := obj.Pkg().Path()
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	return path + "." + obj.Name()
}

// finish puts the part in a stable order.
func (b *builder) finish() {
	for _, f := range b.part.Families {
		slices.SortFunc(f.Commands, func(x, y Command) int { return strings.Compare(x.Name, y.Name) })
	}
}
