package clustercheck

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/slot"
)

// TB is the part of testing.TB that the assertions use; *testing.T and
// *testing.B satisfy it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// AssertSameSlot checks, without a server, that keys share one slot: it
// reports a failure through t.Errorf and returns false when they do not. The
// message names each key with its slot and suggests a common hashtag:
//
//	keys do not share a slot: "a" (slot 15495), "b" (slot 3300): keys "a" (slot
//	15495) and "b" (slot 3300) hash to different slots; give them a common
//	hashtag such as "{...}"
func AssertSameSlot(t TB, keys ...string) bool {
	t.Helper()
	slots := make([]int, len(keys))
	for i, k := range keys {
		slots[i] = slot.Of(k)
	}
	if msg := sameSlotMessage(keys, slots, ""); msg != "" {
		t.Errorf("%s", msg)
		return false
	}
	return true
}

// AssertSameSlotLive checks that keys share one slot by the server's CLUSTER
// KEYSLOT, and that slotlint computes the same slots. It reports a failure
// through t.Errorf and returns false when they do not; when the server
// cannot answer, it stops the test with t.Fatalf.
func AssertSameSlotLive(t TB, ctx context.Context, c redis.UniversalClient, keys ...string) bool {
	t.Helper()
	res, err := Verify(ctx, c, keys)
	if err != nil {
		t.Fatalf("AssertSameSlotLive: %v", err)
		return false
	}
	ok := true
	if err := res.Err(); err != nil {
		t.Errorf("%v", err)
		ok = false
	}
	slots := make([]int, len(keys))
	for i, k := range res.Keys {
		slots[i] = k.ServerSlot
	}
	if msg := sameSlotMessage(keys, slots, " by CLUSTER KEYSLOT"); msg != "" {
		t.Errorf("%s", msg)
		ok = false
	}
	return ok
}

// sameSlotMessage returns "" when slots are all equal, or the failure
// message.
func sameSlotMessage(keys []string, slots []int, how string) string {
	same := true
	for _, s := range slots {
		if s != slots[0] {
			same = false
			break
		}
	}
	if same {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "keys do not share a slot%s:", how)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s (slot %d)", strconv.Quote(k), slots[i])
	}
	b.WriteString(": ")
	b.WriteString(explain(keys))
	return b.String()
}

// explain returns the colocation verdict's reason and fix for literal keys.
func explain(keys []string) string {
	lits := make([]keyspace.Key, len(keys))
	for i, k := range keys {
		lits[i] = keyspace.Lit(k)
	}
	c := keyspace.Colocate(lits...)
	if c.Verdict == keyspace.Same {
		return "they share a slot"
	}
	return c.Reason + "; " + c.Fix
}
