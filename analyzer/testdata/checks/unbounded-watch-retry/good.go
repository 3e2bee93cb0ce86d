package unboundedwatchretry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
)

const maxRetries = 10

// A bounded number of attempts, with a short random backoff.
func incr(ctx context.Context, rdb *redis.Client, key string, txf func(*redis.Tx) error) error {
	for attempt := 0; attempt < maxRetries; attempt++ {
		err := rdb.Watch(ctx, txf, key)
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
		time.Sleep(time.Duration(1+rand.IntN(5)) * time.Millisecond)
	}
	return errors.New("too much contention")
}
