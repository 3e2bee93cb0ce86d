package ruleset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// Rules is a rule set: the data that says which arguments of which commands
// and client methods are keys, the application's key families, and which
// checks run. The built-in set is rules.yaml at the root of the module; a
// user's file merges over it (see Merge).
type Rules struct {
	Version int

	// Target is the server the code runs against; empty means TargetRedis.
	Target Target

	// Checks maps a diagnostic category, such as "cross-slot", to its
	// severity.
	Checks map[string]Severity

	// Families are the application's key templates, by name.
	Families []*Family
	// Groups are colocation groups: families whose keys, built from the
	// same values, must share a slot.
	Groups []*Group

	// Clients describe client libraries: their import paths and the key
	// arguments of their methods.
	Clients []*Client
	// Wrappers are the user's own functions that take keys.
	Wrappers []*Wrapper

	// Commands are raw Redis commands by lower-case name ("mget",
	// "object|encoding" for a subcommand), as Redis's key specs describe them.
	Commands map[string]*Command

	// SafeWrites are the writes that cannot lose an update although their
	// key specs say they update data, by command (upper case: "XACK") or
	// client method ("SetNX").
	SafeWrites map[string]*SafeWrite

	// MemberReplies are the commands (upper case: "SMEMBERS") whose reply
	// lists the members or fields of one key: code that keeps an index of
	// the keys it wrote reads it back with one of them, and each member
	// it then sends as a key is a key of its own.
	MemberReplies []*MemberReply
}

// A MemberReply is a command whose reply lists the members or fields of
// one key.
type MemberReply struct {
	Command string
	Pos     Pos
}

// RepliesMembers reports whether a command's reply lists the members or
// fields of one key (MemberReplies). The name is case-insensitive.
func (r *Rules) RepliesMembers(command string) bool {
	return slices.ContainsFunc(r.MemberReplies, func(m *MemberReply) bool { return strings.EqualFold(m.Command, command) })
}

// A SafeWrite is a write that cannot lose an update: the server makes it
// conditional, or doing it twice is doing it once. When names the option
// that makes it so (a field of the client's argument struct, such as
// XClaimArgs's MinIdle), or is empty when it always is.
type SafeWrite struct {
	Name string
	When string
	Pos  Pos
}

// Severity says how a check's findings are reported.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityOff     Severity = "off"
)

// Pos is a position in a rules file, for error messages.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// A Family is a named key template, such as job: "emq:{<queue>}:job:<id>".
type Family struct {
	Name     string
	Template *keyspace.Template
	Pos      Pos
}

// A Group names families that must colocate: keys of every member built
// from the same placeholder values land in one slot.
type Group struct {
	Name     string
	Families []string
	Pos      Pos
}

// A Client is a client library: the packages it lives in and its methods.
type Client struct {
	Name     string   // "go-redis v9"
	Packages []string // import paths, "github.com/redis/go-redis/v9"
	// Methods by name. A name may be qualified by its receiver type,
	// "Tx.Watch", which takes precedence over the bare "Watch".
	Methods map[string]*Method
	// Types says what the library's types are, by name: clients that may
	// talk to a Redis Cluster, transactions, pipelines. A type of another
	// package with the same name is none of these.
	Types map[string]TypeRole
	// SplitWith are the methods ("ClusterClient.SetCommandInfoResolver")
	// that, all called in a package, make the library's cluster client cut
	// a command that Redis marks split (MGET, DEL, ...) into one command per
	// slot when it is sent alone, so that it works across slots: go-redis
	// v9 does so once the application installs the resolver that reads
	// Redis's command tips, c.SetCommandInfoResolver(c.NewDynamicResolver()),
	// and never by itself. Empty when nothing does.
	SplitWith []string
	// Options are the library's option structs that build a client that
	// may be a cluster, by type name ("UniversalOptions"): a cluster client
	// has no database, so it drops the struct's database field.
	Options map[string]*Options
	// ClusterURLs are the library's functions that parse a Redis URL into
	// a cluster client's options ("ParseClusterURL"): the database that
	// the URL's path names is dropped.
	ClusterURLs []string
	// NodeClients are the library's methods that return a client of each
	// node of a cluster ("Client.Nodes"): a command sent on one of those
	// reaches its node, as a keyspace-wide command must be sent to each.
	NodeClients []string
	// EveryMaster names how the library sends one command to every master
	// of a cluster ("ForEachMaster on the *redis.ClusterClient"), for the
	// advice of a keyspace-wide finding: "run it on every master with"
	// it. Empty when the rules do not say.
	EveryMaster string
	// Flattens are the forms of one argument ("[]string", "[]interface{}",
	// "map[string]interface{}", "map[string]string") that the library
	// spreads into a variadic pairs parameter when it is the only one
	// (go-redis's appendArgs): MSet(ctx, []interface{}{k1, v1, k2, v2}).
	Flattens []string
}

