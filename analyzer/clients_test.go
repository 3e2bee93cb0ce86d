package analyzer_test

import (
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestClients runs the checks over code written for the other Go clients,
// against the real modules in testdata/go.mod:
//
//	clients/rueidis        rueidis's command builder, Do, DoMulti, a
//	                       Dedicated MULTI/EXEC, NewLuaScript(src).Exec
//	clients/valkeygo       the same with valkey-go
//	clients/rueidiscompat  rueidiscompat's go-redis shaped adapter
//	clients/redigo         Conn.Do and Send, MULTI/EXEC sent on one Conn,
//	                       redis.NewScript(keyCount, src)
//	clients/goredisv7      go-redis v7 and v6, the API of v8 without
//	clients/goredisv6      contexts: Rename, MGet, Watch, TxPipelined,
//	                       Script.Run, Eval
//	clients/radixv3        radix's Actions: radix.Cmd, FlatCmd, MULTI/EXEC
//	clients/radixv4        and WATCH on the Conn of WithConn, EvalScript.Cmd
//
// For each, a cross-slot RENAME, MGET, transaction and script are flagged
// and their hashtagged forms are clean.
func TestClients(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "./clients/...")
}
