package main

import (
	"fmt"
	"go/types"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/slotlint/slotlint/ruleset"
)

const rulesPath = "../../rules.yaml"

var setup = sync.OnceValues(func() (*fixture, error) {
	data, err := os.ReadFile(rulesPath)
	if err != nil {
		return nil, err
	}
	r, err := ruleset.ParseRules("rules.yaml", data)
	if err != nil {
		return nil, err
	}
	f := &fixture{data: data, rules: r, apis: map[string]*API{}}
	for _, c := range Clients {
		api, err := Load(c.Path, ".")
		if err != nil {
			return nil, err
		}
		f.apis[c.Path] = api
	}
	return f, nil
})

type fixture struct {
	data  []byte
	rules *ruleset.Rules
	apis  map[string]*API
}

func load(t *testing.T) *fixture {
	t.Helper()
	f, err := setup()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestUpToDate checks that the clients section of rules.yaml is what the
// generator makes of the go-redis versions in go.mod.
func TestUpToDate(t *testing.T) {
	f := load(t)
	section, err := Build("rules.yaml", f.data, func(c Client) (*API, error) { return f.apis[c.Path], nil })
	if err != nil {
		t.Fatal(err)
	}
	updated, err := ReplaceSection(f.data, section)
	if err != nil {
		t.Fatal(err)
	}
	if string(updated) != string(f.data) {
		t.Error("the clients section of rules.yaml is out of date; run go run ./internal/genmethods")
	}
}

// TestClientsMatchAPI checks every method of the clients table against the
// real go-redis API: the method exists, each selector fits its parameters,
// and its command is in the commands table.
func TestClientsMatchAPI(t *testing.T) {
	f := load(t)
	if err := f.rules.Validate(); err != nil {
		t.Fatal(err)
	}
	generated := map[string]bool{}
	for _, c := range Clients {
		generated[c.Name] = true
	}
	var mine int
	for _, c := range f.rules.Clients {
		if generated[c.Name] {
			mine++
		}
	}
	if mine != len(Clients) {
		t.Fatalf("rules.yaml has %d of the go-redis clients, want %d", mine, len(Clients))
	}
	for _, c := range f.rules.Clients {
		if !generated[c.Name] {
			continue // rueidis, valkey-go, redigo: checked by internal/genrueidis
		}
		if len(c.Packages) == 0 {
			t.Errorf("client %q has no packages", c.Name)
			continue
		}
		api := f.apis[c.Packages[0]]
		if api == nil {
			t.Errorf("client %q: package %s is not one the generator knows", c.Name, c.Packages[0])
			continue
		}
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range c.Methods {
				if !yield(k) {
					return
				}
			}
		})
		for _, name := range names {
			m := c.Methods[name]
			qualified := func(recv string) bool { return c.Methods[recv+"."+name] != nil }
			targets := api.Targets(name, qualified)
			if len(targets) == 0 {
				t.Errorf("%s: %s is not in the API", c.Name, name)
				continue
			}
			for _, fn := range targets {
				for _, err := range checkMethod(fn, m) {
					t.Errorf("%s: %s (%s): %v", c.Name, name, fn.FullName(), err)
				}
			}
			if m.Command != "" && f.rules.Command(m.Command) == nil {
				t.Errorf("%s: %s sends %s, which is not in the commands table", c.Name, name, m.Command)
			}
			if m.Kind == ruleset.KindCommand && m.Command == "" {
				t.Errorf("%s: %s names no command", c.Name, name)
			}
		}
	}
}

