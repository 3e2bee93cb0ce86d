package txhelper

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/txhelper/feed"
)

// Origin: 21strive/redifu (timeline.go): a Timeline's AddItem hands its
// pipeline to the item store of a field and to its own IngestItem, which
// hands it on to its own page helpers and to the SortedSet of another
// field. Here the pipeline is a TxPipelined's, so every command queued
// two and three helpers deep belongs to the one transaction.
type timeline struct {
	rdb    *redis.ClusterClient
	base   *itemStore
	sorted *feed.Sorted
}

type itemStore struct{}

func (b *itemStore) set(ctx context.Context, pipe redis.Pipeliner, id string) {
	pipe.Set(ctx, "item:"+id, "1", 0)
}

func (b *itemStore) setTagged(ctx context.Context, pipe redis.Pipeliner, param, id string) {
	pipe.Set(ctx, "timeline:{"+param+"}:item:"+id, "1", 0)
}

func (t *timeline) delFirstPage(ctx context.Context, pipe redis.Pipeliner, param string) {
	pipe.Del(ctx, "timeline:"+param+":firstpage")
}

func (t *timeline) delFirstPageTagged(ctx context.Context, pipe redis.Pipeliner, param string) {
	pipe.Del(ctx, "timeline:{"+param+"}:firstpage")
}

func (t *timeline) ingest(ctx context.Context, pipe redis.Pipeliner, id, param string) error {
	t.delFirstPage(ctx, pipe, param)
	t.sorted.SetItem(ctx, pipe, 1, id, param)
	return nil
}

func (t *timeline) ingestTagged(ctx context.Context, pipe redis.Pipeliner, id, param string) error {
	t.delFirstPageTagged(ctx, pipe, param)
	t.sorted.SetItemTagged(ctx, pipe, 1, id, param)
	return nil
}

func (t *timeline) addItem(ctx context.Context, id, param string) error {
	_, err := t.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "item:<id>" .* and "timeline:<param>:firstpage" .* hash to different slots`
		t.base.set(ctx, pipe, id)
		return t.ingest(ctx, pipe, id, param)
	})
	return err
}

func (t *timeline) addItemFixed(ctx context.Context, id, param string) error {
	_, err := t.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		t.base.setTagged(ctx, pipe, param, id)
		return t.ingestTagged(ctx, pipe, id, param)
	})
	return err
}

// A helper three deep whose own keys differ: the sorted set of the feed
// package and the first page, handed a TxPipeline the caller made.
func (t *timeline) refresh(ctx context.Context, param string) error {
	pipe := t.rdb.TxPipeline() // want `MULTI/EXEC transaction keys "timeline:<param>:firstpage" .* and "timeline:<param>" .* hash to different slots`
	t.ingest(ctx, pipe, "seed", param)
	_, err := pipe.Exec(ctx)
	return err
}

func (t *timeline) refreshFixed(ctx context.Context, param string) error {
	pipe := t.rdb.TxPipeline()
	t.ingestTagged(ctx, pipe, "seed", param)
	_, err := pipe.Exec(ctx)
	return err
}

// The *redis.Tx of a Watch handed two helpers deep, the second a method of
// a field's type that queues in its own TxPipelined on it.
type stockKeeper struct{}

func (k *stockKeeper) hold(ctx context.Context, tx *redis.Tx, sku, order string) error {
	_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Decr(ctx, "stock:"+sku)
		p.SAdd(ctx, "holds:"+order, sku)
		return nil
	})
	return err
}

func (k *stockKeeper) holdTagged(ctx context.Context, tx *redis.Tx, sku string) error {
	_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Decr(ctx, "stock:{"+sku+"}")
		p.SAdd(ctx, "stock:{"+sku+"}:holds", "1")
		return nil
	})
	return err
}

type shop struct {
	rdb   *redis.ClusterClient
	stock *stockKeeper
}

func (s *shop) reserve(ctx context.Context, tx *redis.Tx, sku, order string) error {
	return s.stock.hold(ctx, tx, sku, order)
}

func (s *shop) reserveTagged(ctx context.Context, tx *redis.Tx, sku string) error {
	return s.stock.holdTagged(ctx, tx, sku)
}

func (s *shop) buy(ctx context.Context, sku, order string) error {
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "stock:<sku>" .* and "holds:<order>" .* hash to different slots`
		return s.reserve(ctx, tx, sku, order)
	}, "stock:"+sku)
}

func (s *shop) buyFixed(ctx context.Context, sku string) error {
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		return s.reserveTagged(ctx, tx, sku)
	}, "stock:{"+sku+"}")
}

// Origin: sysulq/rsmq-go (retry and send2dlq): the message is queued by a
// helper typed redis.Cmdable, handed the client by Add and a TxPipeline
// by retry, whose XACK and XDEL must share its slot. rsmq-go tags the
// topic; the bad form drops the tag from the delayed set.
type queue struct {
	rdb   redis.UniversalClient
	topic string
}

func (q *queue) enqueue(ctx context.Context, pipe redis.Cmdable, id string) error {
	return pipe.ZAdd(ctx, "rsmq:"+q.topic+":delayed", redis.Z{Member: id}).Err()
}

func (q *queue) enqueueTagged(ctx context.Context, pipe redis.Cmdable, id string) error {
	return pipe.ZAdd(ctx, "rsmq:{"+q.topic+"}:delayed", redis.Z{Member: id}).Err()
}

func (q *queue) add(ctx context.Context, id string) error {
	return q.enqueue(ctx, q.rdb, id)
}

func (q *queue) retry(ctx context.Context, id string) error {
	pipe := q.rdb.TxPipeline() // want `MULTI/EXEC transaction keys "rsmq:\{<q.topic>\}" .* and "rsmq:<q.topic>:delayed" .* hash to different slots`
	pipe.XAck(ctx, "rsmq:{"+q.topic+"}", "group", id)
	pipe.XDel(ctx, "rsmq:{"+q.topic+"}", id)
	if err := q.enqueue(ctx, pipe, id); err != nil {
		return err
	}
	_, err := pipe.Exec(ctx)
	return err
}

func (q *queue) retryFixed(ctx context.Context, id string) error {
	pipe := q.rdb.TxPipeline()
	pipe.XAck(ctx, "rsmq:{"+q.topic+"}", "group", id)
	pipe.XDel(ctx, "rsmq:{"+q.topic+"}", id)
	if err := q.enqueueTagged(ctx, pipe, id); err != nil {
		return err
	}
	_, err := pipe.Exec(ctx)
	return err
}
