package ruleset

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const goodRules = `version: 1
checks:
  cross-slot: error
  lost-update: warning
  lua-syntax: off
families:
  job: "emq:{<queue>}:job:<id>"
  pending: emq:{<queue>}:pending
  user: 'user:<id>'
groups:
  queue: [job, pending]
wrappers:
  "(*example.com/shop/store.Repo).Move": {command: LMOVE, keys: ["1", "2"]}
  example.com/shop/store.Get: {command: GET, keys: "1"}
clients:
  go-redis v9:
    packages: [github.com/redis/go-redis/v9]
    methods:
      Rename: {command: RENAME, keys: ["1", "2"]}
      MSet: {command: MSET, keys: ["1...pairs"]}
      Copy: {command: COPY, keys: ["1", "2"], db: 3}
      Sort: {command: SORT, keys: ["1"], patterns: ["2.By", "2.Get[]"]}
      XRead: {command: XREAD, keys: ["1.Streams[:half]"]}
      Eval: {command: EVAL, kind: script, script: 1, keys: ["2[]"], args: "3..."}
      Script.Run: {command: EVALSHA, kind: script, script: receiver, keys: ["2[]"], args: "3..."}
      NewScript: {kind: new-script, script: 0}
      Watch: {kind: watch, fn: 1, keys: ["2..."]}
      Tx.Watch: {command: WATCH, keys: ["1..."]}
      TxPipelined: {kind: tx-pipelined, fn: 1}
      Exec: {kind: exec}
      Do: {kind: raw, args: "1..."}
commands:
  mget: {arity: -2, flags: [readonly, fast], split: true, keys: [{index: 1, lastkey: -1, step: 1, flags: [RO, ACCESS]}]}
  xread: {arity: -4, flags: [readonly, blocking, movablekeys], keys: [{keyword: STREAMS, startfrom: 1, lastkey: -1, step: 1, limit: 2, flags: [RO, ACCESS]}]}
  eval: {arity: -3, flags: [noscript], keys: [{index: 2, keynum: 0, firstkey: 1, step: 1, flags: [RW, ACCESS, UPDATE]}]}
  object|encoding: {arity: 3, flags: [readonly], keys: [{index: 2, lastkey: 0, step: 1, flags: [RO]}]}
  object: {arity: -2}
  rename: {arity: 3, flags: [write], keys: [{index: 1, lastkey: 0, step: 1}, {index: 2, lastkey: 0, step: 1}]}
  mset: {arity: -3, flags: [write], keys: [{index: 1, lastkey: -1, step: 2}]}
  copy: {arity: -3, flags: [write], keys: [{index: 1, lastkey: 0, step: 1}, {index: 2, lastkey: 0, step: 1}]}
  evalsha: {arity: -3, keys: [{index: 2, keynum: 0, firstkey: 1, step: 1}]}
  sort: {arity: -2, flags: [write, movablekeys], keys: [{index: 1, lastkey: 0, step: 1}]}
  watch: {arity: -2, keys: [{index: 1, lastkey: -1, step: 1}]}
  lmove: {arity: 5, flags: [write], keys: [{index: 1, lastkey: 0, step: 1}, {index: 2, lastkey: 0, step: 1}]}
  get: {arity: 2, flags: [readonly], keys: [{index: 1, lastkey: 0, step: 1}]}
`

