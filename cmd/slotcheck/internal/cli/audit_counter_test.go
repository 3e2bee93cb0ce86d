package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/slot"
)

// The audit shows Redis 8's cluster_incompatible_ops beside its own
// findings when the server counts them, and says nothing of it otherwise
// (Redis 7). Audit's reading of the field is tested against a server that
// answers as Redis 8 does, in clustercheck.
func TestAuditIncompatibleOps(t *testing.T) {
	cn := &conn{addr: "127.0.0.1:6379"}
	r := &clustercheck.AuditReport{Keys: 3, SlotKeys: make([]int64, slot.Count), IncompatibleOps: 1234, IncompatibleOpsKnown: true}
	var b bytes.Buffer
	writeAuditText(&b, cn, r)
	if !strings.Contains(b.String(), "\ncommands a cluster would refuse, as the server counts them (cluster_incompatible_ops, Redis 8): 1,234\n") {
		t.Errorf("the text report does not show the count:\n%s", b.String())
	}
	b.Reset()
	if err := writeAuditJSON(&b, r, nil); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Ops *int64 `json:"cluster_incompatible_ops"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || out.Ops == nil || *out.Ops != 1234 {
		t.Errorf("JSON cluster_incompatible_ops: %v, %v", out.Ops, err)
	}

	r.IncompatibleOps, r.IncompatibleOpsKnown = 0, false
	b.Reset()
	writeAuditText(&b, cn, r)
	if strings.Contains(b.String(), "cluster_incompatible_ops") {
		t.Errorf("the report of a server without the count mentions it:\n%s", b.String())
	}
	b.Reset()
	if err := writeAuditJSON(&b, r, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(b.String()), ""), `"cluster_incompatible_ops":null`) {
		t.Errorf("JSON of a server without the count: %s", b.String())
	}
}
