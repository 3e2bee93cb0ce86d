package keyflow

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// Functions that send their callers' keys, reached from outside the
// module:
//
//	func (c *Client) Del(ctx context.Context, keys ...string) (int64, error) {
//		return c.rdb.Del(ctx, keys...).Result()
//	}
//
// The command is carried to the callers (Func.Carried), and each caller
// slotlint sees is checked with its keys. A function that other modules
// call has callers slotlint never sees: nothing in it keeps the keys in
// one slot, so the call is reported once where it is sent (the
// caller-keys check), with the key group (Site.CallerKeys).

// callerKeys returns the keys of a carried site whose keys all come from
// its function's callers, when the function is reached from outside the
// module: the first of one collection of theirs, or one of each group
// when other parameters give keys besides (SDIFFSTORE of destination and
// keys...); nil otherwise.
func (g *Engine) callerKeys(s *Func, site *Site, groups []Group) Group {
	if site.CallerKeys != nil {
		return site.CallerKeys // its open collection is the callers' (openCallerKeys)
	}
	if site.SplitAlone || site.Name == "" || site.rawParam > 0 || site.records > 0 || !g.reachedFromOutside(s.Obj) {
		return nil
	}
	if site.Through && !site.named && g.reachedFromOutside(site.Callee) {
		return nil // reported in the function it calls
	}
	if kept(s, site) {
		return nil
	}
	coll, others, own := -1, false, false
	var first, each Group
	for _, grp := range groups {
		if len(grp) == 0 {
			return nil
		}
		for _, v := range grp {
			switch n := callerCollection(v.Key); {
			case n >= 0 && (coll < 0 || n == coll):
				coll = n
				if first == nil {
					first = Group{v}
				}
			case n >= 0 || ofParams(v.Key):
				// Keys of the callers' besides their collection: another
				// collection, or a parameter (SDIFFSTORE's destination).
				others = true
			default:
				// A key of the function's own: beside the callers'
				// collection, which alone may span slots (yaaf's Pop
				// adds the message's topic when the caller names no
				// queue).
				own = true
			}
		}
		each = append(each, grp[0])
	}
	switch {
	case own:
		if coll >= 0 {
			return first
		}
	case others && len(each) >= 2:
		return each
	case coll >= 0 && !others:
		return first
	}
	return nil
}

// paramCallerKeys returns the keys of a carried site that are each made
// of its function's parameters alone, with literal text or not, two of
// them different at least (dotweb's RPopLPush(source, destination)), when
// the function is reached from outside the module; nil otherwise. A key
// of the function's own with literal text and no brace may stand beside
// them (ginx's Session.Del: DEL of the session's "session:" + ssid and the
// caller's key): nothing puts the callers' key in its slot.
func (g *Engine) paramCallerKeys(s *Func, site *Site) Group {
	if site.SplitAlone || site.Name == "" || !g.reachedFromOutside(s.Obj) || site.Through && !site.named && g.reachedFromOutside(site.Callee) || kept(s, site) {
		return nil
	}
	if out := paramsAndOwn(site.Chosen, false); out != nil {
		return out
	}
	// Other keys besides, of no shape the code shows (a member a reply
	// gives, as a delay queue's RPop moves the job it reads with LINDEX
	// from the caller's topic to a bucket of its own): they put neither
	// key in the other's slot.
	var keys Group
	for _, grp := range WithoutPlaceholders(site.AllKeys()) {
		if len(grp) == 1 {
			keys = append(keys, grp[0])
		}
	}
	return paramsAndOwn(keys, true)
}

// paramsAndOwn returns the distinct keys that are each made of the
// function's parameters alone or its own (ownKey), two at least, one of
// the parameters at least; nil when there are not, or when a key is
// neither, unless skip lets such keys be passed over.
func paramsAndOwn(keys Group, skip bool) Group {
	var out Group
	params := 0
	for _, v := range keys {
		switch {
		case ofParams(v.Key):
			params++
		case !ownKey(v.Key) && skip:
			continue
		case !ownKey(v.Key):
			return nil
		}
		out = addDistinct(out, v)
	}
	if len(out) < 2 || params == 0 {
		return nil
	}
	return out
}

