// Package encoded holds keys whose hashtag is an encoding of a value
// that escapes or encodes with no brace: one value, one text.
package encoded

import (
	"context"
	"encoding/hex"
	"net/url"

	"github.com/redis/go-redis/v9"
)

// A session and its owner under the token's hex encoding: one slot.
func SessionPair(ctx context.Context, rdb redis.UniversalClient, token, user string) error {
	tag := hex.EncodeToString([]byte(token))
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "session:{"+tag+"}", user, 0)
		p.Set(ctx, "session:{"+hex.EncodeToString([]byte(token))+"}:owner", url.QueryEscape(user), 0)
		return nil
	})
	return err
}

// The token's encoding in one key, the user's escaping in the other.
func SessionPairOfTwo(ctx context.Context, rdb redis.UniversalClient, token, user string) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys .* may hash to different slots`
		p.Set(ctx, "session:{"+hex.EncodeToString([]byte(token))+"}", user, 0)
		p.Set(ctx, "session:{"+url.QueryEscape(user)+"}:owner", token, 0)
		return nil
	})
	return err
}
