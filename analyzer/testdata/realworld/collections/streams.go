package collections

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: cschleiden/go-workflows (backend/redis/queue.go, taskQueue.Dequeue):
// a worker reads the streams of all its queues at once. The stream keys
// and as many ">" IDs are each appended in one range loop over the
// queues, and XREADGROUP gets append(streamKeys, streamIDs...). The same
// loop is oxhq/canio's Redis job backend (runtime/stagehand/internal/jobs,
// redisBackend.Dequeue), with b.queueKeyFor(queueName) for each stream.
type taskQueue[T any] struct {
	keyPrefix, tasktype, group, worker string
}

type keyInfo struct {
	stream, set string
}

func (q *taskQueue[T]) keys(queue string) keyInfo {
	return keyInfo{
		stream: fmt.Sprintf("%stask-stream:%s:%s", q.keyPrefix, queue, q.tasktype),
		set:    fmt.Sprintf("%stask-set:%s:%s", q.keyPrefix, queue, q.tasktype),
	}
}

func (q *taskQueue[T]) streamKey(queue string) string {
	return fmt.Sprintf("%stask-stream:%s:%s", q.keyPrefix, queue, q.tasktype)
}

func (q *taskQueue[T]) dequeue(ctx context.Context, rdb redis.UniversalClient, queues []string, timeout time.Duration) ([]redis.XStream, error) {
	streamKeys := []string{}
	streamIDs := []string{}
	for _, queue := range queues {
		keys := q.keys(queue)
		streamKeys = append(streamKeys, keys.stream)
		streamIDs = append(streamIDs, ">")
	}
	return rdb.XReadGroup(ctx, &redis.XReadGroupArgs{ // want `XREADGROUP keys built as "<q.keyPrefix>task-stream:<queue>:<q.tasktype>" from different values may hash to different slots`
		Streams:  append(streamKeys, streamIDs...),
		Group:    q.group,
		Consumer: q.worker,
		Count:    1,
		Block:    timeout,
	}).Result()
}

// Fixed: the streams of one task type share the hashtag
// "{<prefix>task-stream:<type>}", so one XREADGROUP reads them all in one
// slot.
func (q *taskQueue[T]) streamKeyFixed(queue string) string {
	return fmt.Sprintf("{%stask-stream:%s}:%s", q.keyPrefix, q.tasktype, queue)
}

func (q *taskQueue[T]) dequeueFixed(ctx context.Context, rdb redis.UniversalClient, queues []string, timeout time.Duration) ([]redis.XStream, error) {
	streamKeys := []string{}
	streamIDs := []string{}
	for _, queue := range queues {
		streamKeys = append(streamKeys, q.streamKeyFixed(queue))
		streamIDs = append(streamIDs, ">")
	}
	return rdb.XReadGroup(ctx, &redis.XReadGroupArgs{
		Streams:  append(streamKeys, streamIDs...),
		Group:    q.group,
		Consumer: q.worker,
		Count:    1,
		Block:    timeout,
	}).Result()
}

// The IDs appended before the keys, or a slice whose halves are not built
// alike, do not split: nothing is said of them.
func (q *taskQueue[T]) dequeueUneven(ctx context.Context, rdb redis.UniversalClient, first string, queues []string) {
	streams := []string{q.streamKey(first)}
	for _, queue := range queues {
		streams = append(streams, q.streamKey(queue), ">")
	}
	rdb.XRead(ctx, &redis.XReadArgs{Streams: streams})
}
