package matrix

import (
	"context"
	"testing"

	redis6 "github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

// TestTxPipelinedOfWatch shows what rules.yaml says of go-redis v6's to
// v9's Tx.Pipelined, on a live cluster: in v6 it queues the function's
// commands in MULTI/EXEC, so a write to the watched key between WATCH and
// EXEC fails the transaction (TxFailedErr) and its SET is not applied; in
// v7, v8 and v9 it sends a plain pipeline, which WATCH does not guard: the
// SET is applied. (v7 to v9 have TxPipelined for the transaction.)
func TestTxPipelinedOfWatch(t *testing.T) {
	l := sharedLab(t)
	ctx := context.Background()
	const key = "{stock}:watched"
	// other writes the watched key from another connection, between the
	// WATCH and what the function of Watch sends.
	other := func() error { return l.rdb.Set(ctx, key, "other", 0).Err() }
	final := func() string {
		t.Helper()
		v, err := l.rdb.Get(ctx, key).Result()
		if err != nil && err != redis.Nil {
			t.Fatal(err)
		}
		return v
	}

	// run writes the key, runs watch (a Watch whose function first calls
	// other, then sets the key in tx.Pipelined), and checks its error and
	// the key's value after it.
	run := func(t *testing.T, watch func() error, wantErr error, want string) {
		if err := l.rdb.Set(ctx, key, "start", 0).Err(); err != nil {
			t.Fatal(err)
		}
		if err := watch(); err != wantErr {
			t.Fatalf("Watch returned %v, want %v", err, wantErr)
		}
		if got := final(); got != want {
			t.Fatalf("%s = %q after Watch, want %q", key, got, want)
		}
	}

	t.Run("v6", func(t *testing.T) {
		cl := goRedis6Cluster(l.env)
		defer cl.Close()
		// MULTI/EXEC: the transaction fails, its SET is not applied.
		run(t, func() error {
			return cl.Watch(func(tx *redis6.Tx) error {
				if err := other(); err != nil {
					return err
				}
				_, err := tx.Pipelined(func(pipe redis6.Pipeliner) error {
					pipe.Set(key, "tx", 0)
					return nil
				})
				return err
			}, key)
		}, redis6.TxFailedErr, "other")
	})

	t.Run("v7", func(t *testing.T) {
		cl := goRedis7Cluster(l.env)
		defer cl.Close()
		// A plain pipeline: no error, the SET is applied.
		run(t, func() error {
			return cl.Watch(func(tx *redis7.Tx) error {
				if err := other(); err != nil {
					return err
				}
				_, err := tx.Pipelined(func(pipe redis7.Pipeliner) error {
					pipe.Set(key, "tx", 0)
					return nil
				})
				return err
			}, key)
		}, nil, "tx")
	})
	t.Run("v8", func(t *testing.T) {
		cl := goRedis8Cluster(l.env)
		defer cl.Close()
		// A plain pipeline: no error, the SET is applied.
		run(t, func() error {
			return cl.Watch(ctx, func(tx *redis8.Tx) error {
				if err := other(); err != nil {
					return err
				}
				_, err := tx.Pipelined(ctx, func(pipe redis8.Pipeliner) error {
					pipe.Set(ctx, key, "tx", 0)
					return nil
				})
				return err
			}, key)
		}, nil, "tx")
	})

	t.Run("v9", func(t *testing.T) {
		cl := goRedis9Cluster(l.env)
		defer cl.Close()
		// A plain pipeline: no error, the SET is applied.
		run(t, func() error {
			return cl.Watch(ctx, func(tx *redis.Tx) error {
				if err := other(); err != nil {
					return err
				}
				_, err := tx.Pipelined(ctx, func(pipe redis.Pipeliner) error {
					pipe.Set(ctx, key, "tx", 0)
					return nil
				})
				return err
			}, key)
		}, nil, "tx")
	})
}

// TestGoRedis7CommandReply shows on the live cluster why go-redis v7's
// one-slot MULTI row races (racyRows): v7 cannot parse Redis 7's COMMAND
// reply, so it knows no command's key position.
func TestGoRedis7CommandReply(t *testing.T) {
	l := sharedLab(t)
	cl := goRedis7Cluster(l.env)
	defer cl.Close()
	const want = "redis: got 10 elements in COMMAND reply, wanted 7"
	if _, err := cl.Command().Result(); err == nil || err.Error() != want {
		t.Fatalf("COMMAND through go-redis v7: %v, want %q", err, want)
	}
}
