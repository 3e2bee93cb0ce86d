// Package bracedtags holds keys whose hashtag depends on whether a value
// already has one.
package bracedtags

import (
	"context"
	"strings"

	"github.com/go-redis/redis/v8"
)

// Origin: me-cs/goRedisson (goRedissonObject.go, goRedissonLock.go), a
// port of Redisson's locks: a lock's pub/sub channel, passed in KEYS with
// the lock's name, is the name under its own hashtag when it has one and
// else the name made a hashtag, so that both keys share the name's slot.
type object struct{ name string }

func (m *object) prefixName(prefix, name string) string {
	if strings.Contains(name, "{") {
		return prefix + ":" + name
	}
	return prefix + ":{" + name + "}"
}

// The bug the check prevents: a channel that ignores the name's hashtag.
func (m *object) plainName(prefix, name string) string {
	return prefix + ":" + name
}

type Lock struct {
	*object
	client *redis.Client
}

const unlockScript = `
if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then
	return nil
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[1])
return 1
`

// Fixed, as the project has it.
func (m *Lock) Unlock(ctx context.Context, owner string) error {
	return m.client.Eval(ctx, unlockScript, []string{m.name, m.prefixName("redisson_lock__channel", m.name)}, 0, owner).Err()
}

func (m *Lock) UnlockPlain(ctx context.Context, owner string) error {
	return m.client.Eval(ctx, unlockScript, []string{m.name, m.plainName("redisson_lock__channel", m.name)}, 0, owner).Err() // want `EVAL keys "<m.name>" \(hashtag unknown\) and "redisson_lock__channel:<m.name>" \(hashtag unknown\) may hash to different slots`
}
