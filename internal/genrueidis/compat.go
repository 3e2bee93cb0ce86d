package main

import (
	"fmt"
	"go/types"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/internal/gensection"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/packages"
)

// A Compat is an adapter with go-redis's API shape over a builder library.
type Compat struct {
	Name string // "rueidiscompat"
	Path string // "github.com/redis/rueidis/rueidiscompat"
	// Like is the go-redis client whose rules the adapter's methods take.
	Like, LikePath string
	Types          [][2]string
	// EveryMaster names how the adapter's user sends one command to every
	// master (rules.yaml's every-master).
	EveryMaster string
}

// Compats are the adapters whose tables are generated: rueidis's
// rueidiscompat and valkey-go's valkeycompat, of the same shape, each at
// the version analyzer/testdata/go.mod pins.
var Compats = []Compat{
	{
		Name: "rueidiscompat", Path: "github.com/redis/rueidis/rueidiscompat",
		Like: "go-redis v9", LikePath: "github.com/redis/go-redis/v9",
		Types: compatTypes, EveryMaster: compatEveryMaster,
	},
	{
		Name: "valkeycompat", Path: "github.com/valkey-io/valkey-go/valkeycompat",
		Like: "go-redis v9", LikePath: "github.com/redis/go-redis/v9",
		Types: compatTypes, EveryMaster: compatEveryMaster,
	},
}

// compatEveryMaster: the adapter wraps a builder library's client, whose
// Nodes are a client of each node.
const compatEveryMaster = "the per-node clients of Nodes() of the client the adapter wraps"

// compatTypes are the adapters' types and their roles.
var compatTypes = [][2]string{
	{"Cmdable", "cluster"}, {"CoreCmdable", "cluster"}, {"Compat", "cluster"}, {"CacheCompat", "cluster"},
	{"Scripter", "cluster"}, {"Tx", "tx"}, {"Pipeliner", "pipeline"}, {"Pipeline", "pipeline"}, {"TxPipeline", "pipeline"},
}

// A CompatTable is the generated rules of the adapters.
type CompatTable struct {
	Tables []compatTable
}

type compatTable struct {
	Compat  Compat
	Lines   []string
	Differs []string // go-redis methods the adapter has with other parameters
}

// LoadCompat type-checks the adapters and the go-redis versions they
// follow, from dir's module, and keeps each go-redis rule whose method the
// adapter has with the same parameters.
func LoadCompat(dir string, rules *ruleset.Rules) (*CompatTable, error) {
	var paths []string
	for _, c := range Compats {
		paths = append(paths, c.Path, c.LikePath)
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: dir}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, err
	}
	byPath := map[string]*types.Package{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %v", p.PkgPath, p.Errors[0])
		}
		byPath[p.PkgPath] = p.Types
	}
	out := &CompatTable{}
	for _, c := range Compats {
		like := clientNamed(rules, c.Like)
		if like == nil {
			return nil, fmt.Errorf("the rules have no client %q for %s to follow", c.Like, c.Name)
		}
		t, err := compatRules(c, byPath[c.Path], byPath[c.LikePath], like)
		if err != nil {
			return nil, err
		}
		out.Tables = append(out.Tables, t)
	}
	return out, nil
}

