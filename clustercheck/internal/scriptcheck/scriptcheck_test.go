package scriptcheck

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/luacheck"
)

func TestCache(t *testing.T) {
	var c Cache
	src := `return redis.call('GET', 'config:' .. ARGV[1])`
	e := c.Remember(src)
	if c.Remember(src) != e {
		t.Error("Remember: a second entry for one source")
	}
	sum := sha1.Sum([]byte(src))
	sha := hex.EncodeToString(sum[:])
	for _, s := range []string{sha, strings.ToUpper(sha)} {
		if c.Lookup(s) != e {
			t.Errorf("Lookup(%q) did not find the script", s)
		}
	}
	if c.Lookup(sha[:12]) != nil || c.Lookup("0000000000000000000000000000000000000000") != nil {
		t.Error("Lookup of an unseen SHA1 found a script")
	}
}

func TestCheck(t *testing.T) {
	var c Cache
	rules := slotlint.Builtin()
	specs := Specs{ID: rules, Command: luacheck.CommandsFrom(rules), Settled: true}
	bad := c.Remember(`return redis.call('GET', 'config:' .. ARGV[1])`)
	for range 2 { // a call with findings is not remembered: both report
		f := bad.Check([]string{"1", "{s}1", "x"}, 1, false, specs)
		if len(f) != 1 || f[0].Category != luacheck.CategoryUndeclaredKey {
			t.Fatalf("findings %+v", f)
		}
	}
	write := c.Remember(`return redis.call('SET', KEYS[1], ARGV[1])`)
	if f := write.Check([]string{"1", "k", "v"}, 1, false, specs); f != nil {
		t.Errorf("EVAL of a write: %+v", f)
	}
	// The call found fine with EVAL is remembered apart from EVAL_RO.
	if f := write.Check([]string{"1", "k", "v"}, 1, true, specs); len(f) != 1 || f[0].Category != luacheck.CategoryFlags {
		t.Errorf("EVAL_RO of a write: %+v", f)
	}
}
