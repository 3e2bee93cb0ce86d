// Package pipeadapter is reduced from hookdeck/outpost (internal/rsmq):
// a port of rsmq keeps its context-free calls through an adapter over
// go-redis v9. Its client interface's TxPipeline returns a pipeline of the
// package's own, a struct that holds the client's TxPipeline and sends on
// it with a stored context. The commands queued through the wrapper are
// one MULTI/EXEC, which the wrapper's Exec sends; the queue's hash and its
// sorted set are two keys with no common hashtag.
package pipeadapter

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Pipeliner interface {
	HMGet(key string, fields ...string) *redis.SliceCmd // want HMGet:`keyWrapper\(HMGET "<key>" on \$recv.pipe in pipelineAdapter\)`
	ZCard(key string) *redis.IntCmd                     // want ZCard:`keyWrapper\(ZCARD "<key>" on \$recv.pipe in pipelineAdapter\)`
	Del(keys ...string) *redis.IntCmd                   // want Del:`keyWrapper\(DEL "<keys...>" in pipelineAdapter; DEL "<keys...>" on \$recv.pipe in pipelineAdapter\)`
	Exec() ([]redis.Cmder, error)                       // want Exec:`keyWrapper\(Exec on \$recv.pipe exec in pipelineAdapter\)`
}

type RedisClient interface {
	TxPipeline() Pipeliner
}

type RedisAdapter struct {
	client redis.Cmdable
	ctx    context.Context
}

func NewRedisAdapter(client redis.Cmdable) *RedisAdapter {
	return &RedisAdapter{client: client, ctx: context.Background()}
}

func (r *RedisAdapter) TxPipeline() Pipeliner { // want TxPipeline:`pipeFunc\(tx-pipeline\)`
	return newPipelineAdapter(r.client.TxPipeline(), r.ctx)
}

type pipelineAdapter struct {
	pipe redis.Pipeliner
	ctx  context.Context
}

func newPipelineAdapter(pipe redis.Pipeliner, ctx context.Context) *pipelineAdapter {
	return &pipelineAdapter{pipe: pipe, ctx: ctx}
}

func (p *pipelineAdapter) HMGet(key string, fields ...string) *redis.SliceCmd { // want HMGet:`keyWrapper\(HMGET "<key>" on \$recv.pipe\)`
	return p.pipe.HMGet(p.ctx, key, fields...)
}

func (p *pipelineAdapter) ZCard(key string) *redis.IntCmd { return p.pipe.ZCard(p.ctx, key) } // want ZCard:`keyWrapper\(ZCARD "<key>" on \$recv.pipe\)`

// Del is exported: a caller in another module may pass keys of two slots.
func (p *pipelineAdapter) Del(keys ...string) *redis.IntCmd { // want Del:`keyWrapper\(DEL "<keys...>"; DEL "<keys...>" on \$recv.pipe\)`
	return p.pipe.Del(p.ctx, keys...) // want `DEL of the callers' keys "<keys...>": callers in other modules are not checked`
}

func (p *pipelineAdapter) Exec() ([]redis.Cmder, error) { return p.pipe.Exec(p.ctx) } // want Exec:`keyWrapper\(Exec on \$recv.pipe exec\)`

type queue struct {
	client RedisClient
}

func (q *queue) attributes(qname string) error {
	key := "rsmq:" + qname
	tx := q.client.TxPipeline() // want `MULTI/EXEC transaction keys "rsmq:<qname>:Q" \(hashtag unknown\) and "rsmq:<qname>" \(hashtag unknown\) may hash to different slots`
	tx.HMGet(key+":Q", "vt", "delay")
	tx.ZCard(key)
	_, err := tx.Exec()
	return err
}

func (q *queue) deleteQueue(qname string) error {
	key := "rsmq:" + qname
	tx := q.client.TxPipeline() // want `MULTI/EXEC transaction keys "rsmq:<qname>:Q" \(hashtag unknown\) and "rsmq:<qname>" \(hashtag unknown\) may hash to different slots`
	tx.Del(key + ":Q")
	tx.Del(key)
	_, err := tx.Exec()
	return err
}

// The fix: the queue's keys under its hashtag.
func (q *queue) attributesTagged(qname string) error {
	key := "rsmq:{" + qname + "}"
	tx := q.client.TxPipeline()
	tx.HMGet(key+":Q", "vt", "delay")
	tx.ZCard(key)
	_, err := tx.Exec()
	return err
}