// checkMethod checks a rule's selectors and parameters against a function.
func checkMethod(fn *types.Func, m *ruleset.Method) []error {
	sig := fn.Type().(*types.Signature)
	var errs []error
	for _, s := range m.Keys {
		errs = append(errs, checkSelector(sig, s, true)...)
	}
	for _, s := range m.Patterns {
		errs = append(errs, checkSelector(sig, s, true)...)
	}
	if m.Args != nil {
		errs = append(errs, checkSelector(sig, *m.Args, false)...)
	}
	param := func(what string, i int, ok func(types.Type) bool, want string) {
		if i >= sig.Params().Len() {
			errs = append(errs, fmt.Errorf("%s: no parameter %d", what, i))
			return
		}
		if t := sig.Params().At(i).Type(); !ok(t) {
			errs = append(errs, fmt.Errorf("%s: parameter %d is %s, not %s", what, i, t, want))
		}
	}
	switch m.Script {
	case ruleset.NoParam:
	case ruleset.ReceiverParam:
		if recv := sig.Recv(); recv == nil || !strings.HasSuffix(recv.Type().String(), ".Script") {
			errs = append(errs, fmt.Errorf("script: receiver, but the receiver is not a Script"))
		}
	default:
		param("script", m.Script, isString, "a string")
	}
	if m.Fn != ruleset.NoParam {
		param("fn", m.Fn, func(t types.Type) bool { _, ok := t.Underlying().(*types.Signature); return ok }, "a function")
	}
	if m.DB != ruleset.NoParam {
		param("db", m.DB, isInt, "an integer")
	}
	return errs
}

// checkSelector checks that a selector fits a signature: parameter N exists,
// N... is the variadic parameter, N[] a slice, N.F a field of a struct, N[].F
// and N[][0] a slice of structs with key field F or of []interface{}, N{} a
// map with string keys; keys are strings (pairs any value).
func checkSelector(sig *types.Signature, s ruleset.Selector, key bool) []error {
	params := sig.Params()
	if s.Param >= params.Len() {
		return []error{fmt.Errorf("selector %s: no parameter %d", s, s.Param)}
	}
	p := params.At(s.Param)
	t := p.Type()
	last := s.Param == params.Len()-1 && sig.Variadic()
	fail := func(format string, args ...any) []error {
		return []error{fmt.Errorf("selector %s: parameter %d (%s %s): %s", s, s.Param, p.Name(), t, fmt.Sprintf(format, args...))}
	}
	switch {
	case s.MapKeys:
		if !isStringKeyedMap(t) {
			return fail("not a map with string keys")
		}
	case s.PerElement():
		_, ok := t.Underlying().(*types.Slice)
		if last || !ok {
			return fail("not a slice")
		}
		if sel := elemSelector(s.Param, t); sel != s.Text {
			return fail("its elements take the selector %q", sel)
		}
	case s.Variadic:
		if !last {
			return fail("not variadic")
		}
		elem := t.(*types.Slice).Elem()
		if key && s.Step == 1 && !isString(elem) {
			return fail("elements are not strings")
		}
	case s.Field != "":
		if last {
			return fail("variadic, not a struct")
		}
		st, _ := structOf(t)
		if st == nil {
			return fail("not a struct or a pointer to one")
		}
		var field *types.Var
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Name() == s.Field {
				field = st.Field(i)
			}
		}
		if field == nil {
			return fail("no field %s", s.Field)
		}
		if s.Slice && !isStringSlice(field.Type()) || !s.Slice && !isString(field.Type()) {
			return fail("field %s is %s", s.Field, field.Type())
		}
	case s.Slice:
		if last {
			return fail("variadic; its selector is %d...", s.Param)
		}
		if !isStringSlice(t) {
			return fail("not a []string")
		}
	default:
		if last || key && !isString(t) {
			return fail("not a single key")
		}
	}
	return nil
}