// FlatForms are the forms a client's Flattens may name.
var FlatForms = []string{"[]string", "[]interface{}", "map[string]interface{}", "map[string]string"}

// Options are the fields of a client's option struct that decide what
// its constructor builds.
type Options struct {
	// DB is the database field; Addrs the list of addresses, of which two
	// or more make a cluster client; Cluster a bool field that makes one
	// ("" where the struct has none); Sentinel a string field that, when
	// set, makes a Sentinel client, which keeps the database ("" for none).
	DB, Addrs, Cluster, Sentinel string
	// Constructor is the function that builds the client from them.
	Constructor string
}

// A TypeRole is what a client library's type is.
type TypeRole string

const (
	// RoleClient is a client of one server ("Client", "Conn").
	RoleClient TypeRole = "client"
	// RoleCluster is a client that may talk to a Redis Cluster
	// ("ClusterClient", "UniversalClient", "Ring").
	RoleCluster TypeRole = "cluster"
	// RoleTx is the handle of a WATCH transaction ("Tx"): its commands run
	// at once, and TxPipelined on it queues MULTI/EXEC.
	RoleTx TypeRole = "tx"
	// RolePipeline is a pipeline ("Pipeliner", "Pipeline").
	RolePipeline TypeRole = "pipeline"
)

// typeRoles are the roles that rules files may give.
var typeRoles = []TypeRole{RoleClient, RoleCluster, RoleTx, RolePipeline}

// LookupMethod returns the rule for method name on receiver type recv (its
// name without package or pointer, "" for a function), or nil.
func (c *Client) LookupMethod(recv, name string) *Method {
	if recv != "" {
		if m := c.Methods[recv+"."+name]; m != nil {
			return m
		}
	}
	return c.Methods[name]
}

// MethodKind says what a client method does with its keys.
type MethodKind string

const (
	// KindCommand sends one command; its key arguments must share a slot.
	KindCommand MethodKind = "command"
	// KindScript runs a Lua script given by source (Eval, Script.Run).
	KindScript MethodKind = "script"
	// KindScriptSHA runs a script given by its SHA1 (EvalSha).
	KindScriptSHA MethodKind = "script-sha"
	// KindScriptLoad loads a script and returns its SHA1 (ScriptLoad).
	KindScriptLoad MethodKind = "script-load"
	// KindFunction calls a Redis function (FCall).
	KindFunction MethodKind = "function"
	// KindRaw sends a command named by its first argument (Do), or builds
	// it as a value that a KindSend method sends later (radix's Cmd).
	KindRaw MethodKind = "raw"
	// KindWatch runs Fn with the keys watched (Client.Watch).
	KindWatch MethodKind = "watch"
	// KindTxPipelined queues Fn's commands in MULTI/EXEC (TxPipelined).
	KindTxPipelined MethodKind = "tx-pipelined"
	// KindTxPipeline returns a MULTI/EXEC pipeline (TxPipeline).
	KindTxPipeline MethodKind = "tx-pipeline"
	// KindPipelined queues Fn's commands in a plain pipeline (Pipelined).
	KindPipelined MethodKind = "pipelined"
	// KindPipeline returns a plain pipeline (Pipeline).
	KindPipeline MethodKind = "pipeline"
	// KindExec sends what a pipeline queued (Exec).
	KindExec MethodKind = "exec"
	// KindNewScript makes a script value from its source (NewScript).
	KindNewScript MethodKind = "new-script"
)

// A Method is the rule for one client method or function.
type Method struct {
	Name    string
	Kind    MethodKind
	Command string // the Redis command it sends, upper case: "RENAME"

	// Keys select the arguments that are keys; all of them must share a slot.
	Keys []Selector
	// Patterns select SORT BY/GET patterns, which must carry the keys' hashtag.
	Patterns []Selector
	// Args selects the script arguments (ARGV) of a script method.
	Args *Selector
	// Script is the parameter with the script source (KindScript,
	// KindNewScript, KindScriptLoad) or SHA1 (KindScriptSHA); -1 for the
	// receiver (Script.Run), -2 when there is none.
	Script int
	// Fn is the parameter holding the function run by KindWatch,
	// KindTxPipelined and KindPipelined; -2 when there is none.
	Fn int
	// DB is the parameter holding a database number that must be 0 on a
	// cluster (Copy); -2 when there is none.
	DB int
	// NeedsKeys is true for a watch method whose cluster client refuses a
	// call that gives no keys (go-redis's Watch: "redis: Watch requires
	// at least one key"), and for a command whose client refuses a call
	// that sets none of its key fields (go-redis's GeoRadiusStore: "requires
	// Store or StoreDist"): one of them is a key of every call sent.
	NeedsKeys bool
	// Reply is the parameter a raw command's reply is written into
	// (radix's Cmd(&members, "SMEMBERS", key)); -2 when there is none.
	Reply int
	// Value is true for a KindRaw function that only builds the command
	// as a value (go-redis's NewCmd): the command is checked where a
	// KindSend method (Process) is handed that value, and not where it is
	// never sent (a test's mock that returns it).
	Value bool

	Pos Pos
}

