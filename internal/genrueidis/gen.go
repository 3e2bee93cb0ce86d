package main

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/internal/gensection"
	"github.com/slotlint/slotlint/ruleset"
)

// A Library is a client library with rueidis's command builder.
type Library struct {
	Name   string // "rueidis"
	Module string // "github.com/redis/rueidis"
	// Types are what the library's types are (ruleset.TypeRole), in the
	// order rules.yaml lists them.
	Types [][2]string
	// Fixed are the rules of the library's own methods and functions, by
	// name: sending, scripts. Each must be declared in the library.
	Fixed [][2]string
	// Former are rules of methods that earlier versions of the library
	// declared on another type; the version generated from must not.
	Former [][2]string
	// NodeClients are the methods that return a client of each node of a
	// cluster (rules.yaml's node-clients). Each must be declared in the
	// library.
	NodeClients []string
	// EveryMaster names how the library sends one command to every master
	// (rules.yaml's every-master).
	EveryMaster string
}

// builderTypes are the roles of the types of rueidis and valkey-go: every
// client may talk to a Redis Cluster, and a dedicated client of a cluster
// client is bound to one node but still checked. The unexported clients
// of one node are listed for the library's own code: MDel and the other
// helpers switch on the client's type, and send one multi-key command
// only in the case of *singleClient, *standalone and *sentinelClient.
var builderTypes = [][2]string{
	{"Client", "cluster"}, {"DedicatedClient", "cluster"}, {"CoreClient", "cluster"}, {"CommandClient", "cluster"},
	{"singleClient", "client"}, {"dedicatedSingleClient", "client"}, {"standalone", "client"}, {"sentinelClient", "client"},
	{"clusterClient", "cluster"}, {"dedicatedClusterClient", "cluster"},
}

// builderFixed are the methods that send built commands and run scripts,
// the same in rueidis and valkey-go. Do and DoMulti are declared in the
// CommandClient interface, which Client and DedicatedClient embed.
var builderFixed = [][2]string{
	{"CommandClient.Do", `{kind: send, args: "1"}`},
	{"CommandClient.DoMulti", `{kind: send, args: "1..."}`},
	{"Client.DoCache", `{kind: send, args: "1"}`},
	{"NewLuaScript", `{kind: new-script, script: 0}`},
	{"NewLuaScriptReadOnly", `{kind: new-script, script: 0}`},
	{"NewLuaScriptNoSha", `{kind: new-script, script: 0}`},
	{"NewLuaScriptReadOnlyNoSha", `{kind: new-script, script: 0}`},
	{"NewLuaScriptRetryable", `{kind: new-script, script: 0}`},
	{"NewLuaScriptNoShaRetryable", `{kind: new-script, script: 0}`},
	{"Lua.Exec", `{command: EVALSHA, kind: script, script: receiver, keys: ["2[]"], args: "3[]"}`},
}

// builderFormer are the same methods where earlier versions declared
// them: rueidis v1.0.54 and before declare Do and DoMulti in CoreClient,
// which later versions split CommandClient out of. They are not checked
// against the version generated from, which no longer declares them.
var builderFormer = [][2]string{
	{"CoreClient.Do", `{kind: send, args: "1"}`},
	{"CoreClient.DoMulti", `{kind: send, args: "1..."}`},
}

// builderNodeClients: Client.Nodes returns a client of each node, by
// address (TestNodesReachEachMaster of the rueidis and valkey-go hooks).
var builderNodeClients = []string{"Client.Nodes"}

// builderEveryMaster is how a keyspace-wide command reaches every master:
// on the clients of Client.Nodes, one per node.
const builderEveryMaster = "the per-node clients of Nodes()"

// Libraries are the libraries whose tables are generated, in the order of
// rules.yaml.
var Libraries = []Library{
	{"rueidis", "github.com/redis/rueidis", builderTypes, builderFixed, builderFormer, builderNodeClients, builderEveryMaster},
	{"valkey-go", "github.com/valkey-io/valkey-go", builderTypes, builderFixed, builderFormer, builderNodeClients, builderEveryMaster},
}

// A Builder is what a library's command builder says: the command each
// Builder method starts and the chain methods that take keys.
type Builder struct {
	// Roots maps each Builder method to its command, upper case.
	Roots map[string]string
	// Keys are the chain methods that take keys, by command.
	Keys map[string][]KeyMethod
	// funcs are the library's top-level functions and methods,
	// "Recv.Name" or "Name", including interface methods; types its
	// top-level types.
	funcs, types map[string]bool
}

// A KeyMethod is a method of a builder chain that takes keys.
type KeyMethod struct {
	Recv, Name string
	Param      int
	Variadic   bool
}

func (k KeyMethod) selector() string {
	s := strconv.Itoa(k.Param)
	if k.Variadic {
		s += "..."
	}
	return s
}

