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
// gets CROSSSLOT and MGET of one hashtag the values, in v6 to v9 alike.
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
