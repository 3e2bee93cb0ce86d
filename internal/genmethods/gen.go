package main

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/internal/gensection"
	"github.com/slotlint/slotlint/ruleset"
)

// A Client is a go-redis major version to generate the method table of.
type Client struct {
	Name string // "go-redis v9"
	Path string // "github.com/redis/go-redis/v9"
	// Aliases are other import paths of the same API: releases published
	// at the module's earlier path.
	Aliases []string
	// Types are what the library's types are (ruleset.TypeRole), in the
	// order rules.yaml lists them.
	Types [][2]string
	// SplitWith are the methods that, all called in a package, make the
	// cluster client split the commands marked split by slot when they are
	// sent alone (rules.yaml's split-with); none for none.
	SplitWith []string
	// Options are the option structs that build a client that may be a
	// cluster, whose database it drops (rules.yaml's options), as their
	// YAML flow mappings by type name, in order; ClusterURLs the
	// functions that parse a URL into a cluster client's options.
	Options     [][2]string
	ClusterURLs []string
	// EveryMaster names how the client sends one command to every master
	// (rules.yaml's every-master).
	EveryMaster string
	// Flattens are the forms of one argument that the client spreads into
	// a pairs parameter (rules.yaml's flattens): appendArgs's type switch.
	Flattens []string
	// Specials are this client's own specials, beside those of every
	// go-redis (specials).
	Specials []special
}

// goRedisTypes are the roles of go-redis's types, the same in v8 and v9.
// Cmdable is what code hands around when it may hold a ClusterClient (as
// go-zero's RedisNode does), so it is a client that may talk to a Redis
// Cluster, as UniversalClient is.
var goRedisTypes = [][2]string{
	{"Client", "client"}, {"Conn", "client"},
	{"ClusterClient", "cluster"}, {"UniversalClient", "cluster"}, {"Cmdable", "cluster"}, {"Ring", "cluster"},
	{"Tx", "tx"}, {"Pipeline", "pipeline"}, {"Pipeliner", "pipeline"},
}

// goRedisEveryMaster is how a keyspace-wide command reaches every master
// with go-redis, from v6 on: ClusterClient.ForEachMaster, which calls its
// function with a client of each master (internal/matrix's
// TestForEachMasterReachesEveryMaster).
const goRedisEveryMaster = "ForEachMaster on the *redis.ClusterClient"

// Clients are the client libraries whose tables are generated, in the order
// of rules.yaml.
var Clients = []Client{
	// go-redis v9 splits MGET, DEL and the other multi_shard commands sent
	// alone on a ClusterClient only with the resolver that reads Redis's
	// command tips: c.SetCommandInfoResolver(c.NewDynamicResolver()). Its
	// default resolver knows only FT.* commands, and every v9 release
	// refuses them with CROSSSLOT otherwise (internal/matrix's rows).
	//
	// NewUniversalClient builds a ClusterClient, which has no database,
	// when MasterName is empty and Addrs has two addresses or more, or
	// (v9) IsClusterMode is set; ParseClusterURL (v9) drops the URL's
	// path. clustercheck's readiness ground truth shows both on a live
	// cluster.
	//
	// v9's release candidates (v9.0.0-rc.1, rc.2) were published at
	// github.com/go-redis/redis/v9, with v9.0.0's API: internal/matrix runs
	// its rows with v9.0.0-rc.1 too.
	{
		Name: "go-redis v9", Path: "github.com/redis/go-redis/v9", Aliases: []string{"github.com/go-redis/redis/v9"}, Types: goRedisTypes, EveryMaster: goRedisEveryMaster,
		SplitWith:   []string{"ClusterClient.SetCommandInfoResolver", "ClusterClient.NewDynamicResolver"},
		Options:     [][2]string{{"UniversalOptions", "{db: DB, addrs: Addrs, cluster: IsClusterMode, sentinel: MasterName, constructor: NewUniversalClient}"}},
		ClusterURLs: []string{"ParseClusterURL"},
		Flattens:    ruleset.FlatForms,
	},
	{
		Name: "go-redis v8", Path: "github.com/go-redis/redis/v8", Types: goRedisTypes, EveryMaster: goRedisEveryMaster,
		Options:  [][2]string{{"UniversalOptions", "{db: DB, addrs: Addrs, sentinel: MasterName, constructor: NewUniversalClient}"}},
		Flattens: ruleset.FlatForms,
	},
	// v7 and v6 have v8's API without contexts: their parameters count
	// from 0 at the first one after the receiver, so every selector is one
	// less than v8's for the same method. Their appendArgs spreads fewer
	// forms of a single argument: v7 a []string or a map[string]interface{},
	// v6 a []string (internal/matrix's TestMSetFlattened).
	{Name: "go-redis v7", Path: "github.com/go-redis/redis/v7", Types: goRedisTypes, EveryMaster: goRedisEveryMaster, Flattens: []string{"[]string", "map[string]interface{}"}},
	//
	// v6's Tx.Pipeline and Tx.Pipelined queue in MULTI/EXEC, as
	// TxPipelined does ("Pipelined executes commands queued in the fn in a
	// transaction"); from v7 on they send a plain pipeline.
	// internal/matrix's TestTxPipelinedOfWatch shows both on a live
	// cluster.
	{Name: "go-redis v6", Path: "github.com/go-redis/redis", Types: goRedisTypes, EveryMaster: goRedisEveryMaster, Flattens: []string{"[]string"}, Specials: []special{
		sp("Tx.Pipelined", "", ruleset.KindTxPipelined, "", 1, nil, ""),
		sp("Tx.Pipeline", "", ruleset.KindTxPipeline, "", -1, nil, ""),
	}},
}

