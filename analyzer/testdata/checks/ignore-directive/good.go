package ignoredirective

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A directive with its reason, over the finding it suppresses.
func directives(ctx context.Context, rdb *redis.Client) {
	//slotlint:ignore this code runs against a standalone Redis only
	rdb.Rename(ctx, "a", "b")
}
