// Package keyfuncs holds caches whose keys come from a key function kept
// in a struct field: a default closure that the constructor sets, or the
// caller's own function through an option.
package keyfuncs

import (
	"strconv"

	"github.com/gomodule/redigo/redis"
)

// Origin: mercari/datastore (dsmiddleware/rediscache: rediscache.go,
// option.go): a datastore cache whose handler keeps a cacheKey function.
// New sets it to a closure of "mercari:rediscache:" + the entity key's
// encoding unless WithCacheKey gave one; SetMulti, GetMulti and
// DeleteMulti queue one command per entity in one MULTI/EXEC. The
// default keys of two entities are in two slots.
type Key struct{ ID int64 }

func (k Key) Encode() string { return strconv.FormatInt(k.ID, 36) }

type cacheHandler struct {
	conn     redis.Conn
	cacheKey func(key Key) string
}

// A CacheOption configures a cache.
type CacheOption interface{ Apply(*cacheHandler) }

type withCacheKey struct{ cacheKey func(key Key) string }

func (w *withCacheKey) Apply(o *cacheHandler) { o.cacheKey = w.cacheKey }

// WithCacheKey makes the cache build its keys with f.
func WithCacheKey(f func(key Key) string) CacheOption { return &withCacheKey{f} }

func New(conn redis.Conn, opts ...CacheOption) *cacheHandler {
	ch := &cacheHandler{conn: conn}
	for _, opt := range opts {
		opt.Apply(ch)
	}
	if ch.cacheKey == nil {
		ch.cacheKey = func(key Key) string {
			return "mercari:rediscache:" + key.Encode()
		}
	}
	return ch
}

func (ch *cacheHandler) SetMulti(keys []Key, values [][]byte) error {
	if err := ch.conn.Send("MULTI"); err != nil { // want `MULTI/EXEC transaction keys built as "mercari:rediscache:<key.Encode\(\)>" from different values may hash to different slots`
		return err
	}
	for i, key := range keys {
		if err := ch.conn.Send("SET", ch.cacheKey(key), values[i]); err != nil {
			return err
		}
	}
	_, err := ch.conn.Do("EXEC")
	return err
}

func (ch *cacheHandler) DeleteMulti(keys []Key) error {
	ch.conn.Send("MULTI") // want `MULTI/EXEC transaction keys built as "mercari:rediscache:<key.Encode\(\)>" from different values may hash to different slots`
	for _, key := range keys {
		ch.conn.Send("DEL", ch.cacheKey(key))
	}
	_, err := ch.conn.Do("EXEC")
	return err
}

// Fixed: the default closure puts every entity of the cache under one
// hashtag, so the transaction stays in one slot.
type taggedHandler struct {
	conn     redis.Conn
	cacheKey func(key Key) string
}

func NewTagged(conn redis.Conn) *taggedHandler {
	th := &taggedHandler{conn: conn}
	th.cacheKey = func(key Key) string {
		return "{mercari:rediscache}:" + key.Encode()
	}
	return th
}

func (th *taggedHandler) DeleteMulti(keys []Key) error {
	th.conn.Send("MULTI")
	for _, key := range keys {
		th.conn.Send("DEL", th.cacheKey(key))
	}
	_, err := th.conn.Do("EXEC")
	return err
}