// An API is a loaded, type-checked package with the syntax of its files.
type API struct {
	Path  string
	Types *types.Package
	// funcs indexes function declarations by receiver type name ("" for
	// functions) and name.
	funcs map[string]map[string]*ast.FuncDecl
}

// Load type-checks the package at path from source, resolving it from dir
// (a directory inside this module, whose go.mod pins the version).
func Load(path, dir string) (*API, error) {
	bp, err := build.Default.Import(path, dir, 0)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, bp.Dir+"/"+name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(path, fset, files, nil)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %v", path, err)
	}
	api := &API{Path: path, Types: pkg, funcs: map[string]map[string]*ast.FuncDecl{}}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			recv := ""
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				recv = recvName(fd.Recv.List[0].Type)
			}
			if api.funcs[recv] == nil {
				api.funcs[recv] = map[string]*ast.FuncDecl{}
			}
			api.funcs[recv][fd.Name.Name] = fd
		}
	}
	return api, nil
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return recvName(e.X)
	}
	return ""
}

// Receivers are the types whose methods a bare method name of the table may
// be called on, where the package has them.
var Receivers = []string{
	"Cmdable", "StatefulCmdable", "Pipeliner", "UniversalClient",
	"Client", "ClusterClient", "Ring", "Tx", "Conn", "Pipeline", "AutoPipeliner",
}

// Func returns the function or method recv.name of the package: a package
// function when recv is "", else a method of the named type or a pointer
// to it, or of the interface.
func (a *API) Func(recv, name string) *types.Func {
	if recv == "" {
		f, _ := a.Types.Scope().Lookup(name).(*types.Func)
		return f
	}
	tn, ok := a.Types.Scope().Lookup(recv).(*types.TypeName)
	if !ok {
		return nil
	}
	t := tn.Type()
	if !types.IsInterface(t) {
		t = types.NewPointer(t)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, a.Types, name)
	f, _ := obj.(*types.Func)
	return f
}

