// Package lostupdate shows the lost-update check.
package lostupdate

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Two withdrawals of 30 from 100 both read 100 and both write 70.
func withdrawBad(ctx context.Context, rdb *redis.Client) error {
	bal, err := rdb.Get(ctx, "balance:1").Int()
	if err != nil {
		return err
	}
	return rdb.Set(ctx, "balance:1", bal-30, 0).Err() // want `SET "balance:1" writes a value computed from GET "balance:1" at line 12, with no WATCH around them`
}
