// Package valkeycompat uses valkey-go through its go-redis shaped adapter.
//
// Reduced from solsteace/kochira (account/internal/persistence,
// authAttempt.valkey.go), written anew: an account's auth attempts are a
// sorted set of the user's and a hash per attempt, written in one
// MULTI/EXEC of the adapter's TxPipeline; each cross-slot form is
// followed by its hashtagged fix.
package valkeycompat

import (
	"context"
	"fmt"
	"time"

	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeycompat"
)

func addAttempt(ctx context.Context, client valkey.Client, userID uint, id string, at float64) error {
	tx := valkeycompat.NewAdapter(client).TxPipeline() // want `MULTI/EXEC transaction keys "user:<userID>:auth-attempts" \(no hashtag\) and "user:<userID>:auth-attempts:<id>" \(hashtag unknown\) may hash to different slots`
	zName := fmt.Sprintf("user:%d:auth-attempts", userID)
	hName := fmt.Sprintf("user:%d:auth-attempts:%s", userID, id)
	tx.ZAdd(ctx, zName, valkeycompat.Z{Member: hName, Score: at})
	tx.Expire(ctx, zName, time.Hour)
	tx.HSet(ctx, hName, "ok", "1")
	tx.Expire(ctx, hName, time.Hour)
	_, err := tx.Exec(ctx)
	return err
}

// The fixed form: the user's id is the hashtag of both keys.
func addAttemptFixed(ctx context.Context, client valkey.Client, userID uint, id string, at float64) error {
	tx := valkeycompat.NewAdapter(client).TxPipeline()
	zName := fmt.Sprintf("user:{%d}:auth-attempts", userID)
	hName := fmt.Sprintf("user:{%d}:auth-attempts:%s", userID, id)
	tx.ZAdd(ctx, zName, valkeycompat.Z{Member: hName, Score: at})
	tx.HSet(ctx, hName, "ok", "1")
	_, err := tx.Exec(ctx)
	return err
}

func f(ctx context.Context, client valkey.Client) {
	c := valkeycompat.NewAdapter(client)
	c.MGet(ctx, "cart:1", "cart:2") // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	c.MGet(ctx, "cart:{1}:items", "cart:{1}:total")
}