// ownKey reports whether a key has literal text (HasShape) and no brace
// in it.
func ownKey(k keyspace.Key) bool {
	if !HasShape(k) {
		return false
	}
	for _, p := range k.Parts {
		if !p.Unknown && strings.ContainsAny(p.Lit, "{}") {
			return false
		}
	}
	return true
}

// addDistinct appends v to grp unless grp holds its key already.
func addDistinct(grp Group, v Value) Group {
	if slices.ContainsFunc(grp, func(o Value) bool { return o.Key.String() == v.Key.String() }) {
		return grp
	}
	return append(grp, v)
}

// ofParams reports whether a key is made of its function's parameters and
// literal text, one parameter at least.
func ofParams(k keyspace.Key) bool {
	params := 0
	for _, p := range k.Parts {
		if !p.Unknown {
			continue
		}
		if !isParamID(p.ID) && !isParamGetter(p.ID) {
			return false
		}
		params++
	}
	return params > 0
}

// isParamGetter reports whether id is the value of a method with no
// arguments of an interface parameter, "$N.Name()" (elemMethod): a value
// the caller's object gives.
func isParamGetter(id string) bool {
	p, call, ok := strings.Cut(id, ".")
	return ok && isParamID(p) && strings.HasSuffix(call, "()") && !strings.ContainsAny(strings.TrimSuffix(call, "()"), ".()[]")
}

// kept reports whether the command a call makes is stored in a struct's
// field (e.cmd = m.factory.BLPop(ctx, timeout, keys...)): a mock's
// expectation, built to be compared with the commands a test sends, not
// sent itself. A function of the project's that a call goes through sends
// its commands: what it returns is a result (trpc-database's
// cmd.Cmd = MSetScript.RunEx(ctx, c, keys, args...)).
func kept(s *Func, site *Site) bool {
	if s.e == nil || s.e.decl == nil || site.Tx != nil || site.Through {
		return false
	}
	path := s.e.pathTo(site.Call.Pos())
	i := len(path) - 1
	for i >= 0 && path[i] != ast.Node(site.Call) {
		i--
	}
	for i--; i >= 0; i-- {
		if _, paren := path[i].(*ast.ParenExpr); !paren {
			break
		}
	}
	if i < 0 {
		return false
	}
	as, ok := path[i].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	_, field := as.Lhs[0].(*ast.SelectorExpr)
	return field
}

// callerCollection returns the parameter whose collection a key is made
// from: the parameter passed on whole ("$N..."), or one of its elements
// ("$N[k]"), with text around it or not; -1 for any other key.
func callerCollection(k keyspace.Key) int {
	if n := spreadIndex(k); n >= 0 {
		return n
	}
	return keyElems(k)
}

// reachedFromOutside reports whether other modules may call fn: it is
// exported, a method of an exported type (or of one handed out as an
// exported interface), in a package that is neither main nor internal nor
// a client's, not declared in a test file, and not a method that makes
// its type stand in for a client.
func (g *Engine) reachedFromOutside(fn *types.Func) bool {
	if fn == nil || !fn.Exported() || fn.Pkg() == nil || fn.Pkg().Name() == "main" || g.IsClientPackage(fn.Pkg()) {
		return false
	}
	path := fn.Pkg().Path()
	if strings.HasSuffix(path, "/internal") || strings.Contains(path, "/internal/") || strings.HasPrefix(path, "internal/") {
		return false
	}
	if pos := g.fset.Position(fn.Pos()); strings.HasSuffix(pos.Filename, "_test.go") {
		return false
	}
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		if !ok {
			return false
		}
		if !named.Obj().Exported() && !exposed(named, fn) {
			return false
		}
		if g.clientMethod(named, fn) {
			// A client of its own (a mock, an instrumented wrapper): its
			// Del(keys...) is the command, as the client's is.
			return false
		}
	}
	return true
}

