// Package unboundedwatchretry shows the unbounded-watch-retry check.
package unboundedwatchretry

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// It spins for as long as another client keeps changing the key.
func incrBad(ctx context.Context, rdb *redis.Client, key string, txf func(*redis.Tx) error) error {
	for { // want `this loop retries Watch on "<key>" on redis.TxFailedErr with no bound on its attempts`
		err := rdb.Watch(ctx, txf, key)
		if errors.Is(err, redis.TxFailedErr) {
			continue
		}
		return err
	}
}
