package paramkeys

import (
	"context"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/valyala/bytebufferpool"
)

// Origin: fasthttp/session v2.5.7 (providers/redis/provider_base.go): the
// session key is written into a buffer taken from bytebufferpool, the
// configured prefix, ":" and the session id, and Regenerate renames the
// old session's key to the new id's. Two session ids without a hashtag:
// the RENAME may cross slots on the cluster client the provider offers.
type sessionProvider struct {
	db        redis.UniversalClient
	keyPrefix string
}

func (p *sessionProvider) sessionKey(id []byte) string {
	key := bytebufferpool.Get()
	key.SetString(p.keyPrefix)
	key.WriteString(":")
	key.Write(id)
	keyStr := key.String()
	bytebufferpool.Put(key)
	return keyStr
}

func (p *sessionProvider) Regenerate(id, newID []byte, expiration time.Duration) error {
	ctx := context.Background()
	key, newKey := p.sessionKey(id), p.sessionKey(newID)
	if err := p.db.Rename(ctx, key, newKey).Err(); err != nil { // want `RENAME keys "<p.keyPrefix>:<id>" \(hashtag unknown\) and "<p.keyPrefix>:<newID>" \(hashtag unknown\) may hash to different slots`
		return err
	}
	return p.db.Expire(ctx, newKey, expiration).Err()
}

// RegenerateFixed is the fixed form: the session's data moves with one
// command per key, which works whatever slots the two ids have.
func (p *sessionProvider) RegenerateFixed(id, newID []byte, expiration time.Duration) error {
	ctx := context.Background()
	key, newKey := p.sessionKey(id), p.sessionKey(newID)
	data, err := p.db.Get(ctx, key).Bytes()
	if err != nil {
		return err
	}
	if err := p.db.Set(ctx, newKey, data, expiration).Err(); err != nil {
		return err
	}
	return p.db.Del(ctx, key).Err()
}

// Origin: go-chi/session (redis/redis.go, RedisProvider.Regenerate, and
// session.go, Manager.RegenSession): the key is the configured prefix
// joined to the session id, with no literal text of its own; the manager
// hands the provider, through its interface, the cookie's old id and a
// freshly generated one.
type rawProvider interface {
	Regenerate(oldsid, sid string) error
}

type prefixProvider struct {
	c      *redis.Client
	prefix string
}

func (p *prefixProvider) Regenerate(oldsid, sid string) error { // want Regenerate:`keyWrapper\(RENAME "<p.prefix><oldsid>" "<p.prefix><sid>"\)`
	poldsid := p.prefix + oldsid
	psid := p.prefix + sid
	return p.c.Rename(context.Background(), poldsid, psid).Err()
}

// RegenerateFixed moves the session's data with one command per key.
func (p *prefixProvider) RegenerateFixed(oldsid, sid string) error {
	ctx := context.Background()
	data, err := p.c.Get(ctx, p.prefix+oldsid).Result()
	if err != nil {
		return err
	}
	if err := p.c.Set(ctx, p.prefix+sid, data, 0).Err(); err != nil {
		return err
	}
	return p.c.Del(ctx, p.prefix+oldsid).Err()
}

type sessionManager struct {
	provider rawProvider
	newID    func() string
}

func (m *sessionManager) RegenSession(r *http.Request) error {
	c, err := r.Cookie("sid")
	if err != nil {
		return err
	}
	oldsid := c.Value
	sid := m.newID()
	return m.provider.Regenerate(oldsid, sid) // want `RENAME \(through Regenerate at sessionkeys.go:\d+\) keys "<m.provider.prefix><c.Value>" \(hashtag unknown\) and "<m.provider.prefix><m.newID\(\)>" \(hashtag unknown\) may hash to different slots`
}
