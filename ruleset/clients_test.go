package ruleset

import (
	"strings"
	"testing"
)

// TestBuilderKinds loads the rules of a client that builds commands as
// values (rueidis, valkey-go): a builder method naming the command, chain
// methods taking keys, and Do and DoMulti sending what was built.
func TestBuilderKinds(t *testing.T) {
	r, err := ParseRules("rules.yaml", []byte(`version: 1
clients:
  rueidis:
    packages: [github.com/redis/rueidis, github.com/redis/rueidis/internal/cmds]
    types: {Client: cluster, DedicatedClient: cluster}
    methods:
      Builder.Rename: {kind: builder, command: RENAME}
      Rename.Key: {kind: builder-keys, keys: ["0"]}
      RenameKey.Newkey: {kind: builder-keys, keys: ["0"]}
      Mget.Key: {kind: builder-keys, keys: ["0..."]}
      Client.Do: {kind: send, args: "1"}
      Client.DoMulti: {kind: send, args: "1..."}
commands:
  rename: {arity: 3, keys: [{index: 1, lastkey: 0, step: 1}, {index: 2, lastkey: 0, step: 1}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	b := r.Method("github.com/redis/rueidis/internal/cmds", "Builder", "Rename")
	if b == nil || b.Kind != KindBuilder || b.Command != "RENAME" {
		t.Errorf("Builder.Rename: got %+v", b)
	}
	k := r.Method("github.com/redis/rueidis/internal/cmds", "Mget", "Key")
	if k == nil || k.Kind != KindBuilderKeys || len(k.Keys) != 1 || !k.Keys[0].Variadic || k.Keys[0].Param != 0 {
		t.Errorf("Mget.Key: got %+v", k)
	}
	if m := r.Method("github.com/redis/rueidis/internal/cmds", "Get", "Key"); m != nil {
		t.Errorf("Get.Key is not listed, got %+v", m)
	}
	d := r.Method("github.com/redis/rueidis", "Client", "DoMulti")
	if d == nil || d.Kind != KindSend || d.Args == nil || !d.Args.Variadic || d.Args.Param != 1 {
		t.Errorf("Client.DoMulti: got %+v", d)
	}
}

// TestBuilderKindErrors checks that the new kinds ask for what they need,
// at the method's position, and that Validate knows a builder's command.
func TestBuilderKindErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{"      Builder.Rename: {kind: builder}\n", `rules.yaml:5:23: method "Builder.Rename" of kind builder needs "command"`},
		{"      Rename.Key: {kind: builder-keys}\n", `rules.yaml:5:19: method "Rename.Key" of kind builder-keys needs "keys"`},
		{"      Rename.Key: {kind: builder-keys, keys: [\"0\"], args: \"1\"}\n", `field "args" does not apply to method "Rename.Key" of kind builder-keys`},
		{"      Client.Do: {kind: send}\n", `method "Client.Do" of kind send needs "args"`},
		{"      Client.Do: {kind: sends, args: \"1\"}\n", `kind "sends" of method "Client.Do" is not one of command, script, script-sha, script-load, new-script, function, raw, watch, tx-pipelined, tx-pipeline, pipelined, pipeline, exec, builder, builder-keys, send`},
	} {
		_, err := ParseRules("rules.yaml", []byte("version: 1\nclients:\n  rueidis:\n    methods:\n"+tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %s", strings.TrimSpace(tc.src), err, tc.want)
		}
	}
	r, err := ParseRules("rules.yaml", []byte("version: 1\nclients:\n  rueidis:\n    methods:\n      Builder.Nope: {kind: builder, command: NOPE}\ncommands:\n  get: {arity: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "sends command NOPE, which is not in the commands table") {
		t.Errorf("Validate: got %v", err)
	}
}

// TestParseSelectorKeyCount checks N...keycount: the first elements of a
// variadic parameter, as many as the script's key count (redigo's
// Script.Do(conn, keysAndArgs...)).
func TestParseSelectorKeyCount(t *testing.T) {
	s, err := ParseSelector("1...keycount")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Variadic || !s.KeyCount || s.Half || s.Slice || s.Step != 1 || s.Param != 1 {
		t.Errorf("got %+v", s)
	}
	for _, bad := range []string{"1[]keycount", "1...keycounts", "1.Keys...keycount"} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestFlatSelector checks N...flat: the args of a raw method whose
// arguments are flattened (radix's FlatCmd), and nowhere else.
func TestFlatSelector(t *testing.T) {
	s, err := ParseSelector("1...flat")
	if err != nil || s.Param != 1 || !s.Variadic || !s.Flat {
		t.Errorf("ParseSelector(1...flat) = %+v, %v", s, err)
	}
	r, err := ParseRules("rules.yaml", []byte("version: 1\nclients:\n  radix:\n    methods:\n      FlatCmd: {kind: raw, args: \"1...flat\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Clients[0].Methods["FlatCmd"]; m.Args == nil || !m.Args.Flat {
		t.Errorf("FlatCmd's args: %+v", m.Args)
	}
	for _, tc := range []struct{ src, want string }{
		{`      Eval: {kind: script, script: 0, keys: ["1[]"], args: "2...flat"}`, `rules.yaml:5:60: args "2...flat" of method "Eval": ...flat is for the args of kind raw`},
		{`      Get: {command: GET, keys: ["0...flat"]}`, `rules.yaml:5:34: selector "0...flat" in the keys of method "Get": ...flat selects the arguments of a raw command`},
	} {
		_, err := ParseRules("rules.yaml", []byte("version: 1\nclients:\n  radix:\n    methods:\n"+tc.src+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %s", strings.TrimSpace(tc.src), err, tc.want)
		}
	}
}
