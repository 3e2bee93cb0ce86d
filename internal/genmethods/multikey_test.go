package main

import (
	"go/types"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/ruleset"
)

// multiKeyGaps are the go-redis v9 methods that send a multi-key command
// and that rules.yaml does not describe, with the reason. It is empty: every
// go-redis v9 multi-key method is described. The test fails when a method
// is missing that is not listed here, and when one listed gets described or
// stops being multi-key, so that the list only ever shrinks.
var multiKeyGaps = map[string]string{}

// TestMultiKeyMethodsDescribed lists every method of go-redis v9's Cmdable
// that may send more than one key: its command can take more than one key,
// by the command's key specs in rules.yaml, and the method can pass more
// than one (or, for a command the table lacks, it has a parameter that holds
// several keys). It fails for each that rules.yaml's go-redis v9 table does
// not describe with that command and selectors that can pick more than one
// key.
func TestMultiKeyMethodsDescribed(t *testing.T) {
	f := load(t)
	cmds, _, err := Commands("rules.yaml", f.data)
	if err != nil {
		t.Fatal(err)
	}
	client := f.rules.ClientOf("github.com/redis/go-redis/v9")
	if client == nil {
		t.Fatal("rules.yaml has no client for github.com/redis/go-redis/v9")
	}
	api := f.apis["github.com/redis/go-redis/v9"]
	conts := containers(cmds)
	it, ok := api.Types.Scope().Lookup("Cmdable").Type().Underlying().(*types.Interface)
	if !ok {
		t.Fatal("go-redis v9's Cmdable is not an interface")
	}

	var multi, undescribed []string
	for i := 0; i < it.NumMethods(); i++ {
		fn := it.Method(i)
		name := fn.Name()
		cmd := commandOverrides[name]
		if cmd == "" {
			cmd = api.commandOf(name, conts)
		}
		if cmd == "" {
			continue
		}
		upper := strings.ToUpper(strings.ReplaceAll(cmd, "|", " "))
		c := cmds[cmd]
		switch {
		case c != nil && multiKey(c) && canSendMany(fn):
		case c == nil && takesKeyList(fn):
		default:
			continue
		}
		multi = append(multi, name+" ("+upper+")")
		m := client.Methods[name]
		if m != nil && strings.EqualFold(m.Command, upper) && selectsMany(m.Keys) {
			if why, ok := multiKeyGaps[name]; ok {
				t.Errorf("%s is described now; remove it from multiKeyGaps (%s)", name, why)
			}
			continue
		}
		if _, ok := multiKeyGaps[name]; ok {
			undescribed = append(undescribed, name)
			continue
		}
		t.Errorf("%s sends %s, which takes more than one key, but rules.yaml does not describe it", name, upper)
	}
	for name := range multiKeyGaps {
		if !slices.Contains(undescribed, name) {
			t.Errorf("multiKeyGaps has %s, which is not an undescribed multi-key method", name)
		}
	}
	sort.Strings(multi)
	t.Logf("%d multi-key methods, %d of them not described (multiKeyGaps):\n%s", len(multi), len(undescribed), strings.Join(multi, "\n"))
	// The commands of issue 16, each of which must have a described method.
	for _, want := range []string{"JSONMGet", "JSONMSet", "TSCreateRule", "TDigestMerge", "CMSMerge", "LMoveM", "BLMoveM", "SUnionCard", "SDiffCard", "MSetEX",
		"TSNRange", "TSNRangeWithArgs", "TSNRevRange", "TSNRevRangeWithArgs"} {
		if !slices.ContainsFunc(multi, func(s string) bool { return strings.HasPrefix(s, want+" ") }) {
			t.Errorf("%s is not among the multi-key methods", want)
		}
	}
}

// multiKey reports whether a command's key specs can give more than one key.
func multiKey(c *ruleset.Command) bool {
	n := 0
	for _, ks := range c.Keys {
		if slices.Contains(ks.Flags, "NOT_KEY") {
			continue
		}
		if ks.IsKeyNum || ks.LastKey != 0 {
			return true
		}
		n++
	}
	return n > 1
}

// takesKeyList reports whether a method has a parameter named like keys
// that holds several of them.
func takesKeyList(fn *types.Func) bool {
	params := fn.Type().(*types.Signature).Params()
	for i := 0; i < params.Len(); i++ {
		p := params.At(i)
		if keyParams[strings.ToLower(p.Name())] && isStringSlice(p.Type()) {
			return true
		}
	}
	return false
}

// canSendMany reports whether a method may send more than one key: it
// has two parameters named like keys, or one that holds several values (a
// slice, a map, a struct, a variadic parameter). Migrate, for one, sends
// MIGRATE with a single key, never its KEYS form.
func canSendMany(fn *types.Func) bool {
	params := fn.Type().(*types.Signature).Params()
	named := 0
	for i := 1; i < params.Len(); i++ {
		p := params.At(i)
		if keyParams[strings.ToLower(p.Name())] {
			named++
		}
		switch t := p.Type(); t.Underlying().(type) {
		case *types.Slice, *types.Map:
			return true
		case *types.Pointer, *types.Struct:
			if st, _ := structOf(t); st != nil {
				return true
			}
		}
	}
	return named > 1
}

// selectsMany reports whether selectors can pick more than one key.
func selectsMany(sels []ruleset.Selector) bool {
	if len(sels) > 1 {
		return true
	}
	return len(sels) == 1 && (sels[0].Variadic || sels[0].Slice || sels[0].MapKeys)
}
