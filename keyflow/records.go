package keyflow

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// Some code keeps a transaction's commands as data and has a helper send
// them, one by one, on a connection:
//
//	cmds := []map[string][]interface{}{
//		{"MULTI": nil},
//		{"HSET": {db.recordType, id, string(b)}},
//		{"ZADD": {db.versionSet, lastVersion, id}},
//	}
//	db.tx(c, cmds)
//	...
//	func (db *DB) tx(c redis.Conn, commands []map[string][]interface{}) error {
//		for _, m := range commands {
//			for cmd, args := range m {
//				c.Send(cmd, args...)
//			}
//		}
//		_, err := c.Do("EXEC")
//		return err
//	}
//
// The raw send in the helper names no command: its parameter's records
// do. The helper carries the send to its callers (a WrappedCall with
// Records), and each caller whose argument is a composite literal of
// records adds each record's command, the commands after a MULTI record
// making one MULTI/EXEC transaction, up to an EXEC record or the
// records' end (the helper's own EXEC sends it).

// recordsOf returns 1 + the index of the slice parameter whose elements
// are the records a raw send of the function sends, maps of command names
// to their arguments: the send's command name and its arguments, spread,
// are the key and the value of a range over an element of a range over
// the parameter; 0 otherwise.
func (g *Engine) recordsOf(e *evaluator, site *Site) int {
	call, m := site.Call, site.Method
	if e == nil || e.decl == nil || m.Args == nil || m.Args.Flat {
		return 0
	}
	p := m.Args.Param
	if p+2 != len(call.Args) || !call.Ellipsis.IsValid() {
		return 0
	}
	name, args := ast.Unparen(call.Args[p]), ast.Unparen(call.Args[p+1])
	// for cmd, args := range m, m an element of the parameter.
	n, ok := name.(*ast.Ident)
	a, ok2 := args.(*ast.Ident)
	if !ok || !ok2 {
		return 0
	}
	nv, av := e.localVar(n), e.localVar(a)
	if nv == nil || av == nil || len(e.defs[nv]) != 1 || len(e.defs[av]) != 1 {
		return 0
	}
	mx, ax := e.defs[nv][0].keysOf, e.defs[av][0].rng
	if mx == nil || ax == nil || exprName(mx) != exprName(ax) {
		return 0
	}
	// m ranges over the parameter.
	id, ok := ast.Unparen(mx).(*ast.Ident)
	if !ok {
		return 0
	}
	mv := e.localVar(id)
	if mv == nil || len(e.defs[mv]) != 1 || e.defs[mv][0].rng == nil {
		return 0
	}
	param := e.spreadParam(e.defs[mv][0].rng)
	if param == "" {
		return 0
	}
	i, _ := strconv.Atoi(param[1:])
	return i + 1
}

// A record is one command of a caller's records: its name and arguments.
type record struct {
	name ast.Expr
	args []ast.Expr
	open bool // arguments not seen: not a composite literal
}

// callerRecords returns the records a caller passes in x: a composite
// literal, or a variable set once to one; false when they cannot be seen.
func (g *Engine) callerRecords(e *evaluator, x ast.Expr) ([]record, bool) {
	x = ast.Unparen(x)
	if id, ok := x.(*ast.Ident); ok && e != nil {
		if v := e.localVar(id); v == nil || len(e.appends[v]) > 0 || g.indexWritten()[v] {
			return nil, false
		}
		x = ast.Unparen(e.setOnce(id))
	}
	lit, ok := x.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	argList := func(x ast.Expr) ([]ast.Expr, bool) {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok && id.Name == "nil" {
			return nil, true
		}
		l, ok := ast.Unparen(x).(*ast.CompositeLit)
		if !ok || slices.ContainsFunc(l.Elts, func(x ast.Expr) bool { _, kv := x.(*ast.KeyValueExpr); return kv }) {
			return nil, false // not seen, or indexed: {2: v, 0: key}
		}
		return l.Elts, true
	}
	var out []record
	for _, el := range lit.Elts {
		rl, ok := ast.Unparen(el).(*ast.CompositeLit)
		if !ok {
			return nil, false
		}
		// {"HSET": {key, field, value}}
		for _, kv := range rl.Elts {
			kv, ok := kv.(*ast.KeyValueExpr)
			if !ok {
				return nil, false
			}
			args, ok := argList(kv.Value)
			out = append(out, record{name: kv.Key, args: args, open: !ok})
		}
	}
	return out, true
}

// addRecords adds at a call of fn the commands of the records the caller
// passes, the commands after a MULTI record one transaction.
func (g *Engine) addRecords(s *Func, call *ast.CallExpr, fn *types.Func, w WrappedCall) {
	n := w.Records - 1
	if n >= len(call.Args) {
		return
	}
	recs, ok := g.callerRecords(s.e, call.Args[n])
	if !ok {
		return
	}
	through := fmt.Sprintf("(through %s at %s)", fn.Name(), w.Where)
	var tx *Tx
	for _, rec := range recs {
		r := rawCall{args: append([]ast.Expr{rec.name}, rec.args...), open: rec.open}
		r.argv = g.constArgv(r.args)
		switch strings.ToUpper(r.argv[0]) {
		case "":
			return // a command not named here: the records are not seen
		case "MULTI":
			site := &Site{Call: call, Callee: fn, Command: "MULTI", Through: true, Name: "MULTI/EXEC transaction " + through}
			tx = &Tx{Site: site, Kind: TxMulti}
			site.Tx = tx
			s.Sites = append(s.Sites, site)
			s.Txs = append(s.Txs, tx)
			continue
		case "EXEC", "DISCARD":
			tx = nil
			continue
		}
		site := &Site{Call: call, Callee: fn, Through: true}
		if !g.rawKeys(s.e, site, r) {
			continue
		}
		site.Name = site.Command + " " + through
		site.KeyArgs = nil
		s.Sites = append(s.Sites, site)
		if tx != nil {
			tx.Sites = append(tx.Sites, site)
		}
	}
}
