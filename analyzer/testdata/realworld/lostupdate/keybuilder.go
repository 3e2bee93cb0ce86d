package lostupdate

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: Effortful-lion/unibase (component/state, RedisStorage's
// SaveTaskState): the task's current state is read to take the task out of
// its old state's index, through a key builder method of the store, then
// the new state is written and its TTL set from the store's settings. The
// key builder only reads its receiver: the store does not carry the read
// state, and the TTL written is no value computed from it.
type taskStore struct {
	client redis.Cmdable
	prefix string
	ttl    time.Duration
	last   string
}

func (r *taskStore) keyTaskState(id string) string { return r.prefix + ":task_state:" + id }
func (r *taskStore) keyIdxState(state string) string {
	return r.prefix + ":idx:state:" + state
}

func (r *taskStore) saveTaskState(ctx context.Context, id, state string) error {
	stateKey := r.keyTaskState(id)
	pipe := r.client.Pipeline()
	if old, err := r.client.Get(ctx, stateKey).Result(); err == nil && old != state {
		pipe.ZRem(ctx, r.keyIdxState(old), id)
	}
	pipe.Set(ctx, stateKey, state, 0)
	if r.ttl > 0 {
		pipe.Expire(ctx, stateKey, r.ttl)
	}
	_, err := pipe.Exec(ctx)
	return err
}

// remember keeps what it is given in the store: the store then carries the
// read, and so does what is read of it.
func (r *taskStore) remember(state string) { r.last = state }

func (r *taskStore) touchState(ctx context.Context, id string) error {
	stateKey := r.keyTaskState(id)
	old := r.client.Get(ctx, stateKey).Val()
	r.remember(old + "!")
	return r.client.Set(ctx, stateKey, r.last, r.ttl).Err() // want `SET "<r.prefix>:task_state:<id>" writes a value computed from GET "<r.prefix>:task_state:<id>" at line \d+`
}

// The fix: the server appends, with nothing read before.
func (r *taskStore) touchStateFixed(ctx context.Context, id string) error {
	return r.client.Append(ctx, r.keyTaskState(id), "!").Err()
}
