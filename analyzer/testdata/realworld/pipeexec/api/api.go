// Package api hands the pipeline that another package's NewTxPipeline
// makes to that package's helpers, after flashbots/mev-boost-relay
// (services/api/service.go: tx := api.redis.NewTxPipeline(), then
// SaveBidAndUpdateTopBid(ctx, tx, ...)).
package api

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/pipeexec/store"
)

type API struct{ redis *store.Cache }

func (a *API) update(ctx context.Context) error {
	tx := a.redis.NewTxPipeline()
	return a.redis.SaveFloor(ctx, tx, 7, "v") // want `MULTI/EXEC transaction sent by Exec \(through SaveFloor at store.go:50\) keys "relay:bid-floor:<slot>" \(no hashtag\) and "relay:bid-floor-value:<slot>" \(no hashtag\) may hash to different slots`
}

func (a *API) updateFixed(ctx context.Context) error {
	tx := a.redis.NewTxPipeline()
	return a.redis.SaveFloorFixed(ctx, tx, 7, "v")
}

// A plain pipeline is no transaction.
func (a *API) updatePlain(ctx context.Context) error {
	return a.redis.SaveFloor(ctx, a.redis.NewPipeline(), 7, "v")
}

// The pipeline travels in a field of an options struct, as
// mev-boost-relay's bidFloorOpts and redisUpdateBidOpts carry it from the
// block submission handler to its steps.
type floorOpts struct {
	tx   redis.Pipeliner
	slot uint64
}

func (a *API) saveFloor(opts floorOpts) error {
	return a.redis.SaveFloor(context.Background(), opts.tx, opts.slot, "v")
}

func (a *API) saveFloorFixed(opts floorOpts) error {
	return a.redis.SaveFloorFixed(context.Background(), opts.tx, opts.slot, "v")
}

func (a *API) submit(slot uint64) error {
	tx := a.redis.NewTxPipeline()
	opts := floorOpts{tx: tx, slot: slot}
	return a.saveFloor(opts) // want `MULTI/EXEC transaction sent by Exec \(through SaveFloor at store.go:50\) \(through saveFloor at api.go:\d+\) keys "relay:bid-floor:<slot>" \(no hashtag\) and "relay:bid-floor-value:<slot>" \(no hashtag\) may hash to different slots`
}

func (a *API) submitFixed(slot uint64) error {
	tx := a.redis.NewTxPipeline()
	opts := floorOpts{tx: tx, slot: slot}
	return a.saveFloorFixed(opts)
}

// The pipeline made where it is passed.
func (a *API) inline(ctx context.Context) error {
	return a.redis.SaveFloor(ctx, a.redis.NewTxPipeline(), 7, "v") // want `MULTI/EXEC transaction sent by Exec \(through SaveFloor at store.go:50\) keys`
}