// TestRequired checks that the table describes the methods slotlint's checks
// rely on, with the rules they need.
func TestRequired(t *testing.T) {
	f := load(t)
	want := map[string]string{
		"Del":                    `{command: DEL, keys: ["1..."]}`,
		"Unlink":                 `{command: UNLINK, keys: ["1..."]}`,
		"Exists":                 `{command: EXISTS, keys: ["1..."]}`,
		"Touch":                  `{command: TOUCH, keys: ["1..."]}`,
		"MGet":                   `{command: MGET, keys: ["1..."]}`,
		"MSet":                   `{command: MSET, keys: ["1...pairs"]}`,
		"MSetNX":                 `{command: MSETNX, keys: ["1...pairs"]}`,
		"Rename":                 `{command: RENAME, keys: ["1", "2"]}`,
		"RenameNX":               `{command: RENAMENX, keys: ["1", "2"]}`,
		"Copy":                   `{command: COPY, keys: ["1", "2"], db: 3}`,
		"SMove":                  `{command: SMOVE, keys: ["1", "2"]}`,
		"LMove":                  `{command: LMOVE, keys: ["1", "2"]}`,
		"BLMove":                 `{command: BLMOVE, keys: ["1", "2"]}`,
		"RPopLPush":              `{command: RPOPLPUSH, keys: ["1", "2"]}`,
		"BRPopLPush":             `{command: BRPOPLPUSH, keys: ["1", "2"]}`,
		"SInter":                 `{command: SINTER, keys: ["1..."]}`,
		"SInterStore":            `{command: SINTERSTORE, keys: ["1", "2..."]}`,
		"SInterCard":             `{command: SINTERCARD, keys: ["2..."]}`,
		"SUnionStore":            `{command: SUNIONSTORE, keys: ["1", "2..."]}`,
		"SDiffStore":             `{command: SDIFFSTORE, keys: ["1", "2..."]}`,
		"ZInter":                 `{command: ZINTER, keys: ["1.Keys[]"]}`,
		"ZInterStore":            `{command: ZINTERSTORE, keys: ["1", "2.Keys[]"]}`,
		"ZInterWithScores":       `{command: ZINTER, keys: ["1.Keys[]"]}`,
		"ZInterCard":             `{command: ZINTERCARD, keys: ["2..."]}`,
		"ZUnionStore":            `{command: ZUNIONSTORE, keys: ["1", "2.Keys[]"]}`,
		"ZDiffStore":             `{command: ZDIFFSTORE, keys: ["1", "2..."]}`,
		"ZRangeStore":            `{command: ZRANGESTORE, keys: ["1", "2.Key"]}`,
		"PFMerge":                `{command: PFMERGE, keys: ["1", "2..."]}`,
		"PFCount":                `{command: PFCOUNT, keys: ["1..."]}`,
		"BitOpAnd":               `{command: BITOP, keys: ["1", "2..."]}`,
		"BitOpNot":               `{command: BITOP, keys: ["1", "2"]}`,
		"GeoSearchStore":         `{command: GEOSEARCHSTORE, keys: ["1", "2"]}`,
		"GeoRadiusStore":         `{command: GEORADIUS, keys: ["1", "4.Store", "4.StoreDist"], needs-keys: true}`,
		"GeoRadiusByMemberStore": `{command: GEORADIUSBYMEMBER, keys: ["1", "3.Store", "3.StoreDist"], needs-keys: true}`,
		"BLPop":                  `{command: BLPOP, keys: ["2..."]}`,
		"BZPopMax":               `{command: BZPOPMAX, keys: ["2..."]}`,
		"LMPop":                  `{command: LMPOP, keys: ["3..."]}`,
		"BLMPop":                 `{command: BLMPOP, keys: ["4..."]}`,
		"ZMPop":                  `{command: ZMPOP, keys: ["3..."]}`,
		"BZMPop":                 `{command: BZMPOP, keys: ["4..."]}`,
		"XRead":                  `{command: XREAD, keys: ["1.Streams[:half]"]}`,
		"XReadGroup":             `{command: XREADGROUP, keys: ["1.Streams[:half]"]}`,
		"XAdd":                   `{command: XADD, keys: ["1.Stream"]}`,
		"Sort":                   `{command: SORT, keys: ["1"], patterns: ["2.By", "2.Get[]"]}`,
		"SortStore":              `{command: SORT, keys: ["1", "2"], patterns: ["3.By", "3.Get[]"]}`,
		"LCS":                    `{command: LCS, keys: ["1.Key1", "1.Key2"]}`,
		"Get":                    `{command: GET, keys: ["1"]}`,
		"HSet":                   `{command: HSET, keys: ["1"]}`,
		"ObjectEncoding":         `{command: "OBJECT ENCODING", keys: ["1"]}`,
		"XGroupCreateMkStream":   `{command: "XGROUP CREATE", keys: ["1"]}`,
		"Eval":                   `{command: EVAL, kind: script, script: 1, keys: ["2[]"], args: "3..."}`,
		"EvalSha":                `{command: EVALSHA, kind: script-sha, script: 1, keys: ["2[]"], args: "3..."}`,
		"Script.Run":             `{command: EVALSHA, kind: script, script: receiver, keys: ["2[]"], args: "3..."}`,
		"Script.EvalSha":         `{command: EVALSHA, kind: script, script: receiver, keys: ["2[]"], args: "3..."}`,
		"ScriptLoad":             `{command: "SCRIPT LOAD", kind: script-load, script: 1}`,
		"NewScript":              `{kind: new-script, script: 0}`,
		"FCall":                  `{command: FCALL, kind: function, keys: ["2[]"], args: "3..."}`,
		"Watch":                  `{command: WATCH, kind: watch, fn: 1, keys: ["2..."], needs-keys: true}`,
		"Tx.Watch":               `{command: WATCH, keys: ["1..."]}`,
		"Tx.Unwatch":             `{command: UNWATCH}`,
		"TxPipelined":            `{kind: tx-pipelined, fn: 1}`,
		"TxPipeline":             `{kind: tx-pipeline}`,
		"Pipelined":              `{kind: pipelined, fn: 1}`,
		"Pipeline":               `{kind: pipeline}`,
		"Exec":                   `{kind: exec}`,
		"Do":                     `{kind: raw, args: "1..."}`,
	}
	v9only := map[string]bool{"LCS": true, "SInterCard": true, "ZInterCard": true, "LMPop": true, "BLMPop": true, "ZMPop": true, "BZMPop": true, "FCall": true}
	// Methods that go-redis added in v8, and those v6 has in another shape.
	v8on := map[string]bool{"BLMove": true, "Copy": true, "GeoSearchStore": true, "LMove": true, "ZDiffStore": true, "ZInter": true, "ZInterWithScores": true, "ZRangeStore": true}
	v6 := map[string]string{
		// GeoRadius stores what it finds in the query's Store.
		"GeoRadiusStore": "", "GeoRadiusByMemberStore": "",
		"GeoRadius":         `{command: GEORADIUS, keys: ["0", "3.Store", "3.StoreDist"]}`,
		"GeoRadiusByMember": `{command: GEORADIUSBYMEMBER, keys: ["0", "2.Store", "2.StoreDist"]}`,
		// The keys after the store, variadic.
		"ZInterStore": `{command: ZINTERSTORE, keys: ["0", "2..."]}`,
		"ZUnionStore": `{command: ZUNIONSTORE, keys: ["0", "2..."]}`,
	}
	for _, client := range Clients {
		section := string(f.data)
		start := strings.Index(section, "\n  "+client.Name+":\n")
		if start < 0 {
			t.Fatalf("no client %q in rules.yaml", client.Name)
		}
		section = section[start+1:]
		if end := strings.Index(section[3:], "\n  go-redis"); end >= 0 {
			section = section[:end+3]
		}
		if end := strings.Index(section, "\n"+endClients); end >= 0 {
			section = section[:end]
		}
		lines := map[string]string{}
		for _, l := range strings.Split(section, "\n") {
			if name, rule, ok := strings.Cut(strings.TrimSpace(l), ": {"); ok {
				lines[name] = "{" + rule
			}
		}
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range want {
				if !yield(k) {
					return
				}
			}
		})
		noCtx := client.Name == "go-redis v7" || client.Name == "go-redis v6"
		for _, name := range names {
			w := want[name]
			if noCtx && name != "NewScript" {
				w = withoutContext(w)
			}
			if o, ok := v6[name]; ok && client.Name == "go-redis v6" {
				w = o
			}
			got, ok := lines[name]
			if !ok {
				if !(client.Path != Clients[0].Path && v9only[name] || noCtx && v8on[name] || w == "") {
					t.Errorf("%s: %s is missing", client.Name, name)
				}
				continue
			}
			if got != w {
				t.Errorf("%s: %s: %s, want %s", client.Name, name, got, w)
			}
		}
		for name, w := range v6 {
			if _, ok := want[name]; !ok && client.Name == "go-redis v6" && lines[name] != w {
				t.Errorf("%s: %s: %s, want %s", client.Name, name, lines[name], w)
			}
		}
	}
}

