// Package store queues commands on a pipeline its caller makes and sends
// them with Exec between them, after flashbots/mev-boost-relay
// (datastore/redis.go: SaveBidAndUpdateTopBid and _updateTopBid take a
// redis.Pipeliner, and NewTxPipeline makes the MULTI/EXEC one that
// services/api hands them). Each Exec sends, in one MULTI/EXEC, what was
// queued since the previous one.
package store

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ client *redis.Client }

func (r *Cache) NewPipeline() redis.Pipeliner { return r.client.Pipeline() } // want NewPipeline:`pipeFunc\(pipeline\)`

func (r *Cache) NewTxPipeline() redis.Pipeliner { return r.client.TxPipeline() } // want NewTxPipeline:`pipeFunc\(tx-pipeline\)`

func (r *Cache) keyFloorBid(slot uint64) string {
	return "relay:bid-floor:" + strconv.FormatUint(slot, 10)
}

func (r *Cache) keyFloorBidValue(slot uint64) string {
	return "relay:bid-floor-value:" + strconv.FormatUint(slot, 10)
}

// The fixed form: both keys in the slot's hashtag.
func (r *Cache) keyFloorBidFixed(slot uint64) string {
	return "relay:{" + strconv.FormatUint(slot, 10) + "}:bid-floor"
}

func (r *Cache) keyFloorBidValueFixed(slot uint64) string {
	return "relay:{" + strconv.FormatUint(slot, 10) + "}:bid-floor-value"
}

// SaveFloor reads the floor bid, then sets its expiry and the floor value:
// two transactions when the caller hands it a MULTI/EXEC pipeline, the
// second over two keys.
func (r *Cache) SaveFloor(ctx context.Context, pipeliner redis.Pipeliner, slot uint64, value string) error { // want SaveFloor:`keyWrapper\(GET "relay:bid-floor:<slot>" on \$1; Exec on \$1 exec; EXPIRE "relay:bid-floor:<slot>" on \$1; SET "relay:bid-floor-value:<slot>" on \$1; Exec on \$1 exec\)`
	keyFloorBid := r.keyFloorBid(slot)
	pipeliner.Get(ctx, keyFloorBid)
	if _, err := pipeliner.Exec(ctx); err != nil {
		return err
	}
	pipeliner.Expire(ctx, keyFloorBid, 0)
	pipeliner.Set(ctx, r.keyFloorBidValue(slot), value, 0)
	_, err := pipeliner.Exec(ctx)
	return err
}

func (r *Cache) SaveFloorFixed(ctx context.Context, pipeliner redis.Pipeliner, slot uint64, value string) error { // want SaveFloorFixed:`keyWrapper\(GET "relay:\{<slot>\}:bid-floor" on \$1; Exec on \$1 exec; EXPIRE "relay:\{<slot>\}:bid-floor" on \$1; SET "relay:\{<slot>\}:bid-floor-value" on \$1; Exec on \$1 exec\)`
	keyFloorBid := r.keyFloorBidFixed(slot)
	pipeliner.Get(ctx, keyFloorBid)
	if _, err := pipeliner.Exec(ctx); err != nil {
		return err
	}
	pipeliner.Expire(ctx, keyFloorBid, 0)
	pipeliner.Set(ctx, r.keyFloorBidValueFixed(slot), value, 0)
	_, err := pipeliner.Exec(ctx)
	return err
}

// The package's own tests hand it a plain pipeline: no transaction.
func (r *Cache) plain(ctx context.Context) error {
	return r.SaveFloor(ctx, r.NewPipeline(), 1, "v")
}

func (r *Cache) inTx(ctx context.Context) error {
	p := r.client.TxPipeline()
	return r.SaveFloor(ctx, p, 1, "v") // want `MULTI/EXEC transaction sent by Exec \(through SaveFloor at store.go:50\) keys "relay:bid-floor:<slot>" \(no hashtag\) and "relay:bid-floor-value:<slot>" \(no hashtag\) may hash to different slots`
}

// One pipeline used again after each Exec: each Exec sends one key.
func (r *Cache) reused(ctx context.Context, slots []uint64) error {
	p := r.client.TxPipeline()
	p.Set(ctx, r.keyFloorBid(1), "a", 0)
	if _, err := p.Exec(ctx); err != nil {
		return err
	}
	p.Set(ctx, r.keyFloorBidValue(1), "b", 0)
	if _, err := p.Exec(ctx); err != nil {
		return err
	}
	for _, slot := range slots {
		p.Incr(ctx, r.keyFloorBid(slot))
		if _, err := p.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// The bad form of reused: the second Exec sends both keys.
func (r *Cache) reusedBad(ctx context.Context) error {
	p := r.client.TxPipeline()
	p.Get(ctx, r.keyFloorBid(1))
	if _, err := p.Exec(ctx); err != nil {
		return err
	}
	p.Set(ctx, r.keyFloorBid(2), "a", 0)
	p.Set(ctx, r.keyFloorBidValue(2), "b", 0)
	_, err := p.Exec(ctx) // want `MULTI/EXEC transaction sent by Exec keys "relay:bid-floor:<slot>" \(no hashtag\) and "relay:bid-floor-value:<slot>" \(no hashtag\) may hash to different slots`
	return err
}
