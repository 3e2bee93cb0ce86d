package fields

import (
	"context"

	"github.com/go-redis/redis/v8"
)

// Origin: MaricoHan/redisson v1.0.0 (mutex/mutex.go, utils.ChannelName):
// a lock whose key is its bare name and whose unlock script publishes on
// "redisson_lock__channel:{" + name + "}". The two keys share a slot only
// while the name holds no hashtag of its own ("lock:{u1}" does).
type mutex struct {
	Name string
	rdb  *redis.Client
}

const unlockScript = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("DEL", KEYS[1])
  redis.call("PUBLISH", KEYS[2], "unlocked")
  return 1
end
return 0
`

func channelName(name string) string { return "redisson_lock__channel:{" + name + "}" }

func (m *mutex) unlock(ctx context.Context, token string) error {
	return m.rdb.Eval(ctx, unlockScript, []string{m.Name, channelName(m.Name)}, token).Err() // want `EVAL keys "<m.Name>" \(hashtag unknown\) and "redisson_lock__channel:{<m.Name>}" \(hashtag "{<m.Name>}"\) may hash to different slots`
}

// Fixed: the lock's key is its name inside the same hashtag as the
// channel's.
func (m *mutex) unlockFixed(ctx context.Context, token string) error {
	return m.rdb.Eval(ctx, unlockScript, []string{"{" + m.Name + "}", channelName(m.Name)}, token).Err()
}
