// Package suffixkeys is reduced from vkastanenka/bonfire-api-start
// (internal/cache: user.go's userNamespacedKey, presence.go): one key
// builder puts a user's keys under the user's hashtag, and returns the
// bare hashtag when no suffix is given. Its callers pass a constant
// suffix, which rules that return out: the keys they build are
// "{user:<id>}:presence" and "{user:<id>}:nodes", never "{user:<id>}".
package suffixkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const userDomainKey = "user:"

func userNamespacedKey(id, suffix string) string {
	if suffix == "" {
		return "{" + userDomainKey + id + "}"
	}
	return "{" + userDomainKey + id + "}:" + suffix
}

func userPresenceKey(id string) string { return userNamespacedKey(id, "presence") }
func userNodesKey(id string) string    { return userNamespacedKey(id, "nodes") }

// The presence of several users in one MGET: each key is under its own
// user's hashtag.
func presences(ctx context.Context, rdb redis.Cmdable, ids []string) ([]any, error) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = userPresenceKey(id)
	}
	return rdb.MGet(ctx, keys...).Result() // want `MGET keys built as "\{user:<id>\}:presence" from different values may hash to different slots`
}

// The fix: one command per user (a plain pipeline is split per node).
func presencesFixed(ctx context.Context, rdb redis.Cmdable, ids []string) ([]string, error) {
	cmds := make([]*redis.StringCmd, len(ids))
	_, err := rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.Get(ctx, userPresenceKey(id))
		}
		return nil
	})
	out := make([]string, len(ids))
	for i, c := range cmds {
		out[i] = c.Val()
	}
	return out, err
}

var registerNode = redis.NewScript(`
redis.call("SADD", KEYS[1], ARGV[1])
redis.call("SET", KEYS[2], ARGV[2])
return 1
`)

// One user's two keys in one script: the same hashtag.
func register(ctx context.Context, rdb redis.Cmdable, id, node, presence string) error {
	return registerNode.Run(ctx, rdb, []string{userNodesKey(id), userPresenceKey(id)}, node, presence).Err()
}

// A caller of the builder with a suffix it does not know may get the bare
// hashtag as well, and with a hashtag either way the keys share a slot.
func userKeys(ctx context.Context, rdb redis.Cmdable, id, suffix string) error {
	return rdb.Del(ctx, userNamespacedKey(id, suffix), userPresenceKey(id)).Err()
}

// An empty constant takes the first return: the bare hashtag, of one user
// here, of two there.
func clearUser(ctx context.Context, rdb redis.Cmdable, id string) error {
	return rdb.Del(ctx, userNamespacedKey(id, ""), userPresenceKey(id), userNodesKey(id)).Err()
}

func clearPair(ctx context.Context, rdb redis.Cmdable, a, b string) error {
	return rdb.Del(ctx, userNamespacedKey(a, ""), userNamespacedKey(b, "")).Err() // want `DEL keys "\{user:<a>\}" \(hashtag "\{user:<a>\}"\) and "\{user:<b>\}" \(hashtag "\{user:<b>\}"\) may hash to different slots`
}
