package clustercheck_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/slotlint/slotlint/clustercheck"
)

// Findings returns what the hook found in the default mode, ReturnError,
// too: every cross-slot MGET of 48 goroutines is refused, and each of the
// 48 faults (one key pair a goroutine) is recorded once. Run with -race.
func TestHookFindingsReturnErrorConcurrent(t *testing.T) {
	s := hookServer(t)
	ctx := testCtx(t)
	c, h := hooked(t, s, 3)
	const goroutines, each = 48, 200
	var wg sync.WaitGroup
	refused := make([]int, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, b := fmt.Sprintf("user:%d:a", g), fmt.Sprintf("user:%d:b", g)
			for range each {
				var e *clustercheck.CrossSlotError
				if err := c.MGet(ctx, a, b).Err(); errors.As(err, &e) {
					refused[g]++
				}
			}
		}()
	}
	wg.Wait()
	for g, n := range refused {
		if n != each {
			t.Fatalf("goroutine %d: %d of %d cross-slot MGETs refused", g, n, each)
		}
	}
	found := h.Findings()
	if len(found) != goroutines {
		t.Fatalf("Findings() has %d findings after %d refused MGETs of %d key pairs, want %d", len(found), goroutines*each, goroutines, goroutines)
	}
	for _, f := range found {
		if f.Kind != clustercheck.KindCommand {
			t.Errorf("finding of kind %q: %v", f.Kind, f)
		}
	}
	// A command in one slot is sent, and adds nothing.
	if err := c.MGet(ctx, "{user:1}:a", "{user:1}:b").Err(); err != nil {
		t.Fatal(err)
	}
	if n := len(h.Findings()); n != goroutines {
		t.Errorf("Findings() has %d findings after a good MGET, want %d", n, goroutines)
	}
}
