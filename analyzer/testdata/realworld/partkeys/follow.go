package partkeys

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Origin: Project163/DianPingGo (internal/module/follow/service.go,
// followCacheKey and its callers): one helper returns both keys of a
// user's follow cache, the set and its "loaded" marker, as two results;
// a script, the DEL after it fails and a MULTI/EXEC each send both. The
// marker is the set's key with a suffix, and neither has a hashtag.
const (
	bizFollowKey      = "follows:"
	bizFollowedSuffix = ":loaded"
)

var followAddScript = redis.NewScript(`
if redis.call("EXISTS", KEYS[2]) == 1 then
	redis.call("SADD", KEYS[1], ARGV[1])
end
return 1`)

func followCacheKey(userID uint64) (string, string) {
	key := bizFollowKey + strconv.FormatUint(userID, 10)
	loadKey := key + bizFollowedSuffix
	return key, loadKey
}

func Follow(ctx context.Context, rdb redis.Cmdable, userID, followID uint64) error {
	key, loadKey := followCacheKey(userID)
	if err := followAddScript.Run(ctx, rdb, []string{key, loadKey}, followID).Err(); err != nil { // want `EVALSHA keys "follows:<userID>" \(no hashtag\) and "follows:<userID>:loaded" \(no hashtag\) may hash to different slots`
		return rdb.Del(ctx, key, loadKey).Err() // want `DEL keys "follows:<userID>" \(no hashtag\) and "follows:<userID>:loaded" \(no hashtag\) may hash to different slots`
	}
	return nil
}

// Fixed: both keys under the user's tag.
func followCacheKeyTagged(userID uint64) (string, string) {
	key := bizFollowKey + "{" + strconv.FormatUint(userID, 10) + "}"
	return key, key + bizFollowedSuffix
}

func FollowTagged(ctx context.Context, rdb redis.Cmdable, userID, followID uint64) error {
	key, loadKey := followCacheKeyTagged(userID)
	pipe := rdb.TxPipeline()
	pipe.Del(ctx, key)
	pipe.Set(ctx, loadKey, "1", 0)
	pipe.SAdd(ctx, key, followID)
	_, err := pipe.Exec(ctx)
	return err
}
