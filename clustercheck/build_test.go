package clustercheck

import (
	"context"
	"errors"
	"testing"

	"github.com/redis/go-redis/v9"
)

// lastHook answers every command itself, without a server.
type lastHook struct{}

func (lastHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (lastHook) ProcessHook(redis.ProcessHook) redis.ProcessHook {
	return func(context.Context, redis.Cmder) error { return nil }
}
func (lastHook) ProcessPipelineHook(redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(context.Context, []redis.Cmder) error { return nil }
}

// TestHookChainBuild checks that the hook ties a Watch's commands together,
// in its plain mode and in its careful one (after a call outside a build),
// and that every build ends: buildSem free, no build open.
func TestHookChainBuild(t *testing.T) {
	for _, careful := range []bool{false, true} {
		h := NewHook(LocalSpecs())
		c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DisableIdentity: true})
		defer c.Close()
		c.AddHook(h)
		c.AddHook(lastHook{})
		if careful {
			// A call outside a build, as a cluster pipeline makes.
			h.ProcessPipelineHook(func(context.Context, []redis.Cmder) error { return nil })
		}
		h.bmu.Lock()
		alone := h.alone
		h.bmu.Unlock()
		if alone != careful {
			t.Fatalf("careful %v: alone is %v", careful, alone)
		}
		ctx := context.Background()
		for range 3 {
			err := c.Watch(ctx, func(tx *redis.Tx) error {
				_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
					p.Set(ctx, "elsewhere", "1", 0)
					return nil
				})
				return err
			}, "{w}k")
			var e *CrossSlotError
			if !errors.As(err, &e) || e.Kind != KindTransaction {
				t.Fatalf("careful %v: cross-slot write under Watch gave %v", careful, err)
			}
			h.bmu.Lock()
			open := h.build != nil
			h.bmu.Unlock()
			if open || len(h.buildSem) != 0 {
				t.Fatalf("careful %v: a build did not end", careful)
			}
		}
	}
}
