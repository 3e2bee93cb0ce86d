// Package registered is a Redis session store that registers itself by
// name, after astaxie/beego (session/redis/sess_redis.go: init calls
// session.Register("redis", redispder)): the package never names the
// Provider interface its value is handed as, and the manager calls it only
// through that interface, so the rename is checked here.
package registered

import (
	"github.com/gomodule/redigo/redis"

	"slotlint.test/realworld/sessions/session"
)

type Provider struct {
	pool *redis.Pool
}

var provider = &Provider{}

func init() { session.Register("redis", provider) }

func (p *Provider) SessionRegenerate(oldsid, sid string) error {
	c := p.pool.Get()
	defer c.Close()
	_, err := c.Do("RENAME", oldsid, sid) // want `RENAME keys "<oldsid>" .* and "<sid>" .* may hash to different slots`
	return err
}

func (p *Provider) SessionDestroy(sid string) error {
	c := p.pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", sid)
	return err
}

// TaggedProvider keeps every session under the key of its id in a
// hashtag, and moves it with one RENAME of two keys of one slot: the
// session's data is copied to the new id before the old key goes.
type TaggedProvider struct {
	pool *redis.Pool
}

func init() { session.Register("redis-tagged", &TaggedProvider{}) }

func (p *TaggedProvider) SessionRegenerate(oldsid, sid string) error {
	c := p.pool.Get()
	defer c.Close()
	data, err := redis.Bytes(c.Do("GET", "session:{"+oldsid+"}"))
	if err != nil && err != redis.ErrNil {
		return err
	}
	if _, err := c.Do("SET", "session:{"+sid+"}", data, "EX", 3600); err != nil {
		return err
	}
	_, err = c.Do("DEL", "session:{"+oldsid+"}")
	return err
}

func (p *TaggedProvider) SessionDestroy(sid string) error {
	c := p.pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", "session:{"+sid+"}")
	return err
}
