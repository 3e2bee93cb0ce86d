package analyzer_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestClients runs the checks over code written for the other Go clients,
// against the real modules in testdata/go.mod:
//
//	clients/rueidis        rueidis's command builder, Do, DoMulti, a
//	                       Dedicated MULTI/EXEC, NewLuaScript(src).Exec
//	clients/valkeygo       the same with valkey-go
//	clients/rueidiscompat  rueidiscompat's go-redis shaped adapter
//	clients/valkeycompat   the same with valkeycompat (kochira)
//	clients/redigo         Conn.Do and Send, MULTI/EXEC sent on one Conn,
//	                       redis.NewScript(keyCount, src)
//	clients/goredisv9rc    go-redis v9's release candidates, at the
//	                       module's earlier path github.com/go-redis/redis/v9
//	clients/goredisv7      go-redis v7 and v6, the API of v8 without
//	clients/goredisv6      contexts: Rename, MGet, Watch, TxPipelined,
//	                       Script.Run, Eval
//	clients/radixv2        radix.v2's raw Cmd and PipeAppend, MULTI/EXEC
//	                       sent on one Client, a storage's Cmd(cmd, args...)
//	                       and another package's key joiner (cgrates)
//	clients/radixv3        radix's Actions: radix.Cmd, FlatCmd, MULTI/EXEC
//	clients/radixv4        and WATCH on the Conn of WithConn, EvalScript.Cmd
//
// For each, a cross-slot RENAME, MGET, transaction and script are flagged
// and their hashtagged forms are clean.
func TestClients(t *testing.T) {
	analysistest.Run(t, testdata(t), checked, "./clients/...")
}

type recordT struct{ errs []string }

func (r *recordT) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestRuleFit gives go-redis v7 a rule numbered as for v8, whose parameter
// 0 is ctx: it does not fit v7's Rename(key, newkey), and the analysis
// fails with the rule's position instead of reading the wrong arguments.
func TestRuleFit(t *testing.T) {
	setFlag(t, "rules-inline", "version: 1\nclients:\n  go-redis v7:\n    methods:\n      Rename: {command: RENAME, keys: [\"1\", \"2\"]}\n")
	rec := &recordT{}
	analysistest.Run(rec, testdata(t), checked, "./clients/goredisv7")
	want := `rules-inline:5:7: the rule of Rename does not fit (github.com/go-redis/redis/v7.cmdable).Rename: selector "2" names parameter 2, but it has 2 (parameters count from 0 in the Go signature: a ctx, when the method takes one, is parameter 0)`
	found := false
	for _, e := range rec.errs {
		found = found || strings.Contains(e, want)
	}
	if !found {
		t.Errorf("errors %q, want one with %s", rec.errs, want)
	}
}
