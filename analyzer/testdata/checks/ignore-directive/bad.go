// Package ignoredirective shows the ignore-directive check.
package ignoredirective

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A directive without a reason, and one over a line with nothing to
// suppress.
func directivesBad(ctx context.Context, rdb *redis.Client) {
	//slotlint:ignore // want `slotlint:ignore directive needs a reason`
	rdb.Rename(ctx, "{a}:1", "{a}:2")

	//slotlint:ignore the keys share a hashtag // want `slotlint:ignore directive suppresses no finding; remove it`
	rdb.Rename(ctx, "{b}:1", "{b}:2")
}
