// Package chankeys holds keys carried in struct values over a channel to
// the goroutine that sends them, reduced from a real project. The values
// sent on a channel of the package are what its receivers get; a method
// that sends its key parameter stands for the keys its callers in the
// package pass. Commands queued at each turn of a loop on one MULTI/EXEC
// pipeline are one transaction, whose keys must share a slot.
package chankeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: charlerive/redis (batch_operate/batch_operate.go): Set and Expire
// send an *Operate on batchChan; Start receives them in a select and
// queues each on one pipeline, executed on a tick and made again. The
// project's pipeline is a plain one, which need not keep to one slot; the
// batcher below is the same with the MULTI/EXEC pipeline of TxPipeline.
type OpType uint8

const (
	Set OpType = 1
	Exp OpType = 7
)

type Operate struct {
	OpType
	Key     string
	ExpTime time.Duration
	Args    interface{}
}

type BatchOperate struct {
	ctx       context.Context
	ticker    *time.Ticker
	redisCli  *redis.ClusterClient
	batchChan chan *Operate
}

func (bo *BatchOperate) Start() {
	pipe := bo.redisCli.Pipeline()
	for {
		select {
		case <-bo.ctx.Done():
			return
		case <-bo.ticker.C:
			_, _ = pipe.Exec(bo.ctx)
			pipe = bo.redisCli.Pipeline()
		case op := <-bo.batchChan:
			switch op.OpType {
			case Set:
				pipe.Set(bo.ctx, op.Key, op.Args, op.ExpTime)
			case Exp:
				pipe.Expire(bo.ctx, op.Key, op.ExpTime)
			}
		}
	}
}

func (bo *BatchOperate) Set(key string, value interface{}, expiration time.Duration) {
	op := &Operate{OpType: Set, Key: key, ExpTime: expiration, Args: value}
	bo.batchChan <- op
}

func (bo *BatchOperate) Expire(key string, expiration time.Duration) {
	bo.batchChan <- &Operate{OpType: Exp, Key: key, ExpTime: expiration}
}

func SaveProfile(bo *BatchOperate, uid string, profile []byte) {
	bo.Set("profile:"+uid, profile, time.Hour)
}

// The batcher with MULTI/EXEC: every key queued between two ticks is in
// one transaction.
type TxOperate struct {
	Key  string
	Args interface{}
}

type TxBatch struct {
	ctx       context.Context
	ticker    *time.Ticker
	redisCli  *redis.ClusterClient
	batchChan chan TxOperate
}

func (b *TxBatch) Start() {
	pipe := b.redisCli.TxPipeline()
	for {
		select {
		case <-b.ctx.Done():
			return
		case <-b.ticker.C:
			_, _ = pipe.Exec(b.ctx)
			pipe = b.redisCli.TxPipeline() // want `MULTI/EXEC transaction keys built as "score:<uid>" from different values may hash to different slots`
		case op := <-b.batchChan:
			pipe.Set(b.ctx, op.Key, op.Args, 0)
		}
	}
}

func (b *TxBatch) Set(key string, value interface{}) {
	b.batchChan <- TxOperate{Key: key, Args: value}
}

func SaveScore(b *TxBatch, uid string, score int) {
	b.Set("score:"+uid, score)
}

// Fixed: the keys of one batch share the hashtag of their board.
type TxBatchFixed struct {
	ctx       context.Context
	ticker    *time.Ticker
	redisCli  *redis.ClusterClient
	batchChan chan TxOperateFixed
}

type TxOperateFixed struct {
	Key  string
	Args interface{}
}

func (b *TxBatchFixed) Start() {
	pipe := b.redisCli.TxPipeline()
	for {
		select {
		case <-b.ctx.Done():
			return
		case <-b.ticker.C:
			_, _ = pipe.Exec(b.ctx)
			pipe = b.redisCli.TxPipeline()
		case op := <-b.batchChan:
			pipe.Set(b.ctx, op.Key, op.Args, 0)
		}
	}
}

func (b *TxBatchFixed) Set(key string, value interface{}) {
	b.batchChan <- TxOperateFixed{Key: key, Args: value}
}

func SaveScoreFixed(b *TxBatchFixed, uid string, score int) {
	b.Set("{scores}:"+uid, score)
}

// A worker that receives keys and sends each in its own transaction: one
// key at a time, nothing to report.
type job struct{ key string }

func worker(ctx context.Context, rdb *redis.ClusterClient, jobs <-chan job) {
	for j := range jobs {
		rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, j.key)
			p.Expire(ctx, j.key, time.Minute)
			return nil
		})
	}
}

func enqueue(jobs chan<- job, ids []string) {
	for _, id := range ids {
		jobs <- job{key: "hits:" + id}
	}
}
