package scanned

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: aak1247/logtap (internal/metrics/redis.go, RedisRecorder's
// DeleteProjectMetrics): a project's metrics are deleted by ten patterns,
// a range over a list of them, each SCANned and each page DELed in one
// call. Ten patterns are more than slotlint keeps of one value; it keeps
// the first ones, each a pattern a caller sends.
type Recorder struct {
	rdb *redis.Client
}

func (r *Recorder) DeleteProjectMetrics(ctx context.Context, projectID int) error {
	patterns := []string{
		fmt.Sprintf("metrics:logs:%d:*", projectID),
		fmt.Sprintf("metrics:events:%d:*", projectID),
		fmt.Sprintf("metrics:errors:%d:*", projectID),
		fmt.Sprintf("metrics:users:%d:*", projectID),
		fmt.Sprintf("metrics:totals:%d:*", projectID),
		fmt.Sprintf("active:dau:%d:*", projectID),
		fmt.Sprintf("active:mau:%d:*", projectID),
		fmt.Sprintf("active:devices:%d:*", projectID),
		fmt.Sprintf("dist:*:%d:*", projectID),
		fmt.Sprintf("dist_users:*:%d:*", projectID),
	}
	for _, pattern := range patterns {
		if err := r.deleteByPattern(ctx, pattern); err != nil {
			return err
		}
	}
	return nil
}

func (r *Recorder) deleteByPattern(ctx context.Context, pattern string) error {
	var cursor uint64
	for {
		keys, next, err := r.rdb.Scan(ctx, cursor, pattern, 500).Result()
		if err != nil {
			return err
		}
		if len(keys) > 0 {
			if err := r.rdb.Del(ctx, keys...).Err(); err != nil { // want `DEL keys built as "metrics:logs:<projectID>:<\*>" from different values may hash to different slots`
				return err
			}
		}
		if cursor = next; cursor == 0 {
			return nil
		}
	}
}

// The fix: a project's metrics under its hashtag, one pattern.
func (r *Recorder) DeleteProjectMetricsFixed(ctx context.Context, projectID int) error {
	return r.deleteByPatternFixed(ctx, fmt.Sprintf("{project:%d}:*", projectID))
}

func (r *Recorder) deleteByPatternFixed(ctx context.Context, pattern string) error {
	var cursor uint64
	for {
		keys, next, err := r.rdb.Scan(ctx, cursor, pattern, 500).Result()
		if err != nil {
			return err
		}
		if len(keys) > 0 {
			if err := r.rdb.Del(ctx, keys...).Err(); err != nil {
				return err
			}
		}
		if cursor = next; cursor == 0 {
			return nil
		}
	}
}
