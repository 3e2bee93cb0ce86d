package retryonanyerror

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// Retry the lost race only; return every other error.
func withdrawGood(ctx context.Context, rdb *redis.Client, withdraw func(*redis.Tx) error) error {
	for i := 0; i < maxRetries; i++ {
		err := rdb.Watch(ctx, withdraw, "balance:1")
		if err == nil || !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
	return nil
}
