// Package redisprovider is a Redis session store, after astaxie/beego
// (session/redis, SessionRegenerate): it renames the old session id's key
// to the new one's. Each key is the bare session id, random, and the two
// ids hash to different slots. The manager calls it through its Provider
// interface, in a package that does not import this one, so the rename is
// checked here.
package redisprovider

import (
	"github.com/gomodule/redigo/redis"

	"slotlint.test/realworld/sessions/session"
)

type Provider struct {
	pool *redis.Pool
}

func New(pool *redis.Pool) session.Provider { return &Provider{pool: pool} }

func (p *Provider) SessionRegenerate(oldsid, sid string) error {
	c := p.pool.Get()
	defer c.Close()
	existed, err := redis.Int(c.Do("EXISTS", oldsid))
	if err != nil || existed == 0 {
		_, err = c.Do("SET", sid, "", "EX", 3600)
		return err
	}
	_, err = c.Do("RENAME", oldsid, sid) // want `RENAME keys "<oldsid>" .* and "<sid>" .* may hash to different slots`
	return err
}

// CopyProvider moves the session by reading it and writing it under the
// new id, one key at a time: no command holds both keys.
type CopyProvider struct {
	pool *redis.Pool
}

func NewCopy(pool *redis.Pool) session.Provider { return &CopyProvider{pool: pool} }

func (p *CopyProvider) SessionRegenerate(oldsid, sid string) error {
	c := p.pool.Get()
	defer c.Close()
	data, err := redis.Bytes(c.Do("GET", oldsid))
	if err == redis.ErrNil {
		data, err = nil, nil
	}
	if err != nil {
		return err
	}
	if _, err := c.Do("SET", sid, data, "EX", 3600); err != nil {
		return err
	}
	_, err = c.Do("DEL", oldsid)
	return err
}

func (p *Provider) SessionDestroy(sid string) error {
	c := p.pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", sid)
	return err
}

func (p *CopyProvider) SessionDestroy(sid string) error {
	c := p.pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", sid)
	return err
}
