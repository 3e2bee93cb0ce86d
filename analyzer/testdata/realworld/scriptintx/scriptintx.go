// Package scriptintx runs a script on a pipeline: its keys are the keys of
// the commands that pipeline sends, so in a MULTI/EXEC they must share the
// transaction's slot. Reduced from numaflow's Redis ISB writer
// (numaproj/numaflow, RedisWriter.pipelinedWrite: script.Run(ctx, pipe,
// keys, ...) for each message), whose pipeline is a plain one; the bad
// form makes it a transaction beside a write of its own.
package scriptintx

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var writeScript = redis.NewScript(`return redis.call("XADD", KEYS[1], "*", "id", ARGV[1])`)

type writer struct {
	client redis.UniversalClient
	stream string
}

// A TxPipeline: the script's stream and the dedup hash are one MULTI/EXEC.
func (w *writer) writeTx(ctx context.Context, ids []string) error {
	pipe := w.client.TxPipeline() // want `MULTI/EXEC transaction keys "dedup:<w.stream>" \(hashtag unknown\) and "stream:<w.stream>" \(hashtag unknown\) may hash to different slots`
	for _, id := range ids {
		pipe.HSet(ctx, "dedup:"+w.stream, id, 1)
		writeScript.Run(ctx, pipe, []string{"stream:" + w.stream}, id)
	}
	_, err := pipe.Exec(ctx)
	return err
}

// The same in TxPipelined, with the keys under one hashtag: one slot.
func (w *writer) writeTxFixed(ctx context.Context, ids []string) error {
	_, err := w.client.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, id := range ids {
			pipe.HSet(ctx, "dedup:{"+w.stream+"}", id, 1)
			writeScript.Run(ctx, pipe, []string{"stream:{" + w.stream + "}"}, id)
		}
		return nil
	})
	return err
}

// A plain pipeline, as numaflow has it: a cluster client sends each
// command to its key's node.
func (w *writer) writePlain(ctx context.Context, ids []string) error {
	pipe := w.client.Pipeline()
	for _, id := range ids {
		pipe.HSet(ctx, "dedup:"+w.stream, id, 1)
		writeScript.Run(ctx, pipe, []string{"stream:" + w.stream}, id)
	}
	_, err := pipe.Exec(ctx)
	return err
}

// A helper handed the transaction's pipeline runs the script on it: its
// keys are the transaction's, as its callers pass it.
func (w *writer) append(ctx context.Context, pipe redis.Pipeliner, id string) {
	writeScript.Run(ctx, pipe, []string{"stream:" + w.stream}, id)
}

func (w *writer) writeThroughHelper(ctx context.Context, ids []string) error {
	_, err := w.client.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "dedup:<w.stream>" \(hashtag unknown\) and "stream:<w.stream>" \(hashtag unknown\) may hash to different slots`
		for _, id := range ids {
			pipe.HSet(ctx, "dedup:"+w.stream, id, 1)
			w.append(ctx, pipe, id)
		}
		return nil
	})
	return err
}

func (w *writer) appendFixed(ctx context.Context, pipe redis.Pipeliner, id string) {
	writeScript.Run(ctx, pipe, []string{"stream:{" + w.stream + "}"}, id)
}

func (w *writer) writeThroughHelperFixed(ctx context.Context, ids []string) error {
	_, err := w.client.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, id := range ids {
			pipe.HSet(ctx, "dedup:{"+w.stream+"}", id, 1)
			w.appendFixed(ctx, pipe, id)
		}
		return nil
	})
	return err
}
