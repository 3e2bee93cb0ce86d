// Package wrappers holds the user's functions that pass keys on.
package wrappers

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb *redis.Client }

// Move is declared in the test's rules file as an LMOVE wrapper.
func (s *Store) Move(ctx context.Context, src, dst string) {
	s.rdb.LPush(ctx, dst, s.rdb.RPop(ctx, src).Val())
}

// swap is found by slotlint itself: it passes its parameters to RENAME.
func swap(ctx context.Context, rdb *redis.Client, from, to string) {
	rdb.Rename(ctx, from, to)
}

// Swap passes its parameters on to swap.
func Swap(ctx context.Context, rdb *redis.Client, user string) { // want Swap:`keyWrapper\(RENAME \(through swap at wrappers.go:\d+\) "tmp:<user>" "<user>"\)`
	swap(ctx, rdb, "tmp:"+user, user) // want `RENAME \(through swap at wrappers.go:\d+\) of the callers' keys "tmp:<user>" and "<user>": callers in other modules are not checked`
}

func use(ctx context.Context, s *Store, rdb *redis.Client) {
	s.Move(ctx, "jobs:a", "jobs:b") // want `LMOVE keys "jobs:a" .* and "jobs:b" .* hash to different slots`
	s.Move(ctx, "{jobs}:a", "{jobs}:b")
	swap(ctx, rdb, "tmp:user:123:cache", "user:123:cache") // want `RENAME \(through swap at wrappers.go:\d+\) keys "tmp:user:123:cache" \(slot 4489\) and "user:123:cache" \(slot 7641\) hash to different slots`
	swap(ctx, rdb, "{u}a", "{u}b")
	Swap(ctx, rdb, "u1") // want `RENAME \(through swap at wrappers.go:\d+\) \(through Swap at wrappers.go:\d+\) keys "tmp:u1" .* and "u1" .* hash to different slots`
}