// moduleDir returns the directory of a module's root package, as the go.mod
// of dir pins it.
func moduleDir(module, dir string) (string, error) {
	ctxt := build.Default
	ctxt.Dir = dir
	bp, err := ctxt.Import(module, dir, build.FindOnly)
	if err != nil {
		return "", err
	}
	return bp.Dir, nil
}

// ReadBuilder reads the command builder of a library from its source in
// root, the module's directory.
func ReadBuilder(root string) (*Builder, error) {
	b := &Builder{Roots: map[string]string{}, Keys: map[string][]KeyMethod{}, funcs: map[string]bool{}, types: map[string]bool{}}
	fset := token.NewFileSet()
	// The library's own functions, for the fixed rules.
	top, err := filepath.Glob(filepath.Join(root, "*.go"))
	if err != nil {
		return nil, err
	}
	for _, name := range top {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				b.funcs[funcKey(d)] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					b.types[ts.Name.Name] = true
					if it, ok := ts.Type.(*ast.InterfaceType); ok {
						for _, m := range it.Methods.List {
							for _, n := range m.Names {
								b.funcs[ts.Name.Name+"."+n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	files, err := filepath.Glob(filepath.Join(root, "internal", "cmds", "gen_*.go"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no internal/cmds/gen_*.go files: not a rueidis-style command builder", root)
	}
	rootType := map[string]string{} // Builder method -> the type it returns
	next := map[string][]string{}   // chain type -> the types its methods return
	var keys []KeyMethod
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil {
				continue
			}
			recv := typeName(fd.Recv.List[0].Type)
			res := ""
			if fd.Type.Results != nil && len(fd.Type.Results.List) == 1 {
				res = typeName(fd.Type.Results.List[0].Type)
			}
			if recv == "Builder" {
				cmd := appended(fd.Body)
				if cmd == "" {
					return nil, fmt.Errorf("%s: Builder.%s appends no command name", fset.Position(fd.Pos()), fd.Name.Name)
				}
				b.Roots[fd.Name.Name] = cmd
				rootType[fd.Name.Name] = res
				continue
			}
			if res != "" {
				next[recv] = append(next[recv], res)
			}
			if k, ok := keyMethod(fd, recv); ok {
				keys = append(keys, k)
			}
		}
	}
	// Each chain type belongs to the commands whose Builder method leads
	// to it.
	owner := map[string]map[string]bool{}
	for _, m := range slices.Sorted(mapKeys(rootType)) {
		seen := map[string]bool{}
		queue := []string{rootType[m]}
		for len(queue) > 0 {
			t := queue[0]
			queue = queue[1:]
			if seen[t] || t == "" {
				continue
			}
			seen[t] = true
			if owner[t] == nil {
				owner[t] = map[string]bool{}
			}
			owner[t][m] = true
			queue = append(queue, next[t]...)
		}
	}
	for _, k := range keys {
		roots := owner[k.Recv]
		if len(roots) == 0 {
			continue // a chain no Builder method leads to
		}
		cmds := map[string]bool{}
		for r := range roots {
			cmds[b.Roots[r]] = true
		}
		if len(cmds) != 1 {
			return nil, fmt.Errorf("%s.%s takes keys in the chains of several commands: %s", k.Recv, k.Name, strings.Join(slices.Sorted(mapKeys(cmds)), ", "))
		}
		for c := range cmds {
			b.Keys[c] = append(b.Keys[c], k)
		}
	}
	return b, nil
}

func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return typeName(fd.Recv.List[0].Type) + "." + fd.Name.Name
}

func typeName(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return typeName(x.X)
	}
	return ""
}

// appended returns the command that a Builder method starts: the string
// literals it appends to the command's arguments, joined by a space.
func appended(body *ast.BlockStmt) string {
	var words []string
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(words) > 0 {
			return len(words) == 0
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "append" {
			return true
		}
		for _, a := range call.Args[1:] {
			if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				words = append(words, s)
			}
		}
		return true
	})
	return strings.ToUpper(strings.Join(words, " "))
}