// clientMethod reports whether fn, a method of named, is a method of an
// interface of a client package (go-redis's Cmdable), with its signature,
// and named has most of that interface's methods so (a mock such as
// redismock's, which may lag the client's newest commands): the type
// stands in for the client.
func (g *Engine) clientMethod(named *types.Named, fn *types.Func) bool {
	mset := types.NewMethodSet(types.NewPointer(named))
	same := func(m *types.Func) bool {
		sel := mset.Lookup(m.Pkg(), m.Name())
		if sel == nil && m.Exported() {
			sel = mset.Lookup(nil, m.Name())
		}
		return sel != nil && types.Identical(sel.Obj().Type(), m.Type())
	}
	for _, imp := range fn.Pkg().Imports() {
		if !g.IsClientPackage(imp) {
			continue
		}
		for _, iface := range exportedInterfaces(imp) {
			if iface.NumMethods() < 2 {
				continue
			}
			mine, matched := false, 0
			for i := range iface.NumMethods() {
				m := iface.Method(i)
				if same(m) {
					matched++
					mine = mine || m.Name() == fn.Name()
				}
			}
			if mine && 2*matched >= iface.NumMethods() {
				return true
			}
		}
	}
	return false
}

// exposed reports whether method fn of the unexported type named is one
// of an interface that the type implements and that the package hands
// out (handedOut: a constructor returning RedisCache, implemented by
// *redisCache); or whether an exported struct type of the package embeds
// the type, and so has the method (rejonson's Client embeds
// *redisProcessor). An exported interface that the package only takes
// (NewQueue0(name string, cli RedisCli), its adapters over go-redis kept
// in an unexported field) does not expose the adapters.
func exposed(named *types.Named, fn *types.Func) bool {
	if embeddedInExported(named) {
		return true
	}
	ptr := types.NewPointer(named)
	for _, iface := range handedOut(named.Obj().Pkg()) {
		has := false
		for i := range iface.NumMethods() {
			has = has || iface.Method(i).Name() == fn.Name()
		}
		if has && (types.Implements(named, iface) || types.Implements(ptr, iface)) {
			return true
		}
	}
	return false
}

// embeddedInExported reports whether an exported struct type of named's
// package embeds named or a pointer to it.
func embeddedInExported(named *types.Named) bool {
	scope := named.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if !f.Embedded() {
				continue
			}
			t := f.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := t.(*types.Named); ok && n.Origin() == named.Origin() {
				return true
			}
		}
	}
	return false
}

// exportedInterfaces returns the exported interface types of a package
// that have methods.
func exportedInterfaces(pkg *types.Package) []*types.Interface {
	var out []*types.Interface
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if obj, ok := scope.Lookup(name).(*types.TypeName); ok && obj.Exported() {
			if iface, ok := obj.Type().Underlying().(*types.Interface); ok && iface.NumMethods() > 0 {
				out = append(out, iface)
			}
		}
	}
	return out
}

// handedOut returns the interface types, of any package and with
// methods, that a package hands to other packages: the results of its
// exported functions and of the exported methods of its exported types
// (NewCache(...) (cache.Cache, error) of a package whose cache type is
// unexported), the types of the exported fields of its exported structs,
// and of its exported variables; and what the methods of those interfaces
// return in turn (an Engine's GetRedis(code) RedisCache).
func handedOut(pkg *types.Package) []*types.Interface {
	var out []*types.Interface
	add := func(t types.Type) {
		iface, ok := t.Underlying().(*types.Interface)
		if !ok || iface.NumMethods() == 0 || slices.ContainsFunc(out, func(o *types.Interface) bool { return types.Identical(o, iface) }) {
			return
		}
		out = append(out, iface)
	}
	results := func(sig *types.Signature) {
		for i := range sig.Results().Len() {
			add(sig.Results().At(i).Type())
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Func:
			results(obj.Signature())
		case *types.Var:
			add(obj.Type())
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok {
				continue
			}
			for i := range named.NumMethods() {
				if m := named.Method(i); m.Exported() {
					results(m.Signature())
				}
			}
			if st, ok := named.Underlying().(*types.Struct); ok {
				for i := range st.NumFields() {
					if f := st.Field(i); f.Exported() {
						add(f.Type())
					}
				}
			}
		}
	}
	for i := 0; i < len(out); i++ {
		for j := range out[i].NumMethods() {
			results(out[i].Method(j).Signature())
		}
	}
	return out
}
