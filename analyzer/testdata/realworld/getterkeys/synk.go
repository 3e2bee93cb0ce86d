// Package getterkeys is reduced from CharlesHolbrow/synk (RedisSynk.go):
// a library that keeps game objects in Redis takes the objects as an
// interface of its own, and builds its keys from their methods: the
// object's key from its type key and id, and the key of the set of the
// chunk it is in. One MULTI/EXEC adds the object to its chunk's set and
// writes it. Keys the callers' objects give, through methods the library
// calls, were not read as the callers' keys.
package getterkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Object interface {
	TypeKey() string
	TagGetID() string
	GetSubKey() string
}

func redisKey(obj Object) string { return obj.TypeKey() + ":" + obj.TagGetID() }

type Synk struct{ rdb redis.Cmdable }

// Create is exported: the callers, in other modules, give the objects.
func (s *Synk) Create(ctx context.Context, obj Object, data string) error { // want Create:`keyWrapper\(MULTI/EXEC transaction \(through newObject at synk.go:32\) "<obj.GetSubKey\(\)>" "<obj.TypeKey\(\)>:<obj.TagGetID\(\)>"\)`
	return newObject(ctx, s.rdb, obj, data) // want `MULTI/EXEC transaction \(through newObject at synk.go:32\) of the callers' keys "<obj.GetSubKey\(\)>" and "<obj.TypeKey\(\)>:<obj.TagGetID\(\)>": callers in other modules are not checked`
}

func newObject(ctx context.Context, rdb redis.Cmdable, obj Object, data string) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, obj.GetSubKey(), redisKey(obj))
		p.Set(ctx, redisKey(obj), data, 0)
		return nil
	})
	return err
}

// The fix: one object's keys under its id's hashtag; the chunk's set is
// written on its own.
func (s *Synk) CreateTagged(ctx context.Context, obj Object, data string) error {
	key := obj.TypeKey() + ":{" + obj.TagGetID() + "}"
	if _, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, key, data, 0)
		p.Set(ctx, key+":version", 1, 0)
		return nil
	}); err != nil {
		return err
	}
	return s.rdb.SAdd(ctx, obj.GetSubKey(), key).Err()
}
