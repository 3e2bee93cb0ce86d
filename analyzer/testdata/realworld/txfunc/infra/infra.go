// Package infra wraps go-redis's transactions in methods of its own that
// run a function the caller gives them, as projects' Redis layers do.
package infra

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type RedisClient struct{ client *redis.Client }

// Tx after sao-lang/blog-data (internal/infra/redis/transaction.go): the
// caller's function is handed to TxPipelined as it is.
func (r *RedisClient) Tx(ctx context.Context, fn func(pipe redis.Pipeliner) error) error { // want Tx:`pipeFunc\(tx-pipelined \$1\)`
	_, err := r.client.TxPipelined(ctx, fn)
	return err
}

// Transaction after farseer-go/redis (redisPipeline.go): the caller's
// function is run on a TxPipeline the method makes, then Exec.
func (r *RedisClient) Transaction(executeFn func(tx redis.Pipeliner)) error { // want Transaction:`pipeFunc\(tx-pipelined \$0\)`
	txPipeline := r.client.TxPipeline()
	executeFn(txPipeline)
	_, err := txPipeline.Exec(context.Background())
	return err
}

// Pipeline is the same with a plain pipeline: no transaction.
func (r *RedisClient) Pipeline(executeFn func(tx redis.Pipeliner)) error { // want Pipeline:`pipeFunc\(pipelined \$0\)`
	p := r.client.Pipeline()
	executeFn(p)
	_, err := p.Exec(context.Background())
	return err
}

// WatchRetry after the watchWithRetry of a go-redis v9 store for kvrocks
// (package kvrocks; the code corpus does not name its repository): the
// caller's keys and function go to Watch, retried while the keys change.
func (r *RedisClient) WatchRetry(ctx context.Context, keys []string, fn func(tx *redis.Tx) error) error { // want WatchRetry:`pipeFunc\(watch \$2 1\[\]\)`
	for range 10 {
		err := r.client.Watch(ctx, fn, keys...) // want `WATCH transaction of the callers' keys "<[^"]*>": callers in other modules are not checked`
		if err == redis.TxFailedErr {
			continue
		}
		return err
	}
	return redis.TxFailedErr
}
