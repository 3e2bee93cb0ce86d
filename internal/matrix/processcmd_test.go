package matrix

import (
	"context"
	"strings"
	"testing"

	redis6 "github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

// TestProcessCommandValue shows, on a live cluster, what rules.yaml says of
// go-redis's NewCmd, NewStringSliceCmd ... (raw, value: true) and Process
// (send): a command built as a value is sent as it is by the cluster
// client's Process, to the node of its first key, so MGET of two slots
// gets CROSSSLOT and MGET of one hashtag the values, in v6 to v9 alike;
// so does a v9 hook that hands its own command value to next.
func TestProcessCommandValue(t *testing.T) {
	l := sharedLab(t)
	ctx := context.Background()
	if err := l.reset(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, one func(keys ...any) ([]string, error)) {
		t.Helper()
		vals, err := one("MGET", PriceOne[0], PriceOne[1])
		if err != nil || strings.Join(vals, " ") != "1 2" {
			t.Errorf("Process of MGET of one hashtag: %q, %v; want \"1 2\"", vals, err)
		}
		if _, err := one("MGET", PriceCross[0], PriceCross[1]); err == nil || !crossRE.MatchString(err.Error()) {
			t.Errorf("Process of MGET of two slots: %v; want CROSSSLOT", err)
		}
	}
	t.Run("v9", func(t *testing.T) {
		c := goRedis9Cluster(l.env)
		defer c.Close()
		check(t, func(args ...any) ([]string, error) {
			cmd := redis.NewStringSliceCmd(ctx, args...)
			_ = c.Process(ctx, cmd)
			return cmd.Result()
		})
	})
	t.Run("v9 hook next", func(t *testing.T) {
		// A hook that sends a command of its own through next, as a
		// func value taking a Cmder (rules.yaml's value: true).
		c := goRedis9Cluster(l.env)
		defer c.Close()
		h := &sendOwn{}
		c.AddHook(h)
		check(t, func(args ...any) ([]string, error) {
			h.cmd = redis.NewStringSliceCmd(ctx, args...)
			_ = c.Echo(ctx, "send own").Err()
			return h.cmd.Result()
		})
	})
	t.Run("v8", func(t *testing.T) {
		c := goRedis8Cluster(l.env)
		defer c.Close()
		check(t, func(args ...any) ([]string, error) {
			cmd := redis8.NewStringSliceCmd(ctx, args...)
			_ = c.Process(ctx, cmd)
			return cmd.Result()
		})
	})
	t.Run("v7", func(t *testing.T) {
		c := goRedis7Cluster(l.env)
		defer c.Close()
		check(t, func(args ...any) ([]string, error) {
			cmd := redis7.NewStringSliceCmd(args...)
			_ = c.Process(cmd)
			return cmd.Result()
		})
	})
	t.Run("v6", func(t *testing.T) {
		c := goRedis6Cluster(l.env)
		defer c.Close()
		check(t, func(args ...any) ([]string, error) {
			cmd := redis6.NewStringSliceCmd(args...)
			_ = c.Process(cmd)
			return cmd.Result()
		})
	})
}

// sendOwn is a go-redis v9 hook that, for an ECHO, sends its own command
// value through the chain's next instead.
type sendOwn struct{ cmd *redis.StringSliceCmd }

func (h *sendOwn) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *sendOwn) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if cmd.Name() == "echo" && h.cmd != nil {
			_ = next(ctx, h.cmd)
		}
		return next(ctx, cmd)
	}
}

func (h *sendOwn) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
