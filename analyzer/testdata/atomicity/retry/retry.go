// Package retry retries WATCH transactions.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
)

const maxAttempts = 5

func fn(tx *redis.Tx) error { return nil }

// spin retries on redis.TxFailedErr forever: under a hot key it never
// stops.
func spin(ctx context.Context, rdb *redis.Client) error {
	for { // want `this loop retries Watch on "hot" on redis.TxFailedErr with no bound on its attempts: under a hot key it spins forever; stop after a fixed number of attempts \(for i := 0; i < maxRetries; i\+\+\), or when ctx.Err\(\) != nil`
		err := rdb.Watch(ctx, fn, "hot")
		if errors.Is(err, redis.TxFailedErr) {
			continue
		}
		return err
	}
}

// spinCond retries while the error is redis.TxFailedErr.
func spinCond(ctx context.Context, rdb *redis.Client) error {
	err := rdb.Watch(ctx, fn, "hot")
	for err == redis.TxFailedErr { // want `this loop retries Watch on "hot" on redis.TxFailedErr with no bound`
		err = rdb.Watch(ctx, fn, "hot")
	}
	return err
}

// spinSwitch retries in a switch on the error.
func spinSwitch(ctx context.Context, rdb *redis.Client) error {
	for { // want `this loop retries Watch on "hot" on redis.TxFailedErr with no bound`
		switch err := rdb.Watch(ctx, fn, "hot"); err {
		case nil:
			return nil
		case redis.TxFailedErr:
		default:
			return err
		}
	}
}

// spinFiltered asks a helper which errors to retry: it may well be only
// redis.TxFailedErr, but nothing bounds the attempts.
func spinFiltered(ctx context.Context, rdb *redis.Client, retryable func(error) bool) error {
	for { // want `this loop retries Watch on "hot" on redis.TxFailedErr with no bound`
		err := rdb.Watch(ctx, fn, "hot")
		if err == nil {
			return nil
		}
		if retryable(err) {
			continue
		}
		return err
	}
}

// anyError retries after any error: a timeout after EXEC ran repeats the
// transfer.
func anyError(ctx context.Context, rdb *redis.Client) error {
	var err error
	for i := 0; i < maxAttempts; i++ { // want `this loop retries Watch on "acct:\{1\}:a", "acct:\{1\}:b" after any error, not only redis.TxFailedErr: after a network error EXEC may have run, and running the function again may apply its writes twice; retry only if errors.Is\(err, redis.TxFailedErr\), and return other errors`
		if err = rdb.Watch(ctx, fn, "acct:{1}:a", "acct:{1}:b"); err == nil {
			return nil
		}
	}
	return err
}

// anyErrorForever retries after any error, with no bound.
func anyErrorForever(ctx context.Context, rdb *redis.Client) {
	for { // want `this loop retries Watch on "hot" after any error` `this loop retries Watch on "hot" on redis.TxFailedErr with no bound`
		if err := rdb.Watch(ctx, fn, "hot"); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// anyErrorDeadline has a deadline, but retries the deadline's error too.
func anyErrorDeadline(ctx context.Context, rdb *redis.Client) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	for { // want `after any error` `with no bound`
		if rdb.Watch(ctx, fn, "hot") != nil {
			continue
		}
		return nil
	}
}

// bounded is the fix: a bounded number of attempts, on redis.TxFailedErr
// only, with a short random backoff.
func bounded(ctx context.Context, rdb *redis.Client) error {
	for attempt := 0; attempt < maxAttempts; attempt++ {
		err := rdb.Watch(ctx, fn, "hot")
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
		time.Sleep(time.Duration(1+rand.IntN(5)) * time.Millisecond)
	}
	return errors.New("too much contention")
}

// boundedCount counts its attempts in the body.
func boundedCount(ctx context.Context, rdb *redis.Client) error {
	for attempts := 0; ; attempts++ {
		err := rdb.Watch(ctx, fn, "hot")
		if err != redis.TxFailedErr {
			return err
		}
		if attempts == maxAttempts {
			return err
		}
	}
}

// boundedContext stops when the context is done.
func boundedContext(ctx context.Context, rdb *redis.Client) error {
	for ctx.Err() == nil {
		err := rdb.Watch(ctx, fn, "hot")
		if err == nil || !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
	return ctx.Err()
}

// boundedSelect waits between attempts, and stops when the context is done.
func boundedSelect(ctx context.Context, rdb *redis.Client) error {
	backoff := time.Millisecond
	for {
		err := rdb.Watch(ctx, fn, "hot")
		if err != redis.TxFailedErr {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff + time.Duration(rand.Int64N(int64(backoff)))):
		}
		backoff *= 2
	}
}

// boundedDeadline retries only redis.TxFailedErr, under a context with a
// timeout: past it, Watch fails with the context's error, which ends the
// loop.
func boundedDeadline(ctx context.Context, rdb *redis.Client) error {
	ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	for {
		err := rdb.Watch(ctx, fn, "hot")
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
}

// boundedLabeled continues the loop by its label.
func boundedLabeled(ctx context.Context, rdb *redis.Client) error {
retry:
	for i := 0; i < maxAttempts; i++ {
		switch err := rdb.Watch(ctx, fn, "hot"); {
		case errors.Is(err, redis.TxFailedErr):
			continue retry
		case err != nil:
			return err
		}
		break retry
	}
	return nil
}

// each is not a retry: it runs one transaction per key.
func each(ctx context.Context, rdb *redis.Client, keys []string) error {
	for _, k := range keys {
		if err := rdb.Watch(ctx, fn, k); err != nil {
			return err
		}
	}
	for {
		if err := rdb.Watch(ctx, fn, "job"); err != nil {
			return err
		}
	}
}

// perIteration runs N transactions, and counts an iteration back when its
// transaction failed: that iteration is retried with no bound.
func perIteration(ctx context.Context, rdb *redis.Client, n int) error {
	for i := 0; i < n; i++ { // want `this loop retries Watch on "hot" on redis.TxFailedErr with no bound`
		err := rdb.Watch(ctx, fn, "hot")
		if err == redis.TxFailedErr {
			i--
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// perIterationBounded counts the attempts of each iteration too.
func perIterationBounded(ctx context.Context, rdb *redis.Client, n int) error {
	attempts := 0
	for i := 0; i < n; i++ {
		err := rdb.Watch(ctx, fn, "hot")
		if err == redis.TxFailedErr && attempts < maxAttempts {
			attempts++
			i--
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}
