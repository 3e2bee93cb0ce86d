// Package keylesswatch moves scheduled tasks to their queue in a Watch
// given no keys, after kalbhor/tasqueue (brokers/redis/broker.go,
// consumeScheduled): go-redis's cluster client refuses a Watch with no
// keys ("redis: Watch requires at least one key") and never runs the
// function, so no scheduled task is ever moved on a cluster; a one-server
// client runs it with nothing watched.
package keylesswatch

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const sortedSetKey = "tasqueue:ss:{%s}"

type Broker struct {
	conn redis.UniversalClient
}

func (b *Broker) moveScheduled(ctx context.Context, queue string) error {
	return b.conn.Watch(ctx, func(tx *redis.Tx) error { // want `Watch on b.conn, a client that may be a cluster, is given no keys: a cluster client refuses it \("redis: Watch requires at least one key"\) and never runs the function`
		// With no keys watched, the set read here is not watched either.
		tasks, err := tx.ZRevRangeByScore(ctx, fmt.Sprintf(sortedSetKey, queue), &redis.ZRangeBy{ // want `ZREVRANGEBYSCORE "tasqueue:ss:{<queue>}" is read inside the function of Watch, and its value is written by ZREM`
			Min: "0", Max: strconv.FormatInt(time.Now().UnixNano(), 10), Count: 1,
		}).Result()
		if err != nil || len(tasks) == 0 {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.ZRem(ctx, fmt.Sprintf(sortedSetKey, queue), tasks[0])
			return nil
		})
		return err
	})
}

// moveScheduledFixed watches the sorted set it reads.
func (b *Broker) moveScheduledFixed(ctx context.Context, queue string) error {
	key := fmt.Sprintf(sortedSetKey, queue)
	return b.conn.Watch(ctx, func(tx *redis.Tx) error {
		tasks, err := tx.ZRevRangeByScore(ctx, key, &redis.ZRangeBy{
			Min: "0", Max: strconv.FormatInt(time.Now().UnixNano(), 10), Count: 1,
		}).Result()
		if err != nil || len(tasks) == 0 {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.ZRem(ctx, key, tasks[0])
			return nil
		})
		return err
	}, key)
}

// A Watch on a one-server client runs with no keys: not reported.
func moveOnOneServer(ctx context.Context, rdb *redis.Client) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error { return nil })
}

// Keys handed on from the caller, who may pass none or some: not
// reported here.
func watchKeys(ctx context.Context, rdb redis.UniversalClient, keys ...string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error { return nil }, keys...)
}
