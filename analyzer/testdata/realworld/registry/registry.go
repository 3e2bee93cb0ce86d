// Package registry sends keys of the registry of another package.
// Origin: hmchangw/newchat (pkg/badgecache): a badge set and its marker,
// both under the account's hashtag, go to one script and one DEL; the
// registry's own comment says the room's metadata and subscribers keys
// are in different slots, and a read of both in one MGET fails.
package registry

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/registry/cachekeys"
)

var bumpScript = redis.NewScript(`
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], '1')
return redis.call('SCARD', KEYS[1])
`)

func scriptKeys(account string) []string {
	return []string{cachekeys.BadgeSet(account), cachekeys.BadgeFresh(account)}
}

func Bump(ctx context.Context, rdb redis.UniversalClient, account, roomID string) error {
	return bumpScript.Run(ctx, rdb, scriptKeys(account), roomID).Err()
}

func Clear(ctx context.Context, rdb redis.UniversalClient, account string) error {
	return rdb.Del(ctx, cachekeys.BadgeSet(account), cachekeys.BadgeFresh(account)).Err()
}

func RoomInfo(ctx context.Context, rdb redis.UniversalClient, roomID string) ([]interface{}, error) {
	return rdb.MGet(ctx, cachekeys.RoomMeta(roomID), cachekeys.RoomSubs(roomID)).Result() // want `MGET keys "room:{<roomID>}:meta" \(hashtag "{<roomID>}"\) and "room:v3:<roomID>:subs" \(hashtag unknown\) may hash to different slots`
}
