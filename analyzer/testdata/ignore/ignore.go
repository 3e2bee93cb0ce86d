// Package ignore holds suppression directives.
package ignore

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func f(ctx context.Context, rdb *redis.Client) {
	//slotlint:ignore runs against a standalone Redis only
	rdb.Rename(ctx, "a", "b")

	rdb.Rename(ctx, "c", "d") //slotlint:ignore standalone only

	//slotlint:ignore // want `slotlint:ignore directive needs a reason`
	rdb.Rename(ctx, "e", "f") // want `RENAME keys "e" .* and "f" .* hash to different slots`

	//slotlint:ignore nothing to suppress here // want `slotlint:ignore directive suppresses no finding; remove it`
	rdb.Rename(ctx, "{g}1", "{g}2")
}
