package rueidishook_test

import (
	"context"
	"testing"

	"github.com/redis/rueidis/rueidiscompat"
)

// TestCompat runs the wrapper under rueidiscompat, the adapter with
// go-redis's API, on a real server (standalone, where rueidis's builder
// checks no slots): its commands, transactions and scripts are the wrapped
// client's. The adapter's Script.Run falls back to
// EVAL on the wrapper's NOSCRIPT as on a server's.
func TestCompat(t *testing.T) {
	ctx := context.Background()
	c, raw := standalone(t)
	a := rueidiscompat.NewAdapter(c)

	crossSlot(t, a.MGet(ctx, "cart:1", "cart:2").Err(), `MGET: keys "cart:1"`)
	if err := a.MGet(ctx, "cart:{1}:a", "cart:{1}:b").Err(); err != nil {
		t.Errorf("hashtagged MGET: %v", err)
	}
	_, err := a.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Incr(ctx, "compat:foo")
		p.Incr(ctx, "compat:bar")
		return nil
	})
	crossSlot(t, err, `MULTI/EXEC: keys "compat:foo"`)

	// The adapter's Script.Run: EVALSHA, NOSCRIPT from the wrapper, then
	// EVAL with the source, checked.
	loadEverywhere(t, ctx, raw, rateLimitBad)
	scriptFault(t, rueidiscompat.NewScript(rateLimitBad).Run(ctx, a, []string{"rl:compat"}, "10").Err(), "EVAL:", "not declared in KEYS")
	if n, err := rueidiscompat.NewScript(rateLimitFixed).Run(ctx, a, []string{"rate.limit:{rl:compat}"}, "10").Int64(); err != nil || n < 1 {
		t.Fatalf("fixed script: %d, %v", n, err)
	}
}