// NoParam marks Method.Script, Fn, DB and Reply as absent.
const NoParam = -2

// ReceiverParam marks Method.Script as the method's receiver.
const ReceiverParam = -1

// A Selector picks keys out of a Go call's arguments. Its text form, used in
// rules.yaml, is one of:
//
//	N           parameter N is a key (parameters count from 0 in the Go
//	            signature: ctx, when the method takes one, is parameter 0)
//	N...        variadic parameter N: every element is a key
//	N...pairs   variadic parameter N: elements 0, 2, 4, ... are keys (MSet)
//	N...triples variadic parameter N: elements 0, 3, 6, ... are keys (JSONMSet)
//	N...half    variadic parameter N: its first half are keys (XReadStreams)
//	N...keycount variadic parameter N: its first K elements are keys, K the
//	            integer argument of the new-script call that made the
//	            receiver (redigo's NewScript(keyCount, src) and Script.Do)
//	N...flat    the args of a raw method that flattens its arguments: from
//	            parameter N on, the command's name and its arguments, where
//	            a map, struct or slice argument stands for as many arguments
//	            as it holds (radix's FlatCmd); keys are found only before
//	            the first such argument
//	N[]         parameter N is a []string of keys
//	N.F         field F of the struct (or pointer) parameter N is a key
//	N.F[]       field F is a []string of keys
//	N.F[:half]  the first half of []string field F are keys (XRead streams)
//	N[].F       field F of each struct (or pointer) element of slice
//	            parameter N is a key (JSONMSetArgs's []JSONSetArgs)
//	N[][K]      element K of each inner slice of slice parameter N is a key
//	            (TSMAdd's [][]interface{}: N[][0])
//	N{}         each key of map parameter N is a key (CMSMergeWithWeight)
type Selector struct {
	Param    int
	Field    string
	Variadic bool // N... : each element of the variadic parameter
	Step     int  // 1, 2 for pairs, 3 for triples
	Slice    bool // []: each element of the slice
	Half     bool // [:half] or ...half: the first half of the elements
	KeyCount bool // ...keycount: the first elements, as many as the script's key count
	// Flat is ...flat: a raw method's arguments, each map, struct or slice
	// argument flattened into as many arguments as it holds.
	Flat bool
	// ElemField is F of N[].F: the field of each element (Slice is set).
	ElemField string
	// Inner is true for N[][K]: element ElemIndex of each inner slice
	// (Slice is set).
	Inner     bool
	ElemIndex int
	MapKeys   bool // N{}: each key of the map
	Text      string
}

// PerElement reports whether the selector takes a part of each element of
// a slice (N[].F, N[][K]) rather than the elements themselves.
func (s Selector) PerElement() bool { return s.ElemField != "" || s.Inner }

func (s Selector) String() string { return s.Text }

