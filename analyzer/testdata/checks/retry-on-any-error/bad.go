// Package retryonanyerror shows the retry-on-any-error check.
package retryonanyerror

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const maxRetries = 10

// A timeout after EXEC ran withdraws twice.
func withdrawBad(ctx context.Context, rdb *redis.Client, withdraw func(*redis.Tx) error) error {
	for i := 0; i < maxRetries; i++ { // want `this loop retries Watch on "balance:1" after any error, not only redis.TxFailedErr`
		if err := rdb.Watch(ctx, withdraw, "balance:1"); err == nil {
			return nil
		}
	}
	return nil
}
