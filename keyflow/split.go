package keyflow

import (
	"go/ast"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/ruleset"
)

// Since v9.18, go-redis's ClusterClient routes each command by the request
// policy that Redis's command tips give it: a command marked
// request_policy:multi_shard (MGET, DEL, EXISTS, UNLINK, TOUCH, MSET, the
// rules' split: true) is cut into one command per slot and the replies
// are merged. Sent alone on a cluster client, such a command then works
// across slots, without atomicity. In MULTI/EXEC, in a script and on a
// client of one node nothing is split, and the keys must share a slot.
//
// The version comes from the build: the file of the go-redis method called
// is in the module cache as .../github.com/redis/go-redis/v9@v9.23.0/...,
// also with -trimpath. Where the build does not tell it (a vendor
// directory, a replace by a local copy), the command is taken as not
// split.

// The first version that splits is the rules' split-since of the client
// (ruleset.Client.SplitSince).

var modVersionRE = regexp.MustCompile(`@v(\d+)\.(\d+)\.(\d+)`)

// splitAlone reports whether a call of the client method fn sends a
// command that the client splits by slot when it is sent alone: the
// command is marked split, the receiver's static type is a cluster client
// of the rules (or a project's interface or struct that embeds one), and the client package's version in the build splits.
func (g *Engine) splitAlone(call *ast.CallExpr, fn *types.Func, m *ruleset.Method) bool {
	if m == nil || m.Kind != ruleset.KindCommand || fn.Pkg() == nil {
		return false
	}
	cmd := g.rules.Commands[strings.ToLower(m.Command)]
	if cmd == nil || !cmd.Split {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !g.clusterType(g.info.TypeOf(sel.X), 0) {
		return false
	}
	client := g.rules.ClientOf(fn.Pkg().Path())
	if client == nil || client.SplitSince == "" {
		return false
	}
	since, ok := parseVersion("@" + client.SplitSince)
	if !ok {
		return false
	}
	v, ok := g.moduleVersion(fn)
	return ok && !less(v, since)
}

// moduleVersion returns the version of the module that fn's file is in,
// as the module cache's path of the file says.
func (g *Engine) moduleVersion(fn *types.Func) ([3]int, bool) {
	f := g.fset.File(fn.Pos())
	if f == nil || int(fn.Pos()) < f.Base() || int(fn.Pos()) > f.Base()+f.Size() {
		return [3]int{}, false
	}
	return parseVersion(f.Name())
}

// parseVersion reads the first "@vX.Y.Z" in s.
func parseVersion(s string) ([3]int, bool) {
	m := modVersionRE.FindStringSubmatch(s)
	if m == nil {
		return [3]int{}, false
	}
	var v [3]int
	for i := range v {
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return [3]int{}, false
		}
		v[i] = n
	}
	return v, true
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
