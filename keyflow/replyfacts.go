package keyflow

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// KeyReply is the fact that a function returns, as its first result, the
// reply of a command that lists keys: the members of a key (rules.yaml's
// member-replies, SMEMBERS) or the keys a pattern matches (KEYS, SCAN), as
// go-zero's
//
//	func (s *Redis) SmembersCtx(ctx context.Context, key string) ([]string, error) {
//		conn, err := getRedis(s)
//		if err != nil {
//			return nil, err
//		}
//		return conn.SMembers(ctx, key).Result()
//	}
//
// Pattern is the parameter that gives the pattern, -1 for the members of
// a key. A caller in another package reads the reply as the keys it lists,
// as it reads a client's own.
type KeyReply struct {
	Command string
	Pattern int
}

func (*KeyReply) AFact() {}

func (f *KeyReply) String() string {
	if f.Pattern < 0 {
		return "keyReply(" + f.Command + ")"
	}
	return "keyReply(" + f.Command + " $" + strconv.Itoa(f.Pattern) + ")"
}

// exportReplies exports the KeyReply facts of the package's exported
// functions.
func (g *Engine) exportReplies() {
	for fn, decl := range g.decls {
		if !fn.Exported() || decl.Body == nil || !g.mayReturnReply(fn, decl) {
			continue
		}
		l := g.ssaForm(decl.Pos())
		if l == nil {
			continue
		}
		for _, sf := range l.funcs {
			if sf.Syntax() == decl {
				if f, ok := l.replyOf(sf); ok {
					g.facts.ExportObjectFact(fn, f)
				}
				break
			}
		}
	}
}

// mayReturnReply reports whether a function may return a listing reply:
// its first result is a slice and its body calls a client method that
// sends a command whose reply lists keys.
func (g *Engine) mayReturnReply(fn *types.Func, decl *ast.FuncDecl) bool {
	res := fn.Signature().Results()
	if res.Len() == 0 {
		return false
	}
	if _, ok := res.At(0).Type().Underlying().(*types.Slice); !ok {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			if _, m := g.Resolve(call); m != nil && m.Kind == ruleset.KindCommand && g.listsKeys(m.Command) {
				found = true
			}
		}
		return !found
	})
	return found
}

// replyOf returns the KeyReply of a function each of whose return
// statements returns nil or the reply of one listing command, its pattern
// the same parameter, or none.
func (l *ssaLayer) replyOf(fn *ssa.Function) (*KeyReply, bool) {
	var out *KeyReply
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		if c, ok := ret.Results[0].(*ssa.Const); ok && c.IsNil() {
			continue
		}
		call := l.listCall(ret.Results[0])
		if call == nil {
			return nil, false
		}
		_, m, pats, ok := l.pattern(call)
		if !ok {
			return nil, false
		}
		f := &KeyReply{Command: m.Command, Pattern: -1}
		if pats != nil {
			if len(pats) != 1 || len(pats[0].Key.Parts) != 1 || !pats[0].Key.Parts[0].Unknown {
				return nil, false
			}
			n, err := strconv.Atoi(strings.TrimPrefix(pats[0].Key.Parts[0].ID, "$"))
			if err != nil || !strings.HasPrefix(pats[0].Key.Parts[0].ID, "$") {
				return nil, false
			}
			f.Pattern = n
		}
		if out != nil && *out != *f {
			return nil, false
		}
		out = f
	}
	return out, out != nil
}

// importedReply returns the keys that v lists when it is the first
// result of a call of another package's function with a KeyReply fact:
// the members of a key, or the keys that the pattern the call passes
// matches.
func (l *ssaLayer) importedReply(v ssa.Value) ([]Value, bool) {
	x, ok := v.(*ssa.Extract)
	if !ok || x.Index != 0 {
		return nil, false
	}
	call, ok := x.Tuple.(*ssa.Call)
	if !ok {
		return nil, false
	}
	fn := call.Call.StaticCallee()
	if fn == nil {
		return nil, false
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == l.g.pkg || l.g.IsClientPackage(obj.Pkg()) {
		return nil, false
	}
	var f KeyReply
	if !l.g.facts.ImportObjectFact(obj, &f) {
		return nil, false
	}
	ce := l.callExpr(call)
	if ce == nil {
		return nil, false
	}
	id := fmt.Sprintf("reply@%d", ce.Pos())
	if f.Pattern < 0 {
		return []Value{{keyspace.Unknown(id+"#0.0", f.Command+" reply", false), ce.Pos()}}, true
	}
	caller := l.evaluator(nil, call.Parent())
	if caller == nil || f.Pattern >= len(ce.Args) {
		return nil, false
	}
	out, ok := globKeys(patternAt(caller, ce.Args[f.Pattern]), id)
	return out, ok && len(out) > 0
}
