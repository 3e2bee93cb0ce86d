// Package settingprefix is reduced from jiangtianxia/simple_tiktok
// (dao/redis/userMessageRedis.go): a MULTI/EXEC writes one hash per
// message, each key the configured prefix joined to the message's id. The
// prefix is a setting read by its name (viper.GetString there, os.Getenv
// here): keys of one template whose varying id puts them in several slots
// unless the prefix holds a hashtag, which nothing shows.
package settingprefix

import (
	"context"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

type message struct {
	ID      uint64
	Content string
}

func addMessages(ctx context.Context, rdb *redis.Client, list []message) error {
	prefix := os.Getenv("KEY_USER_MESSAGE_HASH_PREFIX")
	pipe := rdb.TxPipeline() // want `MULTI/EXEC transaction keys built as "<os.Getenv\(\\"KEY_USER_MESSAGE_HASH_PREF...><strconv.FormatUint\(list\[i\].ID, 10\)>" from different values may hash to different slots; no common hashtag proves they share one; give them a common hashtag such as "\{<os.Getenv\(\\"KEY_USER_MESSAGE_HASH_PREF...>\}"`
	for i := 0; i < len(list); i++ {
		key := prefix + strconv.FormatUint(list[i].ID, 10)
		pipe.HSet(ctx, key, "content", list[i].Content)
		pipe.Expire(ctx, key, time.Hour)
	}
	_, err := pipe.Exec(ctx)
	return err
}

// The fix: a plain pipeline, which a cluster client splits per node; each
// message's two commands are on one key.
func addMessagesFixed(ctx context.Context, rdb *redis.Client, list []message) error {
	prefix := os.Getenv("KEY_USER_MESSAGE_HASH_PREFIX")
	pipe := rdb.Pipeline()
	for i := 0; i < len(list); i++ {
		key := prefix + strconv.FormatUint(list[i].ID, 10)
		pipe.HSet(ctx, key, "content", list[i].Content)
		pipe.Expire(ctx, key, time.Hour)
	}
	_, err := pipe.Exec(ctx)
	return err
}

// One message's hash and its expiry in one MULTI/EXEC: one key.
func addMessage(ctx context.Context, rdb *redis.Client, m message) error {
	key := os.Getenv("KEY_USER_MESSAGE_HASH_PREFIX") + strconv.FormatUint(m.ID, 10)
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, key, "content", m.Content)
		p.Expire(ctx, key, time.Hour)
		return nil
	})
	return err
}

// Keys of one template with text: the hashtag suggested is the text before
// the id, the same in every key (the prefix and "msg"), not the whole key,
// whose id differs.
func addUserMessages(ctx context.Context, rdb *redis.Client, prefix string, list []message) error {
	pipe := rdb.TxPipeline() // want `MULTI/EXEC transaction keys built as "<prefix>:msg:<strconv.FormatUint\(list\[i\].ID, 10\)>" from different values may hash to different slots; no common hashtag proves they share one; give them a common hashtag such as "\{<prefix>:msg\}"`
	for i := 0; i < len(list); i++ {
		pipe.HSet(ctx, prefix+":msg:"+strconv.FormatUint(list[i].ID, 10), "content", list[i].Content)
	}
	_, err := pipe.Exec(ctx)
	return err
}
