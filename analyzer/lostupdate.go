package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/slotlint/slotlint/ruleset"
)

// replaces reports whether a write command may replace data, by what the
// command table's key specs say of each key: it updates what is there
// (UPDATE), or overwrites it without being an insertion (OW without
// INSERT). Only such a write can lose an update: a command that only
// removes what it is given (SREM, HDEL, ZREM, LREM, DEL: DELETE) or only
// adds (SETNX, SADD, RPUSH: INSERT) leaves every other client's change in
// place, and doing it twice is doing it once. A command the table does
// not describe is taken to replace data.
func replaces(rules *ruleset.Rules, command string) bool {
	cmd := rules.Command(command)
	if cmd == nil || len(cmd.Keys) == 0 {
		return true
	}
	for _, ks := range cmd.Keys {
		update := slices.Contains(ks.Flags, "UPDATE")
		overwrite := slices.Contains(ks.Flags, "OW") && !slices.Contains(ks.Flags, "INSERT")
		if update || overwrite {
			return true
		}
	}
	return false
}

// safeWrite reports whether the rules list a write as one that cannot lose
// an update (safe-writes:), by its command or its client method, and, for
// one that is safe only with an option, whether the call sets it: a field
// of a composite literal argument, given a value that is not a constant
// zero.
func safeWrite(rules *ruleset.Rules, op *atomicOp, info *types.Info) bool {
	w := rules.SafeWrites[op.name]
	if w == nil && op.site != nil && op.site.Callee != nil {
		w = rules.SafeWrites[op.site.Callee.Name()]
	}
	if w == nil {
		return false
	}
	if w.When == "" {
		return true
	}
	for _, arg := range op.call.Args {
		x := ast.Unparen(arg)
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
			x = ast.Unparen(u.X)
		}
		lit, ok := x.(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == w.When {
				tv := info.Types[kv.Value]
				return tv.Value == nil || tv.Value.ExactString() != "0"
			}
		}
	}
	return false
}