// ParseSelector parses a selector's text form; see Selector.
func ParseSelector(text string) (Selector, error) {
	s := Selector{Text: text, Step: 1}
	rest := text
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 {
		return s, fmt.Errorf("selector %q does not start with a parameter number", text)
	}
	s.Param, _ = strconv.Atoi(rest[:i])
	rest = rest[i:]
	switch {
	case rest == "":
		return s, nil
	case rest == "...":
		s.Variadic = true
		return s, nil
	case rest == "...pairs":
		s.Variadic, s.Step = true, 2
		return s, nil
	case rest == "...triples":
		s.Variadic, s.Step = true, 3
		return s, nil
	case rest == "...half":
		s.Variadic, s.Half = true, true
		return s, nil
	case rest == "...keycount":
		s.Variadic, s.KeyCount = true, true
		return s, nil
	case rest == "...flat":
		s.Variadic, s.Flat = true, true
		return s, nil
	case rest == "[]":
		s.Slice = true
		return s, nil
	case rest == "{}":
		s.MapKeys = true
		return s, nil
	case strings.HasPrefix(rest, "[]."):
		if f := rest[3:]; isIdent(f) {
			s.Slice, s.ElemField = true, f
			return s, nil
		}
	case strings.HasPrefix(rest, "[][") && strings.HasSuffix(rest, "]"):
		if d := rest[3 : len(rest)-1]; d != "" && strings.Trim(d, "0123456789") == "" && len(d) <= 6 {
			s.Slice, s.Inner = true, true
			s.ElemIndex, _ = strconv.Atoi(d)
			return s, nil
		}
	case strings.HasPrefix(rest, "."):
		rest = rest[1:]
		j := 0
		for j < len(rest) && (rest[j] == '_' || rest[j] >= 'a' && rest[j] <= 'z' || rest[j] >= 'A' && rest[j] <= 'Z' || j > 0 && rest[j] >= '0' && rest[j] <= '9') {
			j++
		}
		if j == 0 {
			return s, fmt.Errorf("selector %q has no field name after '.'", text)
		}
		s.Field, rest = rest[:j], rest[j:]
		switch rest {
		case "":
			return s, nil
		case "[]":
			s.Slice = true
			return s, nil
		case "[:half]":
			s.Slice, s.Half = true, true
			return s, nil
		}
	}
	return s, fmt.Errorf("selector %q is not one of N, N..., N...pairs, N...triples, N...half, N...keycount, N...flat, N[], N.Field, N.Field[], N.Field[:half], N[].Field, N[][K], N{}", text)
}

// isIdent reports whether s is a Go identifier of ASCII letters, digits and
// underscores.
func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// A Wrapper is a user function that takes keys and passes them to one
// command, declared so that its call sites are checked like the command's.
type Wrapper struct {
	// Func is the function's full name as go/types prints it:
	// "example.com/shop/store.Move" or "(*example.com/shop/store.Repo).Move".
	Func   string
	Method *Method
	Pos    Pos
}

// A Command is a raw Redis command as its key specs describe it.
type Command struct {
	Name string // lower case: "mget", "object|encoding"
	// Arity is the number of arguments, the command name included; -N means
	// at least N.
	Arity int
	Flags []string // command flags: "write", "readonly", "movablekeys", ...
	Keys  []KeySpec
	// Split is true for commands that Redis marks request_policy:multi_shard,
	// which some cluster clients split into one command per slot (MGET, DEL).
	// A split command never fails with CROSSSLOT there, but it is not atomic.
	Split bool
	// Policy is the request policy of Redis's command tips, other than
	// multi_shard: all_shards, all_nodes or special; empty when none.
	Policy string
	// KeyspaceWide is true for a command that reads or changes the whole
	// keyspace (ACL category @keyspace) and that a cluster must send to
	// every shard (policy all_shards or special): KEYS, SCAN, RANDOMKEY,
	// DBSIZE, FLUSHDB. A cluster client that sends it to one node sees or
	// changes only that node's keys.
	KeyspaceWide bool
}

// IsWrite reports whether the command may modify data.
func (c *Command) IsWrite() bool {
	for _, f := range c.Flags {
		if f == "write" {
			return true
		}
	}
	return false
}

// A KeySpec is one of a command's key specs: where its search for keys
// begins and how it finds them, in the terms of Redis's COMMAND INFO.
type KeySpec struct {
	// begin_search: by index (Index > 0), or by keyword (Keyword != "").
	Index     int
	Keyword   string
	StartFrom int // where the keyword search starts; negative from the end

	// find_keys: a range (KeyNum == 0 and FirstKey == 0), or keynum.
	LastKey int // range: the last key relative to the begin, -1 the end
	Step    int
	Limit   int // range with LastKey -1: 0 all, 2 half, ...

	KeyNumIdx int  // keynum: where the number of keys is, relative to the begin
	FirstKey  int  // keynum: the first key, relative to the begin
	IsKeyNum  bool // find_keys is keynum

	Flags []string // RW, RO, OW, RM, ACCESS, UPDATE, INSERT, DELETE, NOT_KEY, INCOMPLETE, VARIABLE_FLAGS
}

// KeyPositions returns the positions of the keys in argv, where argv[0] is
// the command name and unknown arguments are given as "". ok is false when
// an unknown argument decides where the keys are (a keyword search past an
// unknown argument, or an unknown key count).
func (c *Command) KeyPositions(argv []string) (pos []int, ok bool) {
	return c.keyPositions(argv, false)
}