// keyMethod reports whether a chain method takes keys: it calls slot on a
// parameter, or on the elements of a variadic one.
func keyMethod(fd *ast.FuncDecl, recv string) (KeyMethod, bool) {
	params := map[string]int{}
	variadic := map[string]bool{}
	i := 0
	for _, f := range fd.Type.Params.List {
		_, isVar := f.Type.(*ast.Ellipsis)
		for _, n := range f.Names {
			params[n.Name] = i
			variadic[n.Name] = isVar
			i++
		}
	}
	ranged := map[string]string{} // range variable -> the parameter ranged over
	k := KeyMethod{Recv: recv, Name: fd.Name.Name, Param: -1}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			if x, ok := n.X.(*ast.Ident); ok {
				if v, ok := n.Value.(*ast.Ident); ok {
					ranged[v.Name] = x.Name
				}
			}
		case *ast.CallExpr:
			id, ok := n.Fun.(*ast.Ident)
			if !ok || id.Name != "slot" || len(n.Args) != 1 {
				return true
			}
			a, ok := n.Args[0].(*ast.Ident)
			if !ok {
				return true
			}
			name := a.Name
			if p, ok := ranged[name]; ok {
				name = p
			}
			if p, ok := params[name]; ok {
				k.Param, k.Variadic = p, variadic[name]
			}
		}
		return true
	})
	return k, k.Param >= 0
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// A Table is the generated rules of one library.
type Table struct {
	Library Library
	Lines   []string // "Name: {rule}", sorted
	// Missing are the commands with key methods that the commands table
	// does not have.
	Missing []string

	modules []string // the modules the table is written for
}

// mergeTables writes libraries whose tables are the same (valkey-go is a
// fork of rueidis, with the same builder) as one client of all their
// packages, "rueidis and valkey-go": the rules are built once in each
// process instead of once per library.
func mergeTables(tables []*Table) []*Table {
	var out []*Table
	for _, t := range tables {
		merged := false
		for _, o := range out {
			if slices.Equal(o.Lines, t.Lines) && slices.Equal(o.Missing, t.Missing) && slices.Equal(o.Library.Types, t.Library.Types) {
				o.modules = append(o.modules, t.Library.Module)
				o.Library.Name += " and " + t.Library.Name
				merged = true
				break
			}
		}
		if !merged {
			c := *t
			c.modules = []string{t.Library.Module}
			out = append(out, &c)
		}
	}
	return out
}

// txControl are the commands without keys that start and end a
// transaction: listed so that MULTI ... EXEC sent on one connection is seen.
var txControl = map[string]bool{"MULTI": true, "EXEC": true, "DISCARD": true, "UNWATCH": true}

// irregular are commands whose builder and key specs are known to
// disagree, and why.
var irregular = map[string]string{
	"DEBUG OBJECT":       "Redis gives DEBUG no key specs; rueidis routes DEBUG OBJECT by its key",
	"PUBSUB SHARDNUMSUB": "a shard channel is hashed like a key for routing, but Redis's key spec marks it NOT_KEY",
	"SPUBLISH":           "a shard channel is hashed like a key for routing, but Redis's key spec marks it NOT_KEY",
	"SSUBSCRIBE":         "a shard channel is hashed like a key for routing, but Redis's key spec marks it NOT_KEY",
	"SUNSUBSCRIBE":       "a shard channel is hashed like a key for routing, but Redis's key spec marks it NOT_KEY",
}

// checkTypes reports a type of the library's rules that its source does
// not declare: a rule that would match nothing.
func checkTypes(lib Library, b *Builder) error {
	for _, tr := range lib.Types {
		if !b.types[tr[0]] {
			return fmt.Errorf("%s: type %s is not declared in the library; fix the types of genrueidis", lib.Module, tr[0])
		}
	}
	return nil
}