func TestParseGood(t *testing.T) {
	r, err := ParseRules("rules.yaml", []byte(goodRules))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if r.Version != 1 {
		t.Errorf("version %d", r.Version)
	}
	if got := r.Severity("lua-syntax"); got != SeverityOff {
		t.Errorf("lua-syntax: %q", got)
	}
	if got := r.Severity("lost-update"); got != SeverityWarning {
		t.Errorf("lost-update: %q", got)
	}
	if got := r.Severity("not-listed"); got != SeverityError {
		t.Errorf("a check not listed: %q, want error", got)
	}

	if f := r.Family("job"); f == nil || f.Template.String() != "emq:{<queue>}:job:<id>" || f.Pos.String() != "rules.yaml:7:3" {
		t.Errorf("family job: %+v", f)
	}
	if f := r.Family("user"); f == nil || f.Template.String() != "user:<id>" {
		t.Errorf("family user: %+v", f)
	}
	f, values, ok := r.Match("emq:{q1}:job:42")
	if !ok || f.Name != "job" || !reflect.DeepEqual(values, []string{"q1", "42"}) {
		t.Errorf("Match: %v %v %v", f, values, ok)
	}
	if _, _, ok := r.Match("other"); ok {
		t.Error("Match(other) matched")
	}
	if g := r.Groups; len(g) != 1 || g[0].Name != "queue" || !reflect.DeepEqual(g[0].Families, []string{"job", "pending"}) {
		t.Errorf("groups: %+v", g)
	}

	w := r.Wrapper("(*example.com/shop/store.Repo).Move")
	if w == nil || w.Method.Command != "LMOVE" || len(w.Method.Keys) != 2 || w.Method.Keys[1].Param != 2 {
		t.Errorf("wrapper: %+v", w)
	}
	if w := r.Wrapper("example.com/shop/store.Get"); w == nil || len(w.Method.Keys) != 1 || w.Method.Keys[0].Param != 1 {
		t.Errorf("wrapper with one key as a scalar: %+v", w)
	}

	const v9 = "github.com/redis/go-redis/v9"
	m := r.Method(v9, "Client", "Rename")
	if m == nil || m.Kind != KindCommand || m.Command != "RENAME" || m.Script != NoParam || m.Fn != NoParam || m.DB != NoParam {
		t.Fatalf("Rename: %+v", m)
	}
	if m.Pos.String() != "rules.yaml:19:7" {
		t.Errorf("Rename at %s", m.Pos)
	}
	if m := r.Method(v9, "", "Copy"); m == nil || m.DB != 3 {
		t.Errorf("Copy: %+v", m)
	}
	if m := r.Method(v9, "", "MSet"); m == nil || !m.Keys[0].Variadic || m.Keys[0].Step != 2 {
		t.Errorf("MSet: %+v", m)
	}
	if m := r.Method(v9, "", "Sort"); m == nil || len(m.Patterns) != 2 || m.Patterns[1].Field != "Get" || !m.Patterns[1].Slice {
		t.Errorf("Sort: %+v", m)
	}
	if m := r.Method(v9, "", "XRead"); m == nil || !m.Keys[0].Half {
		t.Errorf("XRead: %+v", m)
	}
	if m := r.Method(v9, "", "Eval"); m == nil || m.Kind != KindScript || m.Script != 1 || m.Args == nil || m.Args.Param != 3 || !m.Args.Variadic {
		t.Errorf("Eval: %+v", m)
	}
	if m := r.Method(v9, "Script", "Run"); m == nil || m.Script != ReceiverParam {
		t.Errorf("Script.Run: %+v", m)
	}
	if m := r.Method(v9, "", "NewScript"); m == nil || m.Kind != KindNewScript || m.Script != 0 {
		t.Errorf("NewScript: %+v", m)
	}
	if m := r.Method(v9, "Client", "Watch"); m == nil || m.Kind != KindWatch || m.Fn != 1 {
		t.Errorf("Client.Watch: %+v", m)
	}
	if m := r.Method(v9, "Tx", "Watch"); m == nil || m.Kind != KindCommand || m.Keys[0].Param != 1 {
		t.Errorf("Tx.Watch: %+v", m)
	}
	if m := r.Method(v9, "Pipeline", "Exec"); m == nil || m.Kind != KindExec {
		t.Errorf("Exec: %+v", m)
	}
	if m := r.Method(v9, "", "Do"); m == nil || m.Kind != KindRaw || m.Args.Param != 1 {
		t.Errorf("Do: %+v", m)
	}
	if m := r.Method("github.com/go-redis/redis/v8", "", "Rename"); m != nil {
		t.Errorf("a package no client lists: %+v", m)
	}
	if m := r.Method(v9, "", "Nope"); m != nil {
		t.Errorf("an unknown method: %+v", m)
	}

	mget := r.Command("MGET")
	want := &Command{Name: "mget", Arity: -2, Flags: []string{"readonly", "fast"}, Split: true,
		Keys: []KeySpec{{Index: 1, LastKey: -1, Step: 1, Flags: []string{"RO", "ACCESS"}}}}
	if !reflect.DeepEqual(mget, want) {
		t.Errorf("mget:\n got %+v\nwant %+v", mget, want)
	}
	xread := r.Command("xread")
	if ks := xread.Keys[0]; ks.Keyword != "STREAMS" || ks.StartFrom != 1 || ks.LastKey != -1 || ks.Limit != 2 || ks.IsKeyNum {
		t.Errorf("xread: %+v", ks)
	}
	pos, ok := xread.KeyPositions([]string{"xread", "count", "2", "streams", "a", "b", "0", "0"})
	if !ok || !reflect.DeepEqual(pos, []int{4, 5}) {
		t.Errorf("xread key positions %v %v", pos, ok)
	}
	eval := r.Command("Eval")
	if ks := eval.Keys[0]; !ks.IsKeyNum || ks.KeyNumIdx != 0 || ks.FirstKey != 1 || ks.Index != 2 {
		t.Errorf("eval: %+v", ks)
	}
	pos, ok = eval.KeyPositions([]string{"eval", "src", "2", "k1", "k2", "a1"})
	if !ok || !reflect.DeepEqual(pos, []int{3, 4}) {
		t.Errorf("eval key positions %v %v", pos, ok)
	}
	// A count not known: no positions, or at the least the first after it.
	unknownCount := []string{"eval", "src", "", "k1", "k2", "a1"}
	if pos, ok = eval.KeyPositions(unknownCount); ok {
		t.Errorf("eval key positions of an unknown count %v %v", pos, ok)
	}
	pos, ok = eval.LeastKeyPositions(unknownCount)
	if !ok || !reflect.DeepEqual(pos, []int{3}) {
		t.Errorf("eval least key positions %v %v", pos, ok)
	}
	for _, name := range [][]string{{"object|encoding"}, {"OBJECT ENCODING"}, {"Object", "Encoding"}, {" object   encoding "}} {
		if c := r.Command(name[0], name[1:]...); c == nil || c.Name != "object|encoding" {
			t.Errorf("Command(%q) = %+v", name, c)
		}
	}
	if c := r.Command("object", "freq"); c == nil || c.Name != "object" {
		t.Errorf("an unknown subcommand gives the parent: %+v", c)
	}
	if c := r.Command("mget", "somekey"); c != mget {
		t.Errorf("Command(mget, somekey) = %+v", c)
	}
	if c := r.Command("nope"); c != nil {
		t.Errorf("Command(nope) = %+v", c)
	}
}