// LeastKeyPositions is KeyPositions where a key count ("" in argv) is not
// known: the positions of the keys the command takes at the least, one
// for the count. The commands counted so (ZUNIONSTORE, LMPOP, SINTERCARD,
// ...) refuse a count of 0 (TestKeyCountAtLeastOne), so the argument
// after an unknown count is a key; the others after it may be too. A
// script's or a function's count may be 0: the caller leaves those out.
// ok is false when another argument not known decides.
func (c *Command) LeastKeyPositions(argv []string) (pos []int, ok bool) {
	return c.keyPositions(argv, true)
}

func (c *Command) keyPositions(argv []string, least bool) (pos []int, ok bool) {
	ok = true
	for _, ks := range c.Keys {
		p, kok := ks.positions(argv, least)
		if len(p) > 0 && slices.Contains(ks.Flags, "INCOMPLETE") {
			// Redis takes the keys of a command with an INCOMPLETE spec
			// from the command's own function (getKeysFromCommandWithSpecs
			// falls back to it): MIGRATE's, the only one, takes the keys
			// after KEYS alone, where its key argument is "" and no key
			// (TestMigrateKeyPositions in keycount_test.go).
			return p, kok
		}
		pos = append(pos, p...)
		ok = ok && kok
	}
	return pos, ok
}

// positions follows getKeysUsingKeySpecs in Redis's db.c; with least, a
// key count not known counts 1.
func (ks *KeySpec) positions(argv []string, least bool) ([]int, bool) {
	argc := len(argv)
	first := ks.Index
	if ks.Keyword != "" {
		first = 0
		start, end := ks.StartFrom, argc-1
		if start <= 0 {
			start, end = argc+ks.StartFrom, 0
		}
		for i := start; i != end; {
			if i >= argc || i < 1 {
				break
			}
			if argv[i] == "" {
				return nil, false
			}
			if strings.EqualFold(argv[i], ks.Keyword) {
				first = i + 1
				break
			}
			if start <= end {
				i++
			} else {
				i--
			}
		}
		if first == 0 {
			return nil, true
		}
	}
	var last, step int
	if ks.IsKeyNum {
		ni := first + ks.KeyNumIdx
		if ni >= argc {
			return nil, true
		}
		count := argv[ni]
		if count == "" && least {
			count = "1"
		}
		if count == "" {
			return nil, false
		}
		n, err := strconv.Atoi(count)
		if err != nil || n < 0 {
			return nil, true
		}
		first += ks.FirstKey
		last = first + n - 1
		step = ks.Step
	} else {
		switch {
		case ks.LastKey >= 0:
			last = first + ks.LastKey
		case ks.Limit == 0:
			last = argc + ks.LastKey
		default:
			last = first + (argc-first)/ks.Limit + ks.LastKey
		}
		step = ks.Step
	}
	step = max(step, 1)
	var pos []int
	for i := first; i <= last && i < argc; i += step {
		pos = append(pos, i)
	}
	return pos, true
}

// A Target is the server that the code runs against, which decides what a
// cluster allows beyond one database.
type Target string

const (
	// TargetRedis is Redis (the default): a cluster has database 0 only.
	TargetRedis Target = "redis"
	// TargetValkey9 is Valkey 9 or later, whose cluster mode has
	// databases other than 0 (SELECT, MOVE, SWAPDB and COPY ... DB work).
	TargetValkey9 Target = "valkey-9"
)

// Targets are the targets a rules file may name.
var Targets = []Target{TargetRedis, TargetValkey9}

func targetList() string {
	var s []string
	for _, t := range Targets {
		s = append(s, string(t))
	}
	return strings.Join(s, ", ")
}

// ClusterHasDatabases reports whether a cluster of the target has
// databases other than 0.
func (r *Rules) ClusterHasDatabases() bool {
	return r.Target == TargetValkey9
}

// SetTips sets the command's Split, Policy and KeyspaceWide from its
// command tips and ACL categories, as COMMAND INFO or a command JSON file
// gives them: request_policy:multi_shard is Split; another request policy
// is Policy; a command of the ACL category @keyspace whose policy is
// all_shards or special is KeyspaceWide. (Redis gives such a policy only to
// commands without keys.)
func (c *Command) SetTips(tips, acl []string) {
	for _, tip := range tips {
		policy, ok := strings.CutPrefix(strings.ToLower(tip), "request_policy:")
		switch {
		case !ok:
		case policy == "multi_shard":
			c.Split = true
		default:
			c.Policy = policy
		}
	}
	for _, cat := range acl {
		if strings.EqualFold(strings.TrimPrefix(cat, "@"), "keyspace") && (c.Policy == "all_shards" || c.Policy == "special") {
			c.KeyspaceWide = true
		}
	}
}
