package kmapp // want package:`keymap\("cart:\{<user>\}", "cart:\{<user>\}:items", "users:seen", "profile:<uid>"; 2 uses\)`

// kmapp uses the keys of package kmkeys with go-redis. Its part of
// the map is a package fact: two families used together in a transaction
// (same slot), a helper's family renamed into a constant one (different
// slots), and a constant family touched alone.

import (
	"context"

	"github.com/redis/go-redis/v9"
	"keymap.test/kmkeys"
)

// Checkout empties a cart and its items in one transaction.
func Checkout(ctx context.Context, rdb redis.UniversalClient, user string) error {
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Del(ctx, kmkeys.Cart.Key(user))
		pipe.Del(ctx, kmkeys.Items.Key(user))
		return nil
	})
	return err
}

// Archive moves a profile into the set of users seen: the keys hash to
// different slots.
func Archive(ctx context.Context, rdb redis.UniversalClient, uid int) error {
	rdb.SAdd(ctx, kmkeys.Seen, uid)
	return rdb.SMove(ctx, kmkeys.Profile(uid), kmkeys.Seen, uid).Err()
}