// Generate builds a library's table from its builder and the commands
// table.
func Generate(lib Library, b *Builder, cmds *ruleset.Rules) (*Table, error) {
	t := &Table{Library: lib}
	for _, f := range lib.Fixed {
		if !b.funcs[f[0]] {
			return nil, fmt.Errorf("%s: %s is not declared in the library; fix the fixed rules of genrueidis", lib.Module, f[0])
		}
		t.Lines = append(t.Lines, f[0]+": "+f[1])
	}
	for _, f := range lib.NodeClients {
		if !b.funcs[f] {
			return nil, fmt.Errorf("%s: %s is not declared in the library; fix the node clients of genrueidis", lib.Module, f)
		}
	}
	for _, f := range lib.Former {
		if b.funcs[f[0]] {
			return nil, fmt.Errorf("%s: %s is declared in the library; move it to the fixed rules of genrueidis", lib.Module, f[0])
		}
		t.Lines = append(t.Lines, f[0]+": "+f[1])
	}
	var errs []string
	missing := map[string]bool{}
	for _, m := range slices.Sorted(mapKeys(b.Roots)) {
		name := b.Roots[m]
		keys := b.Keys[name]
		c := cmds.Command(name)
		if c == nil {
			if len(keys) > 0 {
				missing[name] = true
			}
			continue
		}
		if _, ok := irregular[name]; ok {
			continue
		}
		if txControl[name] {
			t.Lines = append(t.Lines, fmt.Sprintf("Builder.%s: {kind: builder, command: %s}", m, yamlScalar(name)))
			continue
		}
		if len(keys) == 0 {
			if hasKeys(c) {
				errs = append(errs, fmt.Sprintf("Builder.%s: %s has keys in the commands table, but no method of its chain takes one", m, name))
			} else if c.KeyspaceWide {
				// KEYS, SCAN, FLUSHALL: no keys, but one node's keyspace
				// on a cluster client (the keyspace-wide check).
				t.Lines = append(t.Lines, fmt.Sprintf("Builder.%s: {kind: builder, command: %s}", m, yamlScalar(name)))
			}
			continue
		}
		if !hasKeys(c) {
			errs = append(errs, fmt.Sprintf("Builder.%s: the chain of %s takes keys (%s.%s), but the commands table gives it none", m, name, keys[0].Recv, keys[0].Name))
			continue
		}
		t.Lines = append(t.Lines, fmt.Sprintf("Builder.%s: {kind: builder, command: %s}", m, yamlScalar(name)))
	}
	done := map[string]bool{}
	for name, keys := range b.Keys {
		c := cmds.Command(name)
		if c == nil || !hasKeys(c) {
			continue
		}
		if _, ok := irregular[name]; ok {
			continue
		}
		for _, k := range keys {
			line := fmt.Sprintf("%s.%s: {kind: builder-keys, keys: [%q]}", k.Recv, k.Name, k.selector())
			if !done[line] {
				done[line] = true
				t.Lines = append(t.Lines, line)
			}
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("%s: the builder and the commands table disagree; add an entry to irregular with the reason:\n\t%s", lib.Module, strings.Join(errs, "\n\t"))
	}
	sort.Strings(t.Lines)
	t.Missing = slices.Sorted(mapKeys(missing))
	return t, nil
}

func hasKeys(c *ruleset.Command) bool {
	for _, ks := range c.Keys {
		if !slices.Contains(ks.Flags, "NOT_KEY") {
			return true
		}
	}
	return false
}

func yamlScalar(s string) string {
	if strings.ContainsAny(s, " :{}[],#") {
		return strconv.Quote(s)
	}
	return s
}

const (
	beginSection = "# BEGIN GENERATED builder clients"
	endSection   = "# END GENERATED builder clients"
)

// Format writes the section: the tables in order, then the adapter's.
func Format(tables []*Table, compat *CompatTable) string {
	var b strings.Builder
	b.WriteString(beginSection + "\n")
	b.WriteString("# Generated by go run ./internal/genrueidis from the rueidis, valkey-go,\n")
	b.WriteString("# rueidiscompat and valkeycompat versions in analyzer/testdata/go.mod and\n")
	b.WriteString("# the commands table below. Do not edit this section by hand: run the\n")
	b.WriteString("# generator again.\n")
	for _, t := range mergeTables(tables) {
		fmt.Fprintf(&b, "  %s:\n", t.Library.Name)
		var pkgs []string
		for _, mod := range t.modules {
			pkgs = append(pkgs, mod, mod+"/internal/cmds")
		}
		fmt.Fprintf(&b, "    packages: [%s]\n", strings.Join(pkgs, ", "))
		var roles []string
		for _, tr := range t.Library.Types {
			roles = append(roles, tr[0]+": "+tr[1])
		}
		fmt.Fprintf(&b, "    types: {%s}\n", strings.Join(roles, ", "))
		if len(t.Library.NodeClients) > 0 {
			fmt.Fprintf(&b, "    node-clients: [%s]\n", strings.Join(t.Library.NodeClients, ", "))
		}
		if t.Library.EveryMaster != "" {
			fmt.Fprintf(&b, "    every-master: %s\n", strconv.Quote(t.Library.EveryMaster))
		}
		gensection.WrapComment(&b, "    ", "Do and DoMulti send what a builder chain built; Builder.X starts the chain of a command, and the chain methods listed take its keys. The builder is generated from Redis's command JSON, and its key methods are those of the arguments of type key.")
		b.WriteString("    methods:\n")
		for _, l := range t.Lines {
			fmt.Fprintf(&b, "      %s\n", l)
		}
		if len(t.Missing) > 0 {
			gensection.WrapComment(&b, "    ", "Not described, since the commands table has no key specs for them: "+strings.Join(t.Missing, ", ")+".")
		}
	}
	if compat != nil {
		compat.format(&b)
	}
	b.WriteString(endSection + "\n")
	return b.String()
}

// builderSection is the section of rules.yaml that genrueidis writes.
var builderSection = gensection.Section{
	Name:      "builder clients",
	Begin:     beginSection,
	End:       endSection,
	Where:     fmt.Sprintf("inside clients:, after %q", "# END GENERATED clients"),
	Generator: "go run ./internal/genrueidis",
}

// ReplaceSection replaces the lines from the begin marker to the end
// marker, both included, with section.
func ReplaceSection(data []byte, section string) ([]byte, error) {
	return builderSection.Replace(data, section)
}