// TestParseErrors checks each fault's message and position.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"unknown method field", `version: 1
clients:
  go-redis v9:
    packages: [github.com/redis/go-redis/v9]
    methods:
      Rename:
        command: RENAME
        kyes: ["1", "2"]
`, []string{`rules.yaml:8:9: unknown field "kyes" in method "Rename"; expected one of command, kind, keys, patterns, args, script, fn, db, reply, needs-keys, value`}},
		{"bad severity", `version: 1
checks: {cross-slot: fatal}
`, []string{`rules.yaml:2:22: severity "fatal" for check "cross-slot" is not one of error, warning, off`}},
		{"template in double quotes", `version: 1
families:
  job: "emq:{<queue>:job"
`, []string{`rules.yaml:3:13: template "emq:{<queue>:job": '{' opens a hashtag section that is never closed with '}' (column 5 of the template)`}},
		{"template plain", `version: 1
families:
  job: emq:{<queue>:job
`, []string{`rules.yaml:3:12: template "emq:{<queue>:job": '{' opens a hashtag section that is never closed with '}' (column 5 of the template)`}},
		{"template single-quoted with an escaped quote", `version: 1
families: {job: 'a''b:{<>}'}
`, []string{`rules.yaml:2:24: template "a'b:{<>}": placeholder has an empty name; write <name> (column 6 of the template)`}},
		{"template double-quoted with escapes", `version: 1
families:
  job: "\x61\u0062:{<q>}:<q>"
`, []string{`rules.yaml:3:26: template "ab:{<q>}:<q>": placeholder <q> appears twice; give each placeholder its own name (column 10 of the template)`}},
		{"template over two lines", `version: 1
families:
  job: "emq:{<queue>}:job:
    <id>>"
`, []string{`rules.yaml:3:8: template "emq:{<queue>}:job: <id>>": illegal character ' '; template text is printable ASCII without spaces (column 19 of the template)`}},
		{"missing version", `checks: {}
`, []string{`rules.yaml:1:1: missing "version: 1"; every rules file starts with the schema version`}},
		{"bad version", `version: 2
`, []string{`rules.yaml:1:10: version 2 is not supported; this slotlint reads rules files of version 1`}},
		{"unknown top field", `version: 1
family: {}
`, []string{`rules.yaml:2:1: unknown field "family" in the rules file; expected one of version, target, checks, families, groups, wrappers, safe-writes, member-replies, clients, commands`}},
		{"unknown target", `version: 1
target: valkey
`, []string{`rules.yaml:2:9: target "valkey" is not one of redis, valkey-9; it names the server the code runs against`}},
		{"not a mapping", `- version: 1
`, []string{`rules.yaml:1:1: a rules file must be a mapping that starts with "version: 1", not a list`}},
		{"empty", ``, []string{`rules.yaml:1:1: the rules file is empty; it must be a mapping that starts with "version: 1"`}},
		{"duplicate family", `version: 1
families:
  job: "a:{<q>}"
  job: "b:{<q>}"
`, []string{`rules.yaml:4:3: families has "job" twice; the first is at rules.yaml:3:3`}},
		{"bad selector, kind, missing fields, wrong field for kind", `version: 1
clients:
  c:
    packages: [p]
    methods:
      A: {command: GET, keys: ["x1"]}
      B: {kind: scripted}
      C: {kind: script, keys: ["2[]"]}
      D: {command: GET, fn: 1}
      E: {keys: ["1"]}
      F: {kind: watch, fn: -1, keys: ["2..."]}
      G: {command: SMEMBERS, keys: ["1"], reply: 0}
`, []string{
			`rules.yaml:6:32: selector "x1" does not start with a parameter number in the keys of method "A"`,
			`rules.yaml:7:17: kind "scripted" of method "B" is not one of command, script, script-sha, script-load, new-script, function, raw, watch, tx-pipelined, tx-pipeline, pipelined, pipeline, exec, builder, builder-keys, send`,
			`rules.yaml:8:10: method "C" of kind script needs "script": the parameter with the script source or SHA1, or receiver`,
			`rules.yaml:9:25: field "fn" does not apply to method "D" of kind command; kind command takes command, keys, patterns, db, needs-keys`,
			`rules.yaml:10:10: method "E" of kind command needs "command": the Redis command the method sends, such as RENAME`,
			`rules.yaml:11:28: the fn parameter of method "F" must be a parameter number from 0 (ctx is parameter 0), not -1`,
			`rules.yaml:12:43: field "reply" does not apply to method "G" of kind command; kind command takes command, keys, patterns, db, needs-keys`,
		}},
		{"groups", `version: 1
groups:
  one: [job]
  twice: [a, a, b]
  bad: job
`, []string{
			`rules.yaml:3:8: group "one" names 1 families; a group lists at least two families that must share a slot`,
			`rules.yaml:4:14: group "twice" names family "a" twice`,
			`rules.yaml:5:8: group "bad" must be a list, not "job"`,
		}},
		{"wrapper name", `version: 1
wrappers:
  Move: {command: LMOVE, keys: ["1", "2"]}
`, []string{`rules.yaml:3:3: wrapper "Move" is not a full function name such as "example.com/shop/store.Move" or "(*example.com/shop/store.Repo).Move"`}},
		{"commands", `version: 1
commands:
  get: {arity: 2, flag: [readonly]}
  GET X: {}
  mget: {keys: [{index: 1, keyword: X, startfrom: 1}]}
  eval: {keys: [{index: 2, keynum: 0, firstkey: 1, lastkey: 0}]}
  set: {keys: [{lastkey: 0}]}
  del: {split: maybe, arity: many}
  keys: {policy: one_shard, keyspace-wide: yes please}
`, []string{
			`rules.yaml:3:19: unknown field "flag" in command "get"; expected one of arity, flags, split, policy, keyspace-wide, keys`,
			`rules.yaml:4:3: command name "GET X" is not a lower-case name such as get, or parent|sub for a subcommand`,
			`rules.yaml:5:28: key spec 0 of command "mget" has both index and keyword; the search for keys begins at one of them`,
			`rules.yaml:6:52: key spec 0 of command "eval" has keynum and lastkey; lastkey goes with a range of keys, not a key count`,
			`rules.yaml:7:16: key spec 0 of command "set" needs index or keyword: where the search for keys begins`,
			`rules.yaml:8:16: split of command "del" must be true or false, not "maybe"`,
			`rules.yaml:8:30: the arity of command "del" must be an integer, not "many"`,
			`rules.yaml:9:18: the policy of command "keys" is "one_shard", not one of all_shards, all_nodes, special (request_policy:multi_shard is split: true)`,
			`rules.yaml:9:44: keyspace-wide of command "keys" must be true or false, not "yes please"`,
		}},
		{"yaml syntax: bad indentation", `version: 1
checks:
  cross-slot: error
   lost-update: warning
`, []string{`rules.yaml:4:15: invalid YAML: mapping values are not allowed in this context`}},
		{"yaml syntax: unclosed flow mapping", `version: 1
checks: {cross-slot: error
families: {}
`, []string{`rules.yaml:2:10: invalid YAML: did not find expected ',' or '}'`}},
		{"yaml syntax: tab", "version: 1\nchecks:\n\tcross-slot: error\n",
			[]string{`rules.yaml:3:1: invalid YAML: found character that cannot start any token`}},
		{"yaml syntax: no line from the parser", "version: 1\nchecks: a: b\n",
			[]string{`rules.yaml:2:10: invalid YAML: mapping values are not allowed in this context`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseRules("rules.yaml", []byte(tc.src))
			if err == nil {
				t.Fatal("no error")
			}
			var re *RulesError
			if !errors.As(err, &re) {
				t.Fatalf("error %T, want *RulesError", err)
			}
			got := strings.Split(err.Error(), "\n")
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if len(re.Faults) != len(got) {
				t.Errorf("%d faults, %d lines", len(re.Faults), len(got))
			}
		})
	}
}

func TestMergeAndValidate(t *testing.T) {
	base, err := ParseRules("builtin.yaml", []byte(goodRules))
	if err != nil {
		t.Fatal(err)
	}
	user, err := ParseRules("user.yaml", []byte(`version: 1
checks:
  cross-slot: warning
  lost-update: off
families:
  pending: "emq:{<queue>}:pending:v2"
  lock: "emq:{<queue>}:lock"
groups:
  locks: [lock, job]
wrappers:
  example.com/shop/store.Get: {command: GET, keys: ["2"]}
clients:
  go-redis v9:
    methods:
      Rename: {command: RENAMENX, keys: ["2", "1"]}
      Get: {command: GET, keys: ["1"]}
  my client:
    packages: [example.com/my/redis]
    methods:
      Fetch: {command: MGET, keys: ["1..."]}
commands:
  get: {arity: 2, keys: [{index: 1, lastkey: 0, step: 1}]}
  renamenx: {arity: 3}
`))
	if err != nil {
		t.Fatal(err)
	}
	m := base.Merge(user)
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.Severity("cross-slot") != SeverityWarning || m.Severity("lost-update") != SeverityOff || m.Severity("lua-syntax") != SeverityOff {
		t.Errorf("checks: %v", m.Checks)
	}
	var names []string
	for _, f := range m.Families {
		names = append(names, f.Name)
	}
	if !reflect.DeepEqual(names, []string{"job", "pending", "user", "lock"}) {
		t.Errorf("families %v", names)
	}
	if f := m.Family("pending"); f.Template.String() != "emq:{<queue>}:pending:v2" || f.Pos.File != "user.yaml" {
		t.Errorf("pending: %v %v", f.Template, f.Pos)
	}
	if f, _, ok := m.Match("emq:{q}:lock"); !ok || f.Name != "lock" {
		t.Errorf("Match lock: %v", f)
	}
	if len(m.Groups) != 2 {
		t.Errorf("groups %v", m.Groups)
	}
	if w := m.Wrapper("example.com/shop/store.Get"); w.Method.Keys[0].Param != 2 {
		t.Errorf("wrapper not replaced: %+v", w.Method)
	}
	if w := m.Wrapper("(*example.com/shop/store.Repo).Move"); w == nil {
		t.Error("base wrapper lost")
	}
	const v9 = "github.com/redis/go-redis/v9"
	if r := m.Method(v9, "", "Rename"); r.Command != "RENAMENX" {
		t.Errorf("Rename not replaced: %+v", r)
	}
	if r := m.Method(v9, "", "Get"); r == nil {
		t.Error("Get not added")
	}
	if r := m.Method(v9, "", "MSet"); r == nil {
		t.Error("MSet lost")
	}
	if r := m.Method("example.com/my/redis", "Conn", "Fetch"); r == nil {
		t.Error("new client lost")
	}
	if m.Command("get") == nil || m.Command("mget") == nil {
		t.Error("commands not merged")
	}
	// Neither input changed.
	if base.Severity("cross-slot") != SeverityError || base.Method(v9, "", "Get") != nil || base.Command("renamenx") != nil || len(base.Families) != 3 {
		t.Error("Merge changed its receiver")
	}
	if user.Method(v9, "", "MSet") != nil {
		t.Error("Merge changed its argument")
	}
}

func TestValidateFaults(t *testing.T) {
	base, err := ParseRules("builtin.yaml", []byte(goodRules))
	if err != nil {
		t.Fatal(err)
	}
	user, err := ParseRules("user.yaml", []byte(`version: 1
families:
  lock: "emq:lock:{<queue>}"
  stats: "emq:{stats}"
  other: "emq:{<tenant>}:x"
  plain: "emq:<queue>:plain"
groups:
  locks: [lock, job]
  stats: [stats, job]
  tenants: [job, other]
  plain: [pending, plain]
  missing: [job, jobs]
clients:
  go-redis v9:
    methods:
      Rename: {command: RENAM, keys: ["1", "2"]}
`))
	if err != nil {
		t.Fatal(err)
	}
	err = base.Merge(user).Validate()
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		`user.yaml:9:3: group "stats": families stats ("emq:{stats}", hashtag {stats}) and job ("emq:{<queue>}:job:<id>", hashtag {<queue>}) are not proven to share a slot; give them the same hashtag, such as {stats} in both`,
		`user.yaml:10:3: group "tenants": families job ("emq:{<queue>}:job:<id>", hashtag {<queue>}) and other ("emq:{<tenant>}:x", hashtag {<tenant>}) are not proven to share a slot; give them the same hashtag, such as {<queue>} in both`,
		`user.yaml:11:3: group "plain": families pending ("emq:{<queue>}:pending", hashtag {<queue>}) and plain ("emq:<queue>:plain", no hashtag) are not proven to share a slot; give them the same hashtag, such as {<queue>} in both`,
		`user.yaml:12:3: group "missing" names family "jobs", which is not defined; defined families: job, lock, other, pending, plain, stats, user`,
		`user.yaml:16:7: method "Rename" of client "go-redis v9" sends command RENAM, which is not in the commands table`,
	}
	if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Two families whose fixed hashtags hash to different slots.
	r, err := ParseRules("f.yaml", []byte("version: 1\nfamilies: {a: \"{a}:x\", b: \"{b}:y\"}\ngroups: {ab: [a, b]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), `f.yaml:3:10: group "ab": families a ("{a}:x", hashtag {a}) and b ("{b}:y", hashtag {b}) hash to different slots`) {
		t.Errorf("got %v", err)
	}

	// Without a commands table, command names are not checked.
	r, err = ParseRules("c.yaml", []byte("version: 1\nclients: {c: {packages: [p], methods: {A: {command: NOPE}}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Error(err)
	}

	// A rule set built in code.
	bad := &Rules{Version: 2, Checks: map[string]Severity{"x": "loud"},
		Clients: []*Client{{Name: "c", Methods: map[string]*Method{"M": {Kind: "odd"}, "E": {Kind: KindScript, Script: NoParam, Fn: NoParam}}}}}
	want = []string{
		`rules of version 2 are not supported; this slotlint reads rules files of version 1`,
		`severity "loud" for check "x" is not one of error, warning, off`,
		`method "E" of client "c" of kind script needs "script": the parameter with the script source or SHA1, or receiver`,
		`method "E" of client "c" of kind script needs "keys": a list of selectors for the key parameters`,
		`kind "odd" of method "M" of client "c" is not a known method kind`,
	}
	if err := bad.Validate(); err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
}

func TestMergeVersion(t *testing.T) {
	a := &Rules{Version: 1}
	if err := a.Merge(&Rules{Version: 2}).Validate(); err == nil {
		t.Error("version 2 over 1 validated")
	}
	if err := (&Rules{Version: 2}).Merge(a).Validate(); err == nil {
		t.Error("version 1 over 2 validated")
	}
	if err := a.Merge(&Rules{Version: 1}).Validate(); err != nil {
		t.Error(err)
	}
}

func TestAliases(t *testing.T) {
	r, err := ParseRules("a.yaml", []byte(`version: 1
families:
  job: &t "emq:{<queue>}:job:<id>"
  job2: *t
`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Family("job2").Template.String() != "emq:{<queue>}:job:<id>" {
		t.Error(r.Family("job2"))
	}
}

// A client's types say which of its types are cluster clients,
// transactions and pipelines; a role the rules do not know is an error that
// lists the roles.
func TestClientTypes(t *testing.T) {
	r, err := ParseRules("t.yaml", []byte("version: 1\nclients: {c: {packages: [example.com/c], types: {Cluster: cluster, Tx: tx}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := r.ClientOf("example.com/c")
	if c == nil || c.Types["Cluster"] != RoleCluster || c.Types["Tx"] != RoleTx || c.Types["Other"] != "" {
		t.Fatalf("ClientOf(example.com/c) = %+v", c)
	}
	if r.ClientOf("example.com/other") != nil {
		t.Error("ClientOf(example.com/other) is not nil")
	}
	over, err := ParseRules("o.yaml", []byte("version: 1\nclients: {c: {types: {Pipe: pipeline}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Merge(over).ClientOf("example.com/c"); m.Types["Pipe"] != RolePipeline || m.Types["Tx"] != RoleTx {
		t.Errorf("merged types = %v", m.Types)
	}
	if r.ClientOf("example.com/c").Types["Pipe"] != "" {
		t.Error("Merge changed the base rules' types")
	}
	_, err = ParseRules("t.yaml", []byte("version: 1\nclients: {c: {packages: [p], types: {Tx: transaction}}}\n"))
	if err == nil || !strings.Contains(err.Error(), `t.yaml:2:`) || !strings.Contains(err.Error(), "client, cluster, tx, pipeline") {
		t.Errorf("a bad role: err = %v", err)
	}
}

// Positions count lines as YAML does: "\r" alone and NEL, LS and PS end a
// line too. An empty document's fault is on its last line, a second
// document is a fault, not ignored, and a UTF-16 file is refused at its
// start.
func TestPositionsOtherLineBreaks(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"version: 1\rfamilies:\r  job: \"a:{<q>\"\r", `f.yaml:3:11: template "a:{<q>": '{' opens a hashtag section that is never closed with '}' (column 3 of the template)`},
		{"version: 1\r\nfamilies:\r\n  job: \"a:{<q>\"\r\n", `f.yaml:3:11: template "a:{<q>": '{' opens a hashtag section that is never closed with '}' (column 3 of the template)`},
		{"version: 1\u0085families:\u2028  job: \"a:{<q>\"\u2029", `f.yaml:3:11: template "a:{<q>": '{' opens a hashtag section that is never closed with '}' (column 3 of the template)`},
		{"version: 1\rfamilies: [\r", `f.yaml:2:11: invalid YAML: did not find expected node content`},
		{"---", `f.yaml:1:4: a rules file must be a mapping that starts with "version: 1", not nothing`},
		{"version: 1\n---\nchecks: {}\n", `f.yaml:2:1: a second YAML document; a rules file is one document, so merge this one into the first`},
		{"version: 1\n---\n[", `f.yaml:3:1: invalid YAML: did not find expected node content`},
		{"\xff\xfev\x00e\x00r\x00s\x00i\x00o\x00n\x00:\x00 \x001\x00\n\x00", `f.yaml:1:1: the rules file is in UTF-16 (it starts with a byte order mark); save it as UTF-8`},
	} {
		_, err := ParseRules("f.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseRules(%q) = %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// split-with names methods, kept through a merge and replaced by an
// override; a rules file that still has split-since gets an error at it
// that says what to do.
func TestSplitWith(t *testing.T) {
	base, err := ParseRules("base.yaml", []byte("version: 1\nclients:\n  lib:\n    packages: [example.com/lib]\n    split-with: [Cluster.SetResolver, Cluster.Dynamic]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := base.ClientOf("example.com/lib").SplitWith; !reflect.DeepEqual(got, []string{"Cluster.SetResolver", "Cluster.Dynamic"}) {
		t.Errorf("SplitWith = %q", got)
	}
	over, err := ParseRules("over.yaml", []byte("version: 1\nclients:\n  lib:\n    split-with: [Cluster.Other]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := base.Merge(over).ClientOf("example.com/lib").SplitWith; !reflect.DeepEqual(got, []string{"Cluster.Other"}) {
		t.Errorf("merged SplitWith = %q", got)
	}
	_, err = ParseRules("bad.yaml", []byte("version: 1\nclients:\n  lib:\n    packages: [example.com/lib]\n    split-with: [\"a b\"]\n"))
	if err == nil || !strings.Contains(err.Error(), `bad.yaml:5:18: split-with of client "lib" names "a b", not a method such as ClusterClient.SetCommandInfoResolver`) {
		t.Errorf("bad split-with: %v", err)
	}
	_, err = ParseRules("old.yaml", []byte("version: 1\nclients:\n  lib:\n    packages: [example.com/lib]\n    split-since: v9.18.0\n"))
	if err == nil || !strings.Contains(err.Error(), `old.yaml:5:5: split-since of client "lib" is no longer a field: no go-redis version splits MGET, DEL, EXISTS or MSET by slot on its own (they fail with CROSSSLOT); delete the line`) {
		t.Errorf("split-since: %v", err)
	}
}

// options and cluster-urls say which option structs and URL functions make
// a client that drops its database, and node-clients which methods return
// a client of each node and every-master how to reach every master, kept
// through a merge and laid over by an override; a missing or bad field is
// an error at its place.
func TestClientOptions(t *testing.T) {
	base, err := ParseRules("base.yaml", []byte(`version: 1
clients:
  lib:
    packages: [example.com/lib]
    options: {Opts: {db: DB, addrs: Addrs, cluster: Cluster, sentinel: Master, constructor: New}}
    cluster-urls: [ParseURL]
    node-clients: [Client.Nodes]
    every-master: "the clients of Nodes()"
`))
	if err != nil {
		t.Fatal(err)
	}
	c := base.ClientOf("example.com/lib")
	if c.EveryMaster != "the clients of Nodes()" {
		t.Errorf("EveryMaster = %q", c.EveryMaster)
	}
	if !reflect.DeepEqual(c.NodeClients, []string{"Client.Nodes"}) {
		t.Errorf("NodeClients = %q", c.NodeClients)
	}
	if got, want := c.Options["Opts"], (&Options{DB: "DB", Addrs: "Addrs", Cluster: "Cluster", Sentinel: "Master", Constructor: "New"}); !reflect.DeepEqual(got, want) {
		t.Errorf("Options = %+v, want %+v", got, want)
	}
	if !reflect.DeepEqual(c.ClusterURLs, []string{"ParseURL"}) {
		t.Errorf("ClusterURLs = %q", c.ClusterURLs)
	}
	over, err := ParseRules("over.yaml", []byte(`version: 1
clients:
  lib:
    options: {Other: {db: Index, addrs: Hosts, constructor: Dial}}
    every-master: ForEach on the cluster
`))
	if err != nil {
		t.Fatal(err)
	}
	m := base.Merge(over).ClientOf("example.com/lib")
	if len(m.Options) != 2 || m.Options["Opts"] == nil || m.Options["Other"].DB != "Index" || !reflect.DeepEqual(m.ClusterURLs, []string{"ParseURL"}) || !reflect.DeepEqual(m.NodeClients, []string{"Client.Nodes"}) {
		t.Errorf("merged = %+v %q %q", m.Options, m.ClusterURLs, m.NodeClients)
	}
	if m.EveryMaster != "ForEach on the cluster" {
		t.Errorf("merged EveryMaster = %q", m.EveryMaster)
	}
	if len(c.Options) != 1 || c.EveryMaster != "the clients of Nodes()" {
		t.Errorf("the merge changed the base: %+v %q", c.Options, c.EveryMaster)
	}
	_, err = ParseRules("bad.yaml", []byte(`version: 1
clients:
  lib:
    packages: [example.com/lib]
    options: {Opts: {db: DB, addr: Addrs}}
    cluster-urls: ["a b"]
    node-clients: [Nodes()]
    every-master: [ForEachMaster]
`))
	for _, want := range []string{
		`bad.yaml:5:30: unknown field "addr" in option struct "Opts" of client "lib"; expected one of db, addrs, cluster, sentinel, constructor`,
		`bad.yaml:5:15: option struct "Opts" of client "lib" has no addrs; give the name of its field or function`,
		`bad.yaml:5:15: option struct "Opts" of client "lib" has no constructor; give the name of its field or function`,
		`bad.yaml:6:20: cluster-urls of client "lib" names "a b", not a function such as ParseClusterURL`,
		`bad.yaml:7:20: node-clients of client "lib" names "Nodes()", not a method such as Client.Nodes`,
		`bad.yaml:8:19: every-master of client "lib" must be a string, not a list`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad options: %v\nwant %s", err, want)
		}
	}
}
