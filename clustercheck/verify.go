package clustercheck

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/slot"
)

// verifyBatch is the number of CLUSTER KEYSLOT commands per pipeline, and
// verifyWorkers the number of pipelines in flight at once.
const (
	verifyBatch   = 256
	verifyWorkers = 4
)

// A KeySlot is one key's slot, computed here and by the server.
type KeySlot struct {
	Key string
	// Slot is the slot slotlint computes (slot.Of).
	Slot int
	// ServerSlot is the server's answer to CLUSTER KEYSLOT.
	ServerSlot int
	// Node is the address of the master that serves ServerSlot, "" when
	// no master serves it.
	Node string
}

// OK reports whether slotlint and the server agree on the key's slot.
func (k KeySlot) OK() bool { return k.Slot == k.ServerSlot }

// A VerifyResult is the outcome of Verify.
type VerifyResult struct {
	// Keys holds one entry per key, in the order given.
	Keys []KeySlot
	// Mismatches counts the keys whose Slot and ServerSlot differ.
	Mismatches int
	// Topology is the slot map the Node fields come from.
	Topology *Topology
}

// Err returns an error naming the keys on whose slot slotlint and the server
// disagree (the first few of them), or nil.
func (r *VerifyResult) Err() error {
	if r.Mismatches == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d keys: slotlint and CLUSTER KEYSLOT disagree:", r.Mismatches, len(r.Keys))
	shown := 0
	for _, k := range r.Keys {
		if k.OK() {
			continue
		}
		if shown == 5 {
			b.WriteString(" ...")
			break
		}
		fmt.Fprintf(&b, " %s (slotlint %d, server %d)", strconv.Quote(k.Key), k.Slot, k.ServerSlot)
		shown++
	}
	return fmt.Errorf("%s", b.String())
}

// Verify compares slot.Of with the server's CLUSTER KEYSLOT for each key, in
// pipelined batches, and says which master serves each key's slot (see
// FetchTopology). The client may be a *redis.ClusterClient, or a
// *redis.Client connected to any node of the cluster. Against a server
// without cluster support, Verify returns an error that wraps ErrNotCluster.
// A disagreement is not an error: it is counted in the result's Mismatches,
// and the result's Err describes it.
func Verify(ctx context.Context, c redis.UniversalClient, keys []string) (*VerifyResult, error) {
	topo, err := FetchTopology(ctx, c)
	if err != nil {
		return nil, err
	}
	res := &VerifyResult{Keys: make([]KeySlot, len(keys)), Topology: topo}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan int)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
		mu.Unlock()
	}
	workers := min(verifyWorkers, (len(keys)+verifyBatch-1)/verifyBatch)
	for range workers {
		wg.Go(func() {
			cmds := make([]*redis.IntCmd, 0, verifyBatch)
			for start := range batches {
				end := min(start+verifyBatch, len(keys))
				cmds = cmds[:0]
				pipe := c.Pipeline()
				for _, k := range keys[start:end] {
					cmds = append(cmds, pipe.ClusterKeySlot(ctx, k))
				}
				if _, err := pipe.Exec(ctx); err != nil {
					fail(fmt.Errorf("CLUSTER KEYSLOT: %w", classify(err)))
					continue
				}
				for i, cmd := range cmds {
					k := keys[start+i]
					ks := KeySlot{Key: k, Slot: slot.Of(k), ServerSlot: int(cmd.Val())}
					if n, ok := topo.Master(ks.ServerSlot); ok {
						ks.Node = n.Addr
					}
					res.Keys[start+i] = ks
				}
			}
		})
	}
feed:
	for start := 0; start < len(keys); start += verifyBatch {
		select {
		case batches <- start:
		case <-ctx.Done():
			break feed
		}
	}
	close(batches)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, k := range res.Keys {
		if !k.OK() {
			res.Mismatches++
		}
	}
	return res, nil
}
