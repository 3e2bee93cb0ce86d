package paramkeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: ecodeclub/ginx v0.0.2 (session/redis/session.go): a session is
// a hash under "session:" + ssid, set once in its constructor, and Del of
// one of the session's fields sends DEL of the session's key and the
// caller's field name, two keys in one command, where HDEL was meant.
// Session is exported, and its callers are in other modules: nothing
// keeps the caller's key in the session key's slot.
type Session struct {
	client     redis.Cmdable
	key        string
	expiration time.Duration
}

func NewSession(ssid string, expiration time.Duration, client redis.Cmdable) *Session {
	return &Session{client: client, key: "session:" + ssid, expiration: expiration}
}

func (sess *Session) Destroy(ctx context.Context) error {
	return sess.client.Del(ctx, sess.key).Err()
}

func (sess *Session) Del(ctx context.Context, key string) error { // want Del:`keyWrapper\(DEL "session:<ssid>" "<key>"\)`
	return sess.client.Del(ctx, sess.key, key).Err() // want `DEL of the callers' keys`
}

// Fixed: a field of the session's hash.
func (sess *Session) DelField(ctx context.Context, key string) error {
	return sess.client.HDel(ctx, sess.key, key).Err()
}