// Targets returns the functions that a table entry named name (a bare
// method, "Recv.Method", or a package function) describes: every receiver
// of Receivers with the method, except those that the table has a qualified
// entry for.
func (a *API) Targets(name string, qualified func(recv string) bool) []*types.Func {
	if recv, method, ok := strings.Cut(name, "."); ok {
		if f := a.Func(recv, method); f != nil {
			return []*types.Func{f}
		}
		return nil
	}
	if f := a.Func("", name); f != nil {
		return []*types.Func{f}
	}
	var out []*types.Func
	for _, recv := range Receivers {
		if qualified(recv) {
			continue
		}
		if f := a.Func(recv, name); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// A Method is one generated table entry.
type Method struct {
	Name     string
	Command  string // upper case, "XGROUP CREATE" for a subcommand
	Kind     ruleset.MethodKind
	Keys     []string
	Patterns []string
	Args     string
	Script   string // a parameter number or "receiver"
	Fn, DB   int    // -1 when absent
	// NeedsKeys: a cluster client refuses a call with no keys; of a
	// command, the client refuses a call that sets none of its key fields.
	NeedsKeys bool
	// Value: a raw function that builds the command as a value (NewCmd).
	Value bool
	// partial says why some keys of the method cannot be selected: a
	// parameter named like keys whose type no selector reaches.
	partial string
}

// Line formats the entry as a flow mapping.
func (m *Method) Line() string {
	var parts []string
	if m.Command != "" {
		parts = append(parts, "command: "+yamlScalar(m.Command))
	}
	if m.Kind != "" && m.Kind != ruleset.KindCommand {
		parts = append(parts, "kind: "+string(m.Kind))
	}
	if m.Script != "" {
		parts = append(parts, "script: "+m.Script)
	}
	if m.Fn >= 0 {
		parts = append(parts, "fn: "+strconv.Itoa(m.Fn))
	}
	if len(m.Keys) > 0 {
		parts = append(parts, "keys: "+quotedList(m.Keys))
	}
	if m.NeedsKeys {
		parts = append(parts, "needs-keys: true")
	}
	if len(m.Patterns) > 0 {
		parts = append(parts, "patterns: "+quotedList(m.Patterns))
	}
	if m.Args != "" {
		parts = append(parts, "args: "+strconv.Quote(m.Args))
	}
	if m.DB >= 0 {
		parts = append(parts, "db: "+strconv.Itoa(m.DB))
	}
	if m.Value {
		parts = append(parts, "value: true")
	}
	return m.Name + ": {" + strings.Join(parts, ", ") + "}"
}

func yamlScalar(s string) string {
	if strings.ContainsAny(s, " :,[]{}#&*!|>'\"%@`") {
		return strconv.Quote(s)
	}
	return s
}

func quotedList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// A special is a method whose rule says what it does beyond sending one
// command: scripts, functions, transactions, pipelines and raw commands.
// These are written here by hand, for the methods of an API whose methods
// take a ctx first (parameter 0); Generate shifts them for an API without
// contexts (go-redis v7 and v6). The test checks them against the API.
type special struct {
	name string
	m    Method
}

func sp(name, command string, kind ruleset.MethodKind, script string, fn int, keys []string, args string) special {
	return special{name, Method{Name: name, Command: command, Kind: kind, Script: script, Fn: fn, Keys: keys, Args: args, DB: -1}}
}

// needsKeys marks a special's cluster client as refusing it with no keys.
func needsKeys(s special) special {
	s.m.NeedsKeys = true
	return s
}

var specials = []special{
	sp("Eval", "EVAL", ruleset.KindScript, "1", -1, []string{"2[]"}, "3..."),
	sp("EvalRO", "EVAL_RO", ruleset.KindScript, "1", -1, []string{"2[]"}, "3..."),
	sp("EvalSha", "EVALSHA", ruleset.KindScriptSHA, "1", -1, []string{"2[]"}, "3..."),
	sp("EvalShaRO", "EVALSHA_RO", ruleset.KindScriptSHA, "1", -1, []string{"2[]"}, "3..."),
	// A Script holds its source, so its methods that send EVALSHA still
	// run a known script.
	sp("Script.Run", "EVALSHA", ruleset.KindScript, "receiver", -1, []string{"2[]"}, "3..."),
	sp("Script.RunRO", "EVALSHA_RO", ruleset.KindScript, "receiver", -1, []string{"2[]"}, "3..."),
	sp("Script.Eval", "EVAL", ruleset.KindScript, "receiver", -1, []string{"2[]"}, "3..."),
	sp("Script.EvalRO", "EVAL_RO", ruleset.KindScript, "receiver", -1, []string{"2[]"}, "3..."),
	sp("Script.EvalSha", "EVALSHA", ruleset.KindScript, "receiver", -1, []string{"2[]"}, "3..."),
	sp("Script.EvalShaRO", "EVALSHA_RO", ruleset.KindScript, "receiver", -1, []string{"2[]"}, "3..."),
	sp("Script.Load", "SCRIPT LOAD", ruleset.KindScriptLoad, "receiver", -1, nil, ""),
	sp("ScriptLoad", "SCRIPT LOAD", ruleset.KindScriptLoad, "1", -1, nil, ""),
	// Package functions: their parameters count from 0 without a ctx.
	sp("NewScript", "", ruleset.KindNewScript, "0", -1, nil, ""),
	sp("NewScriptServerSHA", "", ruleset.KindNewScript, "0", -1, nil, ""),
	sp("FCall", "FCALL", ruleset.KindFunction, "", -1, []string{"2[]"}, "3..."),
	sp("FCallRO", "FCALL_RO", ruleset.KindFunction, "", -1, []string{"2[]"}, "3..."),
	sp("FCallRo", "FCALL_RO", ruleset.KindFunction, "", -1, []string{"2[]"}, "3..."),
	// A cluster client refuses a Watch with no keys, before running its
	// function (internal/matrix's TestWatchWithoutKeys, v6 to v9).
	needsKeys(sp("Watch", "WATCH", ruleset.KindWatch, "", 1, []string{"2..."}, "")),
	sp("Tx.Watch", "WATCH", ruleset.KindCommand, "", -1, []string{"1..."}, ""),
	// UNWATCH takes no keys; go-redis sends any it is given.
	sp("Tx.Unwatch", "UNWATCH", ruleset.KindCommand, "", -1, nil, ""),
	sp("TxPipelined", "", ruleset.KindTxPipelined, "", 1, nil, ""),
	sp("TxPipeline", "", ruleset.KindTxPipeline, "", -1, nil, ""),
	sp("Pipelined", "", ruleset.KindPipelined, "", 1, nil, ""),
	sp("Pipeline", "", ruleset.KindPipeline, "", -1, nil, ""),
	sp("Exec", "", ruleset.KindExec, "", -1, nil, ""),
	sp("Do", "", ruleset.KindRaw, "", -1, nil, "1..."),
	// Process sends a command value that NewCmd, NewIntCmd ... built
	// (valueCommands).
	sp("Process", "", ruleset.KindSend, "", -1, nil, "1"),
	// Sharded channels are keys in SSUBSCRIBE's key specs: a cluster
	// refuses channels in different slots. The method is not in Cmdable
	// (ClusterClient, UniversalClient and PubSub have it; PubSub alone has
	// SUnsubscribe).
	sp("SSubscribe", "SSUBSCRIBE", ruleset.KindCommand, "", -1, []string{"1..."}, ""),
	sp("PubSub.SUnsubscribe", "SUNSUBSCRIBE", ruleset.KindCommand, "", -1, []string{"1..."}, ""),
}

// valueCommands returns the rules of the package's functions that build a
// raw command as a value, to be sent by Process: NewCmd(ctx, args...),
// NewIntCmd, NewStringSliceCmd ..., every exported New...Cmd whose
// parameters are an optional ctx and the command's arguments, and which
// returns a pointer.
func valueCommands(api *API) []*Method {
	var out []*Method
	for _, name := range api.Types.Scope().Names() {
		f, ok := api.Types.Scope().Lookup(name).(*types.Func)
		if !ok || !f.Exported() || !strings.HasPrefix(name, "New") || !strings.HasSuffix(name, "Cmd") {
			continue
		}
		sig := f.Signature()
		first := 0
		if takesContext(sig) {
			first = 1
		}
		if !sig.Variadic() || sig.Params().Len() != first+1 || sig.Results().Len() != 1 {
			continue
		}
		if _, ok := sig.Results().At(0).Type().(*types.Pointer); !ok {
			continue
		}
		if elem, ok := sig.Params().At(first).Type().(*types.Slice); !ok || !types.IsInterface(elem.Elem()) {
			continue
		}
		out = append(out, &Method{Name: name, Kind: ruleset.KindRaw, Args: strconv.Itoa(first) + "...", Fn: -1, DB: -1, Value: true})
	}
	return out
}

// takesContext reports whether a signature's first parameter is a
// context.Context.
func takesContext(sig *types.Signature) bool {
	if sig.Params().Len() == 0 {
		return false
	}
	n, ok := sig.Params().At(0).Type().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// withoutContext returns the rule of a special written for a method that
// takes a ctx first, for the same method without it: every parameter one
// less.
func (m Method) withoutContext() Method {
	shift := func(sel string) string {
		i := 0
		for i < len(sel) && sel[i] >= '0' && sel[i] <= '9' {
			i++
		}
		n, err := strconv.Atoi(sel[:i])
		if err != nil || n == 0 {
			panic(fmt.Sprintf("special %s: selector %q has no parameter after ctx", m.Name, sel))
		}
		return strconv.Itoa(n-1) + sel[i:]
	}
	out := m
	out.Keys = nil
	for _, k := range m.Keys {
		out.Keys = append(out.Keys, shift(k))
	}
	out.Patterns = nil
	for _, p := range m.Patterns {
		out.Patterns = append(out.Patterns, shift(p))
	}
	if m.Args != "" {
		out.Args = shift(m.Args)
	}
	if m.Script != "" && m.Script != "receiver" {
		out.Script = shift(m.Script)
	}
	if m.Fn >= 0 {
		out.Fn = m.Fn - 1
	}
	if m.DB >= 0 {
		out.DB = m.DB - 1
	}
	return out
}

// keyParams are the parameter names that hold keys, in lower case.
var keyParams = map[string]bool{
	"key": true, "keys": true, "newkey": true,
	"destkey": true, "destination": true, "dest": true, "dst": true,
	"source": true, "sourcekey": true, "sourcekeys": true,
	"stream": true, "store": true,
}

// keyFields are the fields of argument structs that hold keys.
var keyFields = map[string]bool{
	"Key": true, "Key1": true, "Key2": true, "Keys": true, "Stream": true, "Streams": true,
}

// halfFields are []string fields that hold keys and then as many IDs.
var halfFields = map[string]bool{"Streams": true}

// pairCommands take keys and values in turns (MSET k1 v1 k2 v2).
var pairCommands = map[string]bool{"mset": true, "msetnx": true, "msetex": true}

// dbCommands take a database number that must be 0 on a Redis Cluster. A
// MOVE to database 0 on a cluster moves a key onto itself, which Redis
// refuses too, so only its other databases matter.
var dbCommands = map[string]bool{"copy": true, "move": true}

// containers are the commands with subcommands, whose method names join
// the two: ObjectEncoding, XGroupCreate.
func containers(cmds map[string]*ruleset.Command) map[string]bool {
	out := map[string]bool{}
	for name := range cmds {
		if parent, _, ok := strings.Cut(name, "|"); ok {
			out[parent] = true
		}
	}
	return out
}

// commandOverrides name the command where the method's code does not say
// it in a way the generator reads.
var commandOverrides = map[string]string{
	"VClearAttributes": "vsetattr",
	// v8: ZADD ... INCR
	"ZIncr":   "zadd",
	"ZIncrNX": "zadd",
	"ZIncrXX": "zadd",
}

// skipMethods are left out of the table.
var skipMethods = map[string]string{
	"JSONDebugMemory": "go-redis panics: not implemented",
}

// unexpressible are methods whose keys no selector can describe, with the
// reason, which rules.yaml gives.
var unexpressible = map[string]string{}

// A Table is the generated method table of one client, with what was left
// out and why.
type Table struct {
	Client  Client
	Methods []*Method
	// Missing are methods with keys whose command is not in the commands
	// table, as "Method (COMMAND)".
	Missing []string
	// Unexpressible are methods whose keys no selector describes, as
	// "Method (reason)".
	Unexpressible []string
	// AllMasters are the methods of keyspace-wide commands that the
	// cluster client defines itself, sending the command to every master
	// (go-redis's ClusterClient.DBSize): not keyspace-wide there.
	AllMasters []string
}

// Generate builds the method table of a client from its API and the
// commands table.
func Generate(c Client, api *API, cmds map[string]*ruleset.Command) (*Table, error) {
	t := &Table{Client: c}
	for _, tr := range c.Types {
		if _, ok := api.Types.Scope().Lookup(tr[0]).(*types.TypeName); !ok {
			return nil, fmt.Errorf("%s has no type %s, which the generator gives the role %s", api.Path, tr[0], tr[1])
		}
	}
	conts := containers(cmds)
	have := map[string]bool{}
	for _, s := range append(slices.Clone(specials), c.Specials...) {
		qualified := func(recv string) bool { return false }
		targets := api.Targets(s.name, qualified)
		if len(targets) == 0 {
			continue
		}
		m := s.m
		if sig := targets[0].Signature(); sig.Recv() != nil && !takesContext(sig) {
			m = m.withoutContext()
		}
		t.Methods = append(t.Methods, &m)
		have[s.name] = true
	}
	t.Methods = append(t.Methods, valueCommands(api)...)
	cmdable, ok := api.Types.Scope().Lookup("Cmdable").Type().Underlying().(*types.Interface)
	if !ok {
		return nil, fmt.Errorf("%s: Cmdable is not an interface", api.Path)
	}
	var errs []string
	for i := 0; i < cmdable.NumMethods(); i++ {
		fn := cmdable.Method(i)
		name := fn.Name()
		if have[name] || skipMethods[name] != "" {
			continue
		}
		m, missing, err := api.method(fn, cmds, conts)
		switch {
		case err != nil:
			errs = append(errs, err.Error())
		case missing != "":
			t.Missing = append(t.Missing, fmt.Sprintf("%s (%s)", name, missing))
		case m != nil && m.partial != "":
			t.Unexpressible = append(t.Unexpressible, fmt.Sprintf("%s (%s)", name, m.partial))
		case m != nil && len(m.Keys) == 0 && cmds[strings.ToLower(strings.ReplaceAll(m.Command, " ", "|"))].KeyspaceWide:
			if api.funcs["ClusterClient"][name] != nil {
				t.AllMasters = append(t.AllMasters, name)
				continue
			}
			t.Methods = append(t.Methods, m)
		case m != nil && len(m.Keys) == 0:
			if why, ok := unexpressible[name]; ok {
				t.Unexpressible = append(t.Unexpressible, fmt.Sprintf("%s (%s)", name, why))
			} else {
				errs = append(errs, fmt.Sprintf("%s.%s sends %s, which takes keys, but no parameter is a key; add the method to the generator's overrides", api.Path, name, m.Command))
			}
		case m != nil:
			t.Methods = append(t.Methods, m)
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	sort.Slice(t.Methods, func(i, j int) bool { return t.Methods[i].Name < t.Methods[j].Name })
	sort.Strings(t.Missing)
	sort.Strings(t.Unexpressible)
	sort.Strings(t.AllMasters)
	return t, nil
}

// method derives the rule of a Cmdable method: nil when it takes no keys;
// missing names its command when that is not in the commands table but the
// method has key parameters.
func (a *API) method(fn *types.Func, cmds map[string]*ruleset.Command, conts map[string]bool) (m *Method, missing string, err error) {
	name := fn.Name()
	sig := fn.Type().(*types.Signature)
	m = &Method{Name: name, Kind: ruleset.KindCommand, Fn: -1, DB: -1}
	cmd := commandOverrides[name]
	if cmd == "" {
		cmd = a.commandOf(name, conts)
	}
	// GEORADIUS and GEORADIUSBYMEMBER (not their _RO forms) store their
	// result in the key of the query's Store or StoreDist: v8 and v9 send
	// them only from the methods named ...Store, v6 from GeoRadius itself.
	geoStore := strings.HasSuffix(name, "Store") || cmd == "georadius" || cmd == "georadiusbymember"
	params := sig.Params()
	for i := 0; i < params.Len(); i++ {
		p := params.At(i)
		variadic := sig.Variadic() && i == params.Len()-1
		t := p.Type()
		if keyParams[strings.ToLower(p.Name())] {
			switch {
			case variadic && isStringSlice(t):
				m.Keys = append(m.Keys, fmt.Sprintf("%d...", i))
				continue
			case isStringSlice(t):
				m.Keys = append(m.Keys, fmt.Sprintf("%d[]", i))
				continue
			case isString(t):
				m.Keys = append(m.Keys, strconv.Itoa(i))
				continue
			case isStringKeyedMap(t):
				// The keys of a map whose values go with them
				// (CMSMergeWithWeight's source keys and weights); the
				// command's key specs must take a list of keys, checked
				// below.
				m.Keys = append(m.Keys, fmt.Sprintf("%d{}", i))
				continue
			default:
				if st, _ := structOf(t); st == nil {
					m.partial = fmt.Sprintf("the keys are in %s %s", p.Name(), types.TypeString(t, types.RelativeTo(a.Types)))
					continue
				}
			}
		}
		st, named := structOf(t)
		if st == nil || named.Obj().Pkg() != a.Types {
			continue
		}
		if named.Obj().Name() == "Sort" {
			for j := 0; j < st.NumFields(); j++ {
				switch f := st.Field(j); {
				case f.Name() == "By" && isString(f.Type()):
					m.Patterns = append(m.Patterns, fmt.Sprintf("%d.By", i))
				case f.Name() == "Get" && isStringSlice(f.Type()):
					m.Patterns = append(m.Patterns, fmt.Sprintf("%d.Get[]", i))
				}
			}
			continue
		}
		for j := 0; j < st.NumFields(); j++ {
			f := st.Field(j)
			key := keyFields[f.Name()]
			if named.Obj().Name() == "GeoRadiusQuery" && geoStore && (f.Name() == "Store" || f.Name() == "StoreDist") {
				key = true
			}
			if !key || !f.Exported() {
				continue
			}
			switch {
			case isStringSlice(f.Type()) && halfFields[f.Name()]:
				m.Keys = append(m.Keys, fmt.Sprintf("%d.%s[:half]", i, f.Name()))
			case isStringSlice(f.Type()):
				m.Keys = append(m.Keys, fmt.Sprintf("%d.%s[]", i, f.Name()))
			case isString(f.Type()):
				m.Keys = append(m.Keys, fmt.Sprintf("%d.%s", i, f.Name()))
			}
		}
	}

	m.NeedsKeys = a.refusesNoFieldKey(name, sig, m.Keys)
	if cmd == "" {
		if len(m.Keys) > 0 {
			return nil, "", fmt.Errorf("%s.%s: no command name found in its code; add it to the generator's commandOverrides", a.Path, name)
		}
		return nil, "", nil
	}
	c := cmds[cmd]
	upper := strings.ToUpper(strings.ReplaceAll(cmd, "|", " "))
	if c == nil {
		if len(m.Keys) > 0 {
			return nil, upper, nil
		}
		return nil, "", nil
	}
	m.Command = upper
	if !hasKeys(c) {
		if c.KeyspaceWide {
			// KEYS, SCAN, RANDOMKEY: no keys, but a cluster client sends
			// them to one node (keyspace-wide).
			m.Keys = nil
			return m, "", nil
		}
		// A parameter named like a key that Redis does not take as one
		// (CLUSTER KEYSLOT, DEBUG OBJECT).
		return nil, "", nil
	}
	if pairCommands[cmd] {
		if sig.Variadic() {
			m.Keys = append(m.Keys, fmt.Sprintf("%d...pairs", params.Len()-1))
		}
	} else if last := params.At(params.Len() - 1); len(m.Keys) == 0 && sig.Variadic() && halfRange(c) && isStringSlice(last.Type()) {
		// Keys and then as many IDs in a variadic ...string, as the
		// command's key spec says (XREAD STREAMS key [key ...] id [id ...]).
		m.Keys = append(m.Keys, fmt.Sprintf("%d...half", params.Len()-1))
	} else if step := rangeStep(c); len(m.Keys) == 0 && step > 1 && sig.Variadic() && isEmptyInterface(last.Type()) {
		// Keys and values in turns in a variadic ...interface{}, as the
		// command's key spec says: every step-th element from the first.
		if form, ok := stepForms[step]; ok {
			m.Keys = append(m.Keys, fmt.Sprintf("%d...%s", params.Len()-1, form))
		}
	}
	if step := rangeStep(c); len(m.Keys) == 0 && step > 1 {
		// Groups of step arguments, each led by its key, that the method
		// takes as one slice element each: a struct with one key field
		// (JSONMSetArgs's []JSONSetArgs), or a slice whose first element is
		// the key (TSMAdd's [][]interface{}).
		for i := 1; i < params.Len(); i++ {
			if sel := elemSelector(i, params.At(i).Type()); sel != "" {
				m.Keys = append(m.Keys, sel)
				break
			}
		}
	}
	for _, k := range m.Keys {
		if s, err := ruleset.ParseSelector(k); err == nil && s.MapKeys && !listKeys(c) {
			return nil, "", fmt.Errorf("%s.%s: the keys of map parameter %d would be keys, but %s takes no list of keys; fix the generator's rules", a.Path, name, s.Param, upper)
		}
	}
	if dbCommands[cmd] {
		for i := 0; i < params.Len(); i++ {
			if p := params.At(i); p.Name() == "db" && isInt(p.Type()) {
				m.DB = i
			}
		}
	}
	if n, ok := fixedKeys(c); ok && len(m.Keys) > 0 && len(m.Patterns) == 0 {
		single := 0
		for _, k := range m.Keys {
			if s, err := ruleset.ParseSelector(k); err == nil && !s.Variadic && !s.Slice {
				single++
			}
		}
		if single != len(m.Keys) || single != n {
			return nil, "", fmt.Errorf("%s.%s: %s takes %d keys, but the generator found %v; fix the generator's rules", a.Path, name, upper, n, m.Keys)
		}
	}
	return m, "", nil
}

// refusesNoFieldKey reports whether the method refuses a call that sets
// none of the key fields of a struct parameter with several, as
// GeoRadiusStore does: its body tests all of them empty, joined by &&
// (if query.Store == "" && query.StoreDist == "" { ... requires Store or
// StoreDist }; internal/matrix's TestGeoRadiusStoreNeedsStore, v7 to v9).
func (a *API) refusesNoFieldKey(name string, sig *types.Signature, keys []string) bool {
	fd := a.funcs["cmdable"][name]
	if fd == nil || fd.Body == nil {
		return false
	}
	fields := map[int][]string{}
	for _, k := range keys {
		if s, err := ruleset.ParseSelector(k); err == nil && s.Field != "" && !s.Slice {
			fields[s.Param] = append(fields[s.Param], s.Field)
		}
	}
	for i, fs := range fields {
		if len(fs) < 2 {
			continue
		}
		param := sig.Params().At(i).Name()
		found := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if is, ok := n.(*ast.IfStmt); ok && !found {
				tested := map[string]bool{}
				found = allEmpty(is.Cond, param, tested) && len(tested) == len(fs)
				for _, f := range fs {
					found = found && tested[f]
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// allEmpty reports whether x is param.F == "" or a && of such tests,
// adding each F to tested.
func allEmpty(x ast.Expr, param string, tested map[string]bool) bool {
	b, ok := ast.Unparen(x).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.LAND:
		return allEmpty(b.X, param, tested) && allEmpty(b.Y, param, tested)
	case token.EQL:
		sel, ok := ast.Unparen(b.X).(*ast.SelectorExpr)
		lit, ok2 := ast.Unparen(b.Y).(*ast.BasicLit)
		if !ok || !ok2 || lit.Value != `""` {
			return false
		}
		if id, ok := sel.X.(*ast.Ident); !ok || id.Name != param {
			return false
		}
		tested[sel.Sel.Name] = true
		return true
	}
	return false
}

// elemSelector returns the selector of the keys in each element of slice
// parameter i of type t: N[].F for a struct (or pointer) element with one
// string key field F, N[][0] for a []interface{} element; "" for others.
func elemSelector(i int, t types.Type) string {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return ""
	}
	if inner, ok := sl.Elem().Underlying().(*types.Slice); ok && isEmptyInterface(inner.Elem()) {
		return fmt.Sprintf("%d[][0]", i)
	}
	st, _ := structOf(sl.Elem())
	if st == nil {
		return ""
	}
	var found []string
	for j := 0; j < st.NumFields(); j++ {
		if f := st.Field(j); f.Exported() && keyFields[f.Name()] && isString(f.Type()) {
			found = append(found, f.Name())
		}
	}
	if len(found) != 1 {
		return ""
	}
	return fmt.Sprintf("%d[].%s", i, found[0])
}

// isStringKeyedMap reports whether t is a map with string keys.
func isStringKeyedMap(t types.Type) bool {
	m, ok := t.Underlying().(*types.Map)
	return ok && isString(m.Key())
}

// listKeys reports whether a command's key specs take a list of keys of a
// length the caller chooses: a key count or a range to the end.
func listKeys(c *ruleset.Command) bool {
	for _, ks := range c.Keys {
		if !slices.Contains(ks.Flags, "NOT_KEY") && (ks.IsKeyNum || ks.LastKey < 0) {
			return true
		}
	}
	return false
}

// stepForms name the variadic selector forms by their step.
var stepForms = map[int]string{2: "pairs", 3: "triples"}

// rangeStep returns the step of a command whose only key spec is a range
// from argument 1 to the last argument, or 0.
func rangeStep(c *ruleset.Command) int {
	if len(c.Keys) != 1 {
		return 0
	}
	ks := c.Keys[0]
	if ks.Keyword != "" || ks.IsKeyNum || ks.Index != 1 || ks.LastKey != -1 || ks.Limit > 1 {
		return 0
	}
	return ks.Step
}

// halfRange reports whether a command's only key spec takes the first half
// of the arguments after its begin (limit 2), as XREAD's streams.
func halfRange(c *ruleset.Command) bool {
	return len(c.Keys) == 1 && c.Keys[0].LastKey == -1 && c.Keys[0].Limit == 2 && !c.Keys[0].IsKeyNum
}

func isEmptyInterface(t types.Type) bool {
	if s, ok := t.(*types.Slice); ok {
		t = s.Elem()
	}
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.Empty()
}

// hasKeys reports whether a command takes keys: a key spec not flagged
// NOT_KEY.
func hasKeys(c *ruleset.Command) bool {
	for _, ks := range c.Keys {
		if !slices.Contains(ks.Flags, "NOT_KEY") {
			return true
		}
	}
	return false
}

// fixedKeys returns the number of keys of a command whose key specs are all
// single keys at fixed places.
func fixedKeys(c *ruleset.Command) (int, bool) {
	n := 0
	for _, ks := range c.Keys {
		if slices.Contains(ks.Flags, "NOT_KEY") {
			continue
		}
		if ks.Keyword != "" || ks.IsKeyNum || ks.LastKey != 0 {
			return 0, false
		}
		n++
	}
	return n, n > 0
}

// commandOf finds the command a Cmdable method sends from its code: the
// first string literal of its body, or of the bodies of methods of the same
// receiver that it calls, that names the method (the literal, without '.'
// and '_', is a prefix of the method's name in lower case, or the name of
// it). For a command with subcommands, the next literal names the
// subcommand. It returns "" when no literal fits.
func (a *API) commandOf(name string, conts map[string]bool) string {
	var fd *ast.FuncDecl
	var recv string
	for _, r := range []string{"cmdable", "statefulCmdable"} {
		if d := a.funcs[r][name]; d != nil {
			fd, recv = d, r
			break
		}
	}
	if fd == nil {
		return ""
	}
	var lits []string
	seen := map[*ast.FuncDecl]bool{}
	var walk func(fd *ast.FuncDecl)
	walk = func(fd *ast.FuncDecl) {
		if seen[fd] {
			return
		}
		seen[fd] = true
		recvIdent := ""
		if fd.Recv != nil && len(fd.Recv.List[0].Names) == 1 {
			recvIdent = fd.Recv.List[0].Names[0].Name
		}
		// The parameters' type names, to follow sort.args(...) into the
		// method args of Sort.
		paramTypes := map[string]string{}
		for _, f := range fd.Type.Params.List {
			for _, n := range f.Names {
				paramTypes[n.Name] = recvName(f.Type)
			}
		}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					if s, err := strconv.Unquote(n.Value); err == nil {
						lits = append(lits, s)
					}
				}
			case *ast.CallExpr:
				// The literals passed come before those of the callee.
				for _, arg := range n.Args {
					ast.Inspect(arg, visit)
				}
				var callee *ast.FuncDecl
				switch fun := n.Fun.(type) {
				case *ast.SelectorExpr:
					if id, ok := fun.X.(*ast.Ident); ok {
						if id.Name == recvIdent {
							callee = a.funcs[recv][fun.Sel.Name]
						} else if t := paramTypes[id.Name]; t != "" {
							callee = a.funcs[t][fun.Sel.Name]
						}
					}
					ast.Inspect(fun.X, visit)
				case *ast.Ident:
					callee = a.funcs[""][fun.Name]
				}
				if callee != nil {
					walk(callee)
				}
				return false
			}
			return true
		}
		ast.Inspect(fd.Body, visit)
	}
	walk(fd)
	lower := strings.ToLower(name)
	norm := func(s string) string {
		return strings.NewReplacer(".", "", "_", "").Replace(strings.ToLower(s))
	}
	fits := func(prefix string) bool {
		return prefix != "" && (strings.HasPrefix(lower, prefix) || strings.HasPrefix(prefix, lower))
	}
	for i, l := range lits {
		if !fits(norm(l)) {
			continue
		}
		cmd := strings.ToLower(l)
		if !conts[cmd] {
			return cmd
		}
		for _, sub := range lits[i+1:] {
			if fits(norm(l) + norm(sub)) {
				return cmd + "|" + strings.ToLower(sub)
			}
		}
		return cmd
	}
	return ""
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

func isInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isStringSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && isString(s.Elem())
}

// structOf returns the struct type of a named struct or a pointer to one.
func structOf(t types.Type) (*types.Struct, *types.Named) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok {
		return nil, nil
	}
	s, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil, nil
	}
	return s, n
}

// Format writes the clients section: the tables of the clients in order.
func Format(tables []*Table, commandsSource string) string {
	var b strings.Builder
	b.WriteString("# BEGIN GENERATED clients\n")
	b.WriteString("# Generated by go run ./internal/genmethods from the go-redis versions in\n")
	b.WriteString("# go.mod and the commands table below. Do not edit this section by hand:\n")
	b.WriteString("# run the generator again, or override methods in your own rules file.\n")
	b.WriteString("clients:\n")
	for _, t := range tables {
		fmt.Fprintf(&b, "  %s:\n", t.Client.Name)
		fmt.Fprintf(&b, "    packages: [%s]\n", strings.Join(append([]string{t.Client.Path}, t.Client.Aliases...), ", "))
		if len(t.Client.Types) > 0 {
			fmt.Fprintf(&b, "    types: %s\n", flowMapping(t.Client.Types))
		}
		if len(t.Client.SplitWith) > 0 {
			fmt.Fprintf(&b, "    split-with: [%s]\n", strings.Join(t.Client.SplitWith, ", "))
		}
		if len(t.Client.Options) > 0 {
			fmt.Fprintf(&b, "    options: %s\n", flowMapping(t.Client.Options))
		}
		if len(t.Client.ClusterURLs) > 0 {
			fmt.Fprintf(&b, "    cluster-urls: [%s]\n", strings.Join(t.Client.ClusterURLs, ", "))
		}
		if t.Client.EveryMaster != "" {
			fmt.Fprintf(&b, "    every-master: %s\n", strconv.Quote(t.Client.EveryMaster))
		}
		if len(t.Client.Flattens) > 0 {
			forms := make([]string, len(t.Client.Flattens))
			for i, f := range t.Client.Flattens {
				forms[i] = strconv.Quote(f)
			}
			fmt.Fprintf(&b, "    flattens: [%s]\n", strings.Join(forms, ", "))
		}
		b.WriteString("    methods:\n")
		for _, m := range t.Methods {
			fmt.Fprintf(&b, "      %s\n", m.Line())
		}
		if len(t.Unexpressible) > 0 {
			gensection.WrapComment(&b, "    ", "Not described, since no selector says which of their arguments are keys: "+strings.Join(t.Unexpressible, "; ")+".")
		}
		if len(t.AllMasters) > 0 {
			gensection.WrapComment(&b, "    ", "Not described, since the ClusterClient's own method sends the command to every master: "+strings.Join(t.AllMasters, ", ")+".")
		}
		if len(t.Missing) > 0 {
			gensection.WrapComment(&b, "    ", "Not described, since neither the server of the commands table "+commandsSource+
				"nor the commands that rules.yaml records from other sources have them: "+strings.Join(t.Missing, ", ")+".")
		}
	}
	b.WriteString("# END GENERATED clients\n")
	return b.String()
}

// flowMapping writes name-value pairs as a YAML flow mapping, in order.
func flowMapping(pairs [][2]string) string {
	var out []string
	for _, p := range pairs {
		out = append(out, p[0]+": "+p[1])
	}
	return "{" + strings.Join(out, ", ") + "}"
}