func clientNamed(r *ruleset.Rules, name string) *ruleset.Client {
	for _, c := range r.Clients {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func compatRules(c Compat, pkg, like *types.Package, client *ruleset.Client) (compatTable, error) {
	t := compatTable{Compat: c}
	for _, name := range slices.Sorted(mapKeys(client.Methods)) {
		m := client.Methods[name]
		want := lookup(like, name)
		if want == nil {
			continue
		}
		got := lookup(pkg, name)
		if got == nil {
			continue
		}
		if !sameParams(want, got, used(m)) || !hasFields(got, m) {
			t.Differs = append(t.Differs, name)
			continue
		}
		t.Lines = append(t.Lines, name+": "+ruleText(m))
	}
	if len(t.Lines) == 0 {
		return t, fmt.Errorf("%s: no method has go-redis's parameters; is it still an adapter?", c.Path)
	}
	return t, nil
}

// lookup finds a rule's method in a package: "Recv.Name" on type Recv,
// "Name" as a package function or on the first of unqualifiedRecvs that
// has it.
func lookup(pkg *types.Package, name string) *types.Signature {
	recv, fname, qualified := strings.Cut(name, ".")
	recvs := []string{recv}
	if !qualified {
		fname = recv
		if f, ok := pkg.Scope().Lookup(fname).(*types.Func); ok {
			return f.Signature()
		}
		recvs = unqualifiedRecvs
	}
	for _, recv := range recvs {
		tn, ok := pkg.Scope().Lookup(recv).(*types.TypeName)
		if !ok {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, fname)
			if f, ok := obj.(*types.Func); ok {
				return f.Signature()
			}
		}
	}
	return nil
}

// unqualifiedRecvs are the types an unqualified method name is looked up
// on: the command interface, then the clients (go-redis's Watch and Do are
// methods of *Client, rueidiscompat's of Cmdable).
var unqualifiedRecvs = []string{"Cmdable", "Client", "Compat"}

// sameParams reports whether two signatures have as many parameters, and
// the same types for the parameters that a rule uses, compared by their
// names without packages.
func sameParams(a, b *types.Signature, used map[int]bool) bool {
	if a.Params().Len() != b.Params().Len() || a.Variadic() != b.Variadic() {
		return false
	}
	for i := range a.Params().Len() {
		if used[i] && typeText(a.Params().At(i).Type()) != typeText(b.Params().At(i).Type()) {
			return false
		}
	}
	return true
}

// used returns the parameters a rule reads: keys, patterns, arguments, the
// script, the function, the database.
func used(m *ruleset.Method) map[int]bool {
	u := map[int]bool{}
	for _, s := range slices.Concat(m.Keys, m.Patterns) {
		u[s.Param] = true
	}
	if m.Args != nil {
		u[m.Args.Param] = true
	}
	for _, p := range []int{m.Script, m.Fn, m.DB} {
		if p >= 0 {
			u[p] = true
		}
	}
	return u
}

var anyRE = regexp.MustCompile(`\bany\b`)

// typeText writes a type with its names unqualified, without pointers,
// and any spelled interface{}, so that *redis.ZStore and
// rueidiscompat.ZStore, func(*redis.Tx) error and func(rueidiscompat.Tx)
// error, and ...interface{} and ...any compare equal: the engine reads a
// struct's fields and a function's handle the same way through a pointer.
func typeText(t types.Type) string {
	s := types.TypeString(t, func(*types.Package) string { return "" })
	return strings.ReplaceAll(anyRE.ReplaceAllString(s, "interface{}"), "*", "")
}

// hasFields reports whether the struct parameters that a rule's selectors
// name have those fields in the adapter.
func hasFields(sig *types.Signature, m *ruleset.Method) bool {
	for _, s := range slices.Concat(m.Keys, m.Patterns) {
		field := s.Field
		if s.ElemField != "" {
			field = s.ElemField
		}
		if field == "" {
			continue
		}
		if s.Param >= sig.Params().Len() {
			return false
		}
		t := sig.Params().At(s.Param).Type()
		if s.ElemField != "" {
			// N[].F: the field of each element of a slice.
			sl, ok := t.Underlying().(*types.Slice)
			if !ok {
				return false
			}
			t = sl.Elem()
		}
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		found := false
		for i := range st.NumFields() {
			if st.Field(i).Name() == field {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// ruleText writes a method rule as rules.yaml does.
func ruleText(m *ruleset.Method) string {
	var f []string
	if m.Command != "" {
		f = append(f, "command: "+yamlScalar(m.Command))
	}
	if m.Kind != ruleset.KindCommand {
		f = append(f, "kind: "+string(m.Kind))
	}
	switch m.Script {
	case ruleset.NoParam:
	case ruleset.ReceiverParam:
		f = append(f, "script: receiver")
	default:
		f = append(f, fmt.Sprintf("script: %d", m.Script))
	}
	if m.Fn != ruleset.NoParam {
		f = append(f, fmt.Sprintf("fn: %d", m.Fn))
	}
	sels := func(ss []ruleset.Selector) string {
		q := make([]string, len(ss))
		for i, s := range ss {
			q[i] = fmt.Sprintf("%q", s.Text)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	if len(m.Keys) > 0 {
		f = append(f, "keys: "+sels(m.Keys))
	}
	if len(m.Patterns) > 0 {
		f = append(f, "patterns: "+sels(m.Patterns))
	}
	if m.Args != nil {
		f = append(f, fmt.Sprintf("args: %q", m.Args.Text))
	}
	if m.DB != ruleset.NoParam {
		f = append(f, fmt.Sprintf("db: %d", m.DB))
	}
	return "{" + strings.Join(f, ", ") + "}"
}

func (ct *CompatTable) format(b *strings.Builder) {
	for _, t := range ct.Tables {
		fmt.Fprintf(b, "  %s:\n", t.Compat.Name)
		fmt.Fprintf(b, "    packages: [%s]\n", t.Compat.Path)
		var roles []string
		for _, tr := range t.Compat.Types {
			roles = append(roles, tr[0]+": "+tr[1])
		}
		fmt.Fprintf(b, "    types: {%s}\n", strings.Join(roles, ", "))
		if t.Compat.EveryMaster != "" {
			fmt.Fprintf(b, "    every-master: %s\n", strconv.Quote(t.Compat.EveryMaster))
		}
		gensection.WrapComment(b, "    ", fmt.Sprintf("The adapter has %s's API shape: each rule of %s whose method the adapter has with the same parameters.", t.Compat.Like, t.Compat.Like))
		b.WriteString("    methods:\n")
		for _, l := range t.Lines {
			fmt.Fprintf(b, "      %s\n", l)
		}
		if len(t.Differs) > 0 {
			gensection.WrapComment(b, "    ", fmt.Sprintf("Not described, since the adapter's parameters differ from %s's: %s.", t.Compat.Like, strings.Join(t.Differs, ", ")))
		}
	}
}

// Build generates the section for the rules file data, reading the
// libraries from dir's module.
func Build(path string, data []byte, dir string) (string, error) {
	rules, err := ruleset.ParseRules(path, data)
	if err != nil {
		return "", err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return "", err
	}
	var tables []*Table
	for _, lib := range Libraries {
		root, err := moduleDir(lib.Module, dir)
		if err != nil {
			return "", fmt.Errorf("%s: %v (is it in %s/go.mod?)", lib.Module, err, dir)
		}
		b, err := ReadBuilder(root)
		if err != nil {
			return "", err
		}
		if err := checkTypes(lib, b); err != nil {
			return "", err
		}
		t, err := Generate(lib, b, rules)
		if err != nil {
			return "", err
		}
		tables = append(tables, t)
	}
	compat, err := LoadCompat(dir, rules)
	if err != nil {
		return "", err
	}
	return Format(tables, compat), nil
}
