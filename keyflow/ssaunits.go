package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// The SSA layer builds the bodies of only the top-level declarations its
// questions need, not the whole package: a large test package, whose SSA
// form with debug references would double the memory the analysis takes,
// usually asks about a few of its functions.
//
// A unit is a top-level declaration with code: a function or method
// declaration, or the specification of package-level variables with
// initial values (where a test package's closures live). A question about
// an expression needs the unit holding it, the units that call or name a
// needed function (whose arguments its parameters stand for), what those
// call (whose results they use), where a needed unit receives from a
// channel, the units that send on one, and where it reads a field that
// holds a list of strings, every unit that names the field (fieldColl).
// The rest are declared without a body, as functions of other packages
// are.

// unitGraph is the package's units and how they refer to each other.
type unitGraph struct {
	units []ast.Node // *ast.FuncDecl or *ast.ValueSpec, by position
	// callers are the units that name each unit's function; calls the
	// units whose functions each unit names, where those return what can
	// hold a key.
	calls, callers map[ast.Node][]ast.Node
	// senders are the units with a channel send; receives marks those
	// that receive.
	senders  []ast.Node
	receives map[ast.Node]bool
	// listFields are the units that name each of the package's fields of
	// type []string or []interface{}; readsList those each unit names.
	listFields map[*types.Var][]ast.Node
	readsList  map[ast.Node][]*types.Var
}

// unitGraph returns the package's units, indexed on first use.
func (g *Engine) unitGraph() *unitGraph {
	if g.ssaUnits != nil {
		return g.ssaUnits
	}
	u := &unitGraph{
		calls:      map[ast.Node][]ast.Node{},
		callers:    map[ast.Node][]ast.Node{},
		receives:   map[ast.Node]bool{},
		listFields: map[*types.Var][]ast.Node{},
		readsList:  map[ast.Node][]*types.Var{},
	}
	declOf := map[*types.Func]ast.Node{}
	for _, f := range g.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body == nil {
					continue
				}
				u.units = append(u.units, d)
				if fn, ok := g.info.Defs[d.Name].(*types.Func); ok {
					declOf[fn] = d
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok && len(vs.Values) > 0 {
						u.units = append(u.units, vs)
					}
				}
			}
		}
	}
	slices.SortFunc(u.units, func(a, b ast.Node) int { return int(a.Pos() - b.Pos()) })
	for _, unit := range u.units {
		named := map[ast.Node]bool{}
		sends := false
		fields := map[*types.Var]bool{}
		ast.Inspect(unit, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if fn, ok := g.info.Uses[n].(*types.Func); ok {
					if d := declOf[fn.Origin()]; d != nil && d != unit {
						named[d] = true
					}
				}
				if v, ok := g.info.Uses[n].(*types.Var); ok && v.IsField() && v.Pkg() == g.pkg && isKeyList(v.Type()) && !fields[v] {
					fields[v] = true
					u.listFields[v] = append(u.listFields[v], unit)
					u.readsList[unit] = append(u.readsList[unit], v)
				}
			case *ast.SendStmt:
				sends = true
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					u.receives[unit] = true
				}
			case *ast.RangeStmt:
				if _, ok := g.info.TypeOf(n.X).Underlying().(*types.Chan); ok {
					u.receives[unit] = true
				}
			}
			return true
		})
		if sends {
			u.senders = append(u.senders, unit)
		}
		for d := range named {
			u.callers[d] = append(u.callers[d], unit)
			if fn, ok := g.info.Defs[d.(*ast.FuncDecl).Name].(*types.Func); ok && returnsKeys(fn) {
				u.calls[unit] = append(u.calls[unit], d)
			}
		}
	}
	g.ssaUnits = u
	return u
}

// at returns the unit that holds pos, or nil.
func (u *unitGraph) at(pos token.Pos) ast.Node {
	i, _ := slices.BinarySearchFunc(u.units, pos, func(n ast.Node, p token.Pos) int {
		switch {
		case n.End() <= p:
			return -1
		case n.Pos() > p:
			return 1
		}
		return 0
	})
	if i < len(u.units) && u.units[i].Pos() <= pos && pos < u.units[i].End() {
		return u.units[i]
	}
	return nil
}

// needed returns the units that questions about the seeds need: the
// seeds, their callers to any depth, everything those call to any depth,
// and where one of them receives from a channel, the senders with theirs.
func (u *unitGraph) needed(seeds []ast.Node) map[ast.Node]bool {
	out := map[ast.Node]bool{}
	var walk func(n ast.Node, edges map[ast.Node][]ast.Node, into map[ast.Node]bool)
	walk = func(n ast.Node, edges map[ast.Node][]ast.Node, into map[ast.Node]bool) {
		if into[n] {
			return
		}
		into[n] = true
		for _, m := range edges[n] {
			walk(m, edges, into)
		}
	}
	grow := func(seeds []ast.Node) {
		up := map[ast.Node]bool{}
		for _, s := range seeds {
			walk(s, u.callers, up)
		}
		for n := range up {
			walk(n, u.calls, out)
		}
	}
	grow(seeds)
	for n := range out {
		if u.receives[n] {
			grow(u.senders)
			break
		}
	}
	done := map[*types.Var]bool{}
	for more := true; more; {
		more = false
		for n := range out {
			for _, f := range u.readsList[n] {
				if !done[f] {
					done[f] = true
					more = true
					grow(u.listFields[f])
				}
			}
		}
	}
	return out
}

// isKeyList reports whether t is []string or []interface{}.
func isKeyList(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	if isStringType(s.Elem()) {
		return true
	}
	it, ok := s.Elem().Underlying().(*types.Interface)
	return ok && it.Empty()
}

// bodiless returns the package's files and types as the SSA builder is to
// see them: the declarations of units that are not needed without their
// bodies or initial values. The files are copies where anything changes;
// the syntax and the types they share are not modified.
func (g *Engine) bodiless(needed map[ast.Node]bool) ([]*ast.File, *types.Info) {
	u := g.unitGraph()
	files := make([]*ast.File, len(g.files))
	info := *g.info
	info.FileVersions = make(map[*ast.File]string, len(g.files))
	for i, f := range g.files {
		nf := *f
		nf.Decls = slices.Clone(f.Decls)
		for j, d := range nf.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !needed[fd] {
				c := *fd
				c.Body = nil
				nf.Decls[j] = &c
			}
		}
		files[i] = &nf
		if v, ok := g.info.FileVersions[f]; ok {
			info.FileVersions[&nf] = v
		}
	}
	info.InitOrder = nil
	for _, in := range g.info.InitOrder {
		if needed[u.at(in.Rhs.Pos())] {
			info.InitOrder = append(info.InitOrder, in)
		}
	}
	return files, &info
}

// returnsKeys reports whether a function returns a value that can hold a
// key: anything but errors, booleans and numbers.
func returnsKeys(fn *types.Func) bool {
	res := fn.Signature().Results()
	for i := 0; i < res.Len(); i++ {
		t := res.At(i).Type()
		if isErrorType(t) {
			continue
		}
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsString == 0 {
			continue
		}
		return true
	}
	return false
}
