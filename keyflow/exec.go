package keyflow

import (
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
//     that method to its callers (pipefunc.go).
//
// A command queued after the last Exec, with none after it in sight, is
// sent by an Exec the function does not make, and is in no transaction
// here, unless TxPipelined sends it when its function returns.

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
		before := len(keys)
		for _, grp := range site.Keys {
			// A key of several alternatives that an earlier command read
			// too is one value read again: the transaction reads and trims
			// one key, whichever it is, not two.
			if !slices.ContainsFunc(keys[:before], func(k Group) bool { return sameGroup(k, grp) }) {
				keys = append(keys, grp)
			}
		}
		if loop := g.repeats(s, tx, site); loop != nil {
			// Queued at each turn of a loop: the keys as another turn
			// builds them are in the transaction too.
			for _, grp := range site.Keys {
				keys = append(keys, g.againGroup(s.e, grp, loop))
			}
		}
	}
	return keys
}
