// Package delayqueue takes its Redis client as an interface of its own,
// which its callers may implement, and adapts go-redis to it in an
// unexported type that it keeps and never hands out.
//
// Origin: HDT3213/delayqueue (delayqueue.go: RedisCli, NewQueue0;
// wrapper.go: NewQueue and redisV9Wrapper). The adapter's DEL and EVAL
// send only what the queue's own methods give them, and those are checked
// where they call it (through Del); the adapter is no API of the
// package's, so it is not reported as sending its callers' keys.
package delayqueue

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// RedisCli is the client the queue needs.
type RedisCli interface {
	Eval(script string, keys []string, args []interface{}) (interface{}, error) // want Eval:`keyWrapper\(EVAL "<keys...>" script \$0 in redisV9Wrapper\)`
	Del(keys []string) error                                                    // want Del:`keyWrapper\(DEL "<keys...>" in redisV9Wrapper\)`
}

type DelayQueue struct {
	name     string
	redisCli RedisCli
	hashTag  bool
}

// NewQueue0 makes a queue on any RedisCli.
func NewQueue0(name string, cli RedisCli, hashTag bool) *DelayQueue {
	return &DelayQueue{name: name, redisCli: cli, hashTag: hashTag}
}

// NewQueue makes a queue on a go-redis client.
func NewQueue(name string, cli *redis.Client) *DelayQueue {
	return NewQueue0(name, &redisV9Wrapper{inner: cli}, false)
}

type redisV9Wrapper struct {
	inner *redis.Client
}

func (r *redisV9Wrapper) Eval(script string, keys []string, args []interface{}) (interface{}, error) { // want Eval:`keyWrapper\(EVAL "<keys...>" script \$0\)`
	return r.inner.Eval(context.Background(), script, keys, args...).Result()
}

func (r *redisV9Wrapper) Del(keys []string) error { // want Del:`keyWrapper\(DEL "<keys...>"\)`
	return r.inner.Del(context.Background(), keys...).Err()
}

func (q *DelayQueue) msgKey(id int) string {
	return "dp:" + q.name + ":msg:" + strconv.Itoa(id)
}

// Bad: the message keys of several ids, with no hashtag.
func (q *DelayQueue) collectGarbage(ids []int) error {
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		keys = append(keys, q.msgKey(id))
	}
	return q.redisCli.Del(keys) // want `DEL \(through Del at delayqueue.go:\d+\) keys built as "dp:<q.name>:msg:<id>" from different values may hash to different slots`
}

func (q *DelayQueue) taggedMsgKey(id int) string {
	return "{dp:" + q.name + "}:msg:" + strconv.Itoa(id)
}

// Fixed: every message key under the queue's tag.
func (q *DelayQueue) collectGarbageTagged(ids []int) error {
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		keys = append(keys, q.taggedMsgKey(id))
	}
	return q.redisCli.Del(keys)
}
