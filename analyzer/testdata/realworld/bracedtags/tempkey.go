package bracedtags

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/go-redis/redis/v8"
)

// Origin: park285/hololive-bot (internal/service/notification/platformmap,
// mapper_hash.go): a mapping is rewritten into a temporary key and renamed
// over the live one by a script. The temporary key keeps the live key's
// hashtag when it has one (hasValkeyHashTag, a helper that looks for the
// '{'), and else makes the whole live key its hashtag: both keys share a
// slot, whatever the key.
var tempKeySeq atomic.Uint64

const renameScript = `return redis.call("RENAME", KEYS[1], KEYS[2])`

func hasValkeyHashTag(key string) bool {
	_, after, ok := strings.Cut(key, "{")
	if !ok {
		return false
	}
	end := strings.IndexByte(after, '}')
	return end > 0
}

func tempKey(key string) string {
	seq := tempKeySeq.Add(1)
	if hasValkeyHashTag(key) {
		return fmt.Sprintf("%s:tmp:%d", key, seq)
	}
	return fmt.Sprintf("{%s}:tmp:%d", key, seq)
}

// The bug the check prevents: a temporary key of its own slot.
func plainTempKey(key string) string {
	return fmt.Sprintf("%s:tmp:%d", key, tempKeySeq.Add(1))
}

type mapper struct{ client *redis.Client }

func (m *mapper) replace(ctx context.Context, key string, fields map[string]any) error {
	tmp := tempKey(key)
	if err := m.client.HSet(ctx, tmp, fields).Err(); err != nil {
		return err
	}
	return m.client.Eval(ctx, renameScript, []string{tmp, key}).Err()
}

func (m *mapper) replacePlain(ctx context.Context, key string, fields map[string]any) error {
	tmp := plainTempKey(key)
	if err := m.client.HSet(ctx, tmp, fields).Err(); err != nil {
		return err
	}
	return m.client.Eval(ctx, renameScript, []string{tmp, key}).Err()
}

func (m *mapper) refresh(ctx context.Context) error {
	fields := map[string]any{"a": "b"}
	if err := m.replace(ctx, "alarm:chzzk_channels", fields); err != nil {
		return err
	}
	if err := m.replace(ctx, "alarm:{twitch}:logins", fields); err != nil {
		return err
	}
	return m.replacePlain(ctx, "alarm:twitch_logins", fields) // want `EVAL \(through replacePlain at tempkey.go:59\) keys "alarm:twitch_logins:tmp:<tempKeySeq.Add\(1\)>" \(no hashtag\) and "alarm:twitch_logins" \(slot 1428\) may hash to different slots`
}
