// Package onekey holds calls that send a key list whole only where the
// code has tested that it holds one key, reduced from real projects. One
// key is in one slot: such a call is neither checked nor carried to the
// callers, whose keys may come from a loop.
package onekey

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const delAll = `for _, k in ipairs(KEYS) do redis.call("DEL", k) end`

// Origin: openimsdk/open-im-server v3.8.3
// (pkg/common/storage/cache/redis, DeleteCacheBySlot): a slice of one key
// is sent as it is, the others are grouped by slot first.
func deleteBySlot(ctx context.Context, rdb redis.UniversalClient, keys []string) error {
	switch len(keys) {
	case 0:
		return nil
	case 1:
		return rdb.Eval(ctx, delAll, keys).Err()
	default:
		for _, k := range keys {
			if err := rdb.Eval(ctx, delAll, []string{k}).Err(); err != nil {
				return err
			}
		}
		return nil
	}
}

func deleteOne(ctx context.Context, rdb redis.UniversalClient, keys []string) error {
	if len(keys) == 1 {
		return rdb.Eval(ctx, delAll, keys).Err()
	}
	return nil
}

func deleteFew(ctx context.Context, rdb redis.UniversalClient, keys ...string) error {
	if len(keys) > 1 {
		return nil
	}
	return rdb.Eval(ctx, delAll, keys).Err()
}

func SetMinSeqs(ctx context.Context, rdb redis.UniversalClient, seqs map[string]int64) error {
	keys := make([]string, 0, len(seqs))
	for id := range seqs {
		keys = append(keys, "MALLOC_MIN_SEQ:"+id)
	}
	if err := deleteOne(ctx, rdb, keys); err != nil {
		return err
	}
	if err := deleteFew(ctx, rdb, keys...); err != nil {
		return err
	}
	return deleteBySlot(ctx, rdb, keys)
}

// deleteAll has no length test: the loop's keys reach one EVAL.
func deleteAll(ctx context.Context, rdb redis.UniversalClient, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	return rdb.Eval(ctx, delAll, keys).Err()
}

func SetMinSeqsAll(ctx context.Context, rdb redis.UniversalClient, seqs map[string]int64) error {
	keys := make([]string, 0, len(seqs))
	for id := range seqs {
		keys = append(keys, "MALLOC_MIN_SEQ:"+id)
	}
	return deleteAll(ctx, rdb, keys) // want `EVAL \(through deleteAll at onekey.go:\d+\) keys built as "MALLOC_MIN_SEQ:<id>" from different values may hash to different slots`
}
