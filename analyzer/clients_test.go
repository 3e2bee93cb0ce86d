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
//
// For each, a cross-slot RENAME, MGET, transaction and script are flagged
// and their hashtagged forms are clean.
func TestClients(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "./clients/...")
}
