package keyflow

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/slotlint/slotlint/ruleset"
)

// A MULTI/EXEC pipeline sends what it queued at each Exec, and can be used
// again after it: what is queued next is another transaction.
//
//	p := rdb.TxPipeline()
//	p.Get(ctx, floorKey)
//	p.Exec(ctx)                      // MULTI GET EXEC
//	p.Expire(ctx, floorKey, ttl)
//	p.Set(ctx, floorValueKey, v, ttl)
//	p.Exec(ctx)                      // MULTI EXPIRE SET EXEC
//
// Real code does the same in helpers handed the pipeline, and makes the
// pipeline in a function of its own (func (c *Cache) NewTxPipeline()
// redis.Pipeliner { return c.client.TxPipeline() }) that another package
// calls. So:
//
//   - a transaction is cut at each Exec sent on its handles, in the order
//     of the function's text: the first part stays the transaction of the
//     call that made the pipeline, and each later part is a transaction of
//     the Exec that sends it, named so;
//   - a function carries the Execs it sends on a pipeline parameter to its
//     callers, among the commands it queues there (WrappedCall.Exec), and
//     each caller cuts the transaction of the handle it passes at them;
//   - a function whose body returns the pipeline a client method makes is
//     that method to its callers (pipelineMaker), here and, through the
//     PipeMaker fact, in other packages.
//
// A command queued after the last Exec, with none after it in sight, is
// sent by an Exec the function does not make, and is in no transaction
// here, unless TxPipelined sends it when its function returns.

// PipeMaker is the fact that a function returns the pipeline that a
// client method makes (Pkg, Recv and Name name the method in the rules):
// its calls are calls of that method.
type PipeMaker struct {
	Pkg, Recv, Name string
}

func (*PipeMaker) AFact() {}

func (f *PipeMaker) String() string { return "pipeMaker(" + f.Recv + "." + f.Name + ")" }

// isExec reports whether a site sends what a pipeline queued: an Exec, or
// one that a called function sends on the pipeline passed to it.
func isExec(site *Site) bool {
	return site.exec || site.Method != nil && site.Method.Kind == ruleset.KindExec
}

// segment is the part of a transaction's commands that one Exec sends:
// sent is that Exec, or nil for the part that the call which made the
// transaction sends (TxPipelined's, when its function returns).
type segment struct {
	sites []*Site
	sent  *Site
}

// execSegments cuts the commands of a transaction at its Execs. A
// transaction with none in sight is one segment.
func execSegments(tx *Tx) []segment {
	var segs []segment
	var cur []*Site
	for _, site := range tx.Sites {
		if isExec(site) && tx.Kind == TxMulti {
			segs = append(segs, segment{cur, site})
			cur = nil
			continue
		}
		cur = append(cur, site)
	}
	if len(segs) == 0 || tx.Lit != nil {
		segs = append(segs, segment{sites: cur})
	}
	return segs
}

// transactionKeys sets the keys of a transaction: the watched ones, then
// those of every command sent on its handles up to the Exec that sends
// them. Each later part becomes a site of its own, at its Exec.
func (g *Engine) transactionKeys(s *Func, tx *Tx) {
	segs := execSegments(tx)
	tx.Sent = segs[0].sent
	tx.Site.Keys = g.segmentKeys(s, tx, slices.Clone(tx.Watched), segs[0].sites)
	for _, seg := range segs[1:] {
		at := tx.Site
		name := tx.Site.Name
		if seg.sent != nil {
			at = seg.sent
			name += " sent by " + seg.sent.Name
		}
		site := &Site{Call: at.Call, Callee: at.Callee, Method: tx.Site.Method, Command: tx.Site.Command, Name: name}
		site.Tx = &Tx{Site: site, Kind: TxMulti, Sites: seg.sites, Sent: seg.sent, Lit: tx.Lit}
		site.Keys = g.segmentKeys(s, site.Tx, nil, seg.sites)
		if len(site.Keys) > 1 {
			s.Sites = append(s.Sites, site)
		}
	}
}

// segmentKeys appends to keys those of the commands of one segment.
func (g *Engine) segmentKeys(s *Func, tx *Tx, keys []Group, sites []*Site) []Group {
	for _, site := range sites {
		if site.Tx != nil {
			continue
		}
		keys = append(keys, site.Keys...)
		if g.repeats(s, tx, site) {
			// Queued at each turn of a loop: the keys as another turn
			// builds them are in the transaction too.
			for _, grp := range site.Keys {
				keys = append(keys, g.againGroup(s.e, grp))
			}
		}
	}
	return keys
}

// pipelineMaker returns the rule of the client method whose pipeline fn
// returns, or nil: fn's body is one return of a call of that method, or of
// another such function; in another package, its PipeMaker fact.
func (g *Engine) pipelineMaker(fn *types.Func) *ruleset.Method {
	if m, ok := g.makers[fn]; ok {
		return m.m
	}
	if g.makers == nil {
		g.makers = map[*types.Func]maker{}
	}
	g.makers[fn] = maker{} // guards against recursion
	sig := fn.Signature()
	if sig.Results().Len() != 1 {
		return nil
	}
	if held, _ := g.mayHoldPipeline(sig.Results().At(0).Type()); !held {
		return nil
	}
	var mk maker
	if decl := g.decls[fn]; decl != nil {
		mk = g.returnedPipeline(decl)
	} else {
		var f PipeMaker
		if g.facts.ImportObjectFact(fn, &f) {
			mk = maker{g.rules.Method(f.Pkg, f.Recv, f.Name), f}
		}
	}
	if mk.m == nil || mk.m.Kind != ruleset.KindTxPipeline && mk.m.Kind != ruleset.KindPipeline {
		return nil
	}
	g.makers[fn] = mk
	return mk.m
}

// A maker is what pipelineMaker found: the rule, and the method's names
// for the fact.
type maker struct {
	m    *ruleset.Method
	fact PipeMaker
}

// returnedPipeline is the maker of a declaration whose body is one return
// of a pipeline-making call.
func (g *Engine) returnedPipeline(decl *ast.FuncDecl) maker {
	if decl.Body == nil || len(decl.Body.List) != 1 {
		return maker{}
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return maker{}
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok {
		return maker{}
	}
	fn, m := g.Resolve(call)
	if m == nil || fn == nil {
		return maker{}
	}
	if mk, ok := g.makers[fn]; ok && mk.m != nil {
		return mk // another maker
	}
	recv := ""
	if r := fn.Signature().Recv(); r != nil {
		if n := namedOf(r.Type()); n != nil {
			recv = n.Obj().Name()
		}
	}
	return maker{m, PipeMaker{Pkg: fn.Pkg().Path(), Recv: recv, Name: fn.Name()}}
}

// exportMakers exports the PipeMaker facts of the package's exported
// functions that return a pipeline a client method makes.
func (g *Engine) exportMakers() {
	for fn := range g.decls {
		if !fn.Exported() {
			continue
		}
		if g.pipelineMaker(fn) != nil {
			f := g.makers[fn].fact
			g.facts.ExportObjectFact(fn, &f)
		}
	}
}