// withoutContext returns a rule of TestRequired's for the same method
// without a ctx: every parameter number one less.
func withoutContext(rule string) string {
	return paramRE.ReplaceAllStringFunc(rule, func(m string) string {
		i := strings.IndexAny(m, "0123456789")
		n, _ := strconv.Atoi(m[i:])
		return m[:i] + strconv.Itoa(n-1)
	})
}

var paramRE = regexp.MustCompile(`("|script: |fn: |db: )[0-9]+`)

// TestReplaceSection checks that only the lines between the markers change.
func TestReplaceSection(t *testing.T) {
	in := "version: 1\n# BEGIN GENERATED clients\nold\n# END GENERATED clients\n# BEGIN GENERATED commands\ncommands: {}\n# END GENERATED commands\n"
	out, err := ReplaceSection([]byte(in), "# BEGIN GENERATED clients\nnew\n# END GENERATED clients\n")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(in, "old", "new", 1)
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := ReplaceSection([]byte("version: 1\n"), "x"); err == nil {
		t.Error("no error without markers")
	}
}

// TestCommandsLeftOut checks that the methods left out for want of their
// command in the commands table really lack it there.
func TestCommandsLeftOut(t *testing.T) {
	f := load(t)
	cmds, _, err := Commands("rules.yaml", f.data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Clients {
		tab, err := Generate(c, f.apis[c.Path], cmds)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tab.Missing {
			name, cmd, _ := strings.Cut(strings.TrimSuffix(m, ")"), " (")
			if f.rules.Command(cmd) != nil {
				t.Errorf("%s: %s left out, but %s is in the commands table", c.Name, name, cmd)
			}
		}
		if !sort.StringsAreSorted(tab.Missing) {
			t.Error("missing list not sorted")
		}
	}
}

// TestCheckMethodCatches checks that checkMethod rejects rules that do not
// fit the API.
func TestCheckMethodCatches(t *testing.T) {
	f := load(t)
	api := f.apis[Clients[0].Path]
	for _, tc := range []struct {
		method, rule string
	}{
		{"Rename", `{command: RENAME, keys: ["1", "3"]}`},
		{"MSet", `{command: MSET, keys: ["1"]}`},
		{"MGet", `{command: MGET, keys: ["1[]"]}`},
		{"Eval", `{command: EVAL, kind: script, script: 1, keys: ["2..."], args: "3..."}`},
		{"XRead", `{command: XREAD, keys: ["1.Stream"]}`},
		{"XAdd", `{command: XADD, keys: ["1.Stream[]"]}`},
		{"Get", `{command: GET, keys: ["1.Key"]}`},
		{"Copy", `{command: COPY, keys: ["1", "2"], db: 4}`},
		{"Eval", `{command: EVAL, kind: script, script: 3, keys: ["2[]"]}`},
		{"Script.Run", `{command: EVALSHA, kind: script, script: receiver, keys: ["3"]}`},
		{"ScriptLoad", `{command: "SCRIPT LOAD", kind: script-load, script: receiver}`},
		{"TxPipelined", `{kind: tx-pipelined, fn: 0}`},
		{"HSet", `{command: HSET, keys: ["2..."]}`},
	} {
		r, err := ruleset.ParseRules("t.yaml", []byte("version: 1\nclients: {c: {packages: [p], methods: {"+tc.method+": "+tc.rule+"}}}\n"))
		if err != nil {
			t.Fatal(err)
		}
		m := r.Clients[0].Methods[tc.method]
		targets := api.Targets(tc.method, func(string) bool { return false })
		if len(targets) == 0 {
			t.Fatalf("%s not found", tc.method)
		}
		if errs := checkMethod(targets[0], m); len(errs) == 0 {
			t.Errorf("%s %s: no error", tc.method, tc.rule)
		} else {
			t.Logf("%s %s: %v", tc.method, tc.rule, errs[0])
		}
	}
}
