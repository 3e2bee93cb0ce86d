// Package keysargs holds scripts whose KEYS and ARGV a helper builds and
// returns together with an error, keys, args, err, reduced from real
// projects. The key flow follows the helper's []string results to the
// script's call, so KEYS and ARGV are checked there as if they were built
// in place; a key the helper's key functions return only where the shard
// is not a cluster is no key on a cluster, and is left out.
package keysargs

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// Origin: centrifugal/centrifuge (presence_redis.go, with
// internal/redis_lua/presence_add.lua and presence_rem.lua): the presence
// manager's addPresenceScriptKeysArgs and removePresenceScriptKeysArgs
// build KEYS and ARGV, and addPresence runs
// addPresenceScript.Exec(ctx, s.client, keys, args). Its key functions
// return prefix + ".presence.expire." + ch on one server and put the
// channel in a hashtag on a cluster.
const prefix = "centrifuge"

var addScript = rueidis.NewLuaScript(`
redis.call("hset", KEYS[2], ARGV[2], ARGV[3])
redis.call("expire", KEYS[2], ARGV[1])
redis.call("zadd", KEYS[1], ARGV[1], ARGV[2])
if ARGV[5] ~= '0' then
	redis.call("hincrby", KEYS[4], ARGV[4], 1)
	redis.call("zadd", KEYS[3], ARGV[1], ARGV[4])
end
`)

var remScript = rueidis.NewLuaScript(`
redis.call("hdel", KEYS[2], ARGV[1])
redis.call("zrem", KEYS[1], ARGV[1])
redis.call("hincrby", ARGV[3], ARGV[2], -1)
`)

var remFixed = rueidis.NewLuaScript(`
redis.call("hdel", KEYS[2], ARGV[1])
redis.call("zrem", KEYS[1], ARGV[1])
redis.call("hincrby", KEYS[3], ARGV[2], -1)
`)

type shard struct {
	client    rueidis.Client
	isCluster bool
}

type presenceManager struct {
	ttl         time.Duration
	userMapping bool
}

func (m *presenceManager) setKey(s *shard, ch string) string {
	if !s.isCluster {
		return prefix + ".presence.expire." + ch
	}
	return prefix + ".presence.expire.{" + ch + "}"
}

func (m *presenceManager) hashKey(s *shard, ch string) string {
	if !s.isCluster {
		return prefix + ".presence.data." + ch
	}
	return prefix + ".presence.data.{" + ch + "}"
}

func (m *presenceManager) userSetKey(s *shard, ch string) string {
	if !s.isCluster {
		return prefix + ".presence.user.expire." + ch
	}
	return prefix + ".presence.user.expire.{" + ch + "}"
}

func (m *presenceManager) userHashKey(s *shard, ch string) string {
	if !s.isCluster {
		return prefix + ".presence.user.clients." + ch
	}
	return prefix + ".presence.user.clients.{" + ch + "}"
}

func (m *presenceManager) mappingArg() string {
	if m.userMapping {
		return "1"
	}
	return "0"
}

// addKeysArgs is the fixed form: four keys in the channel's slot.
func (m *presenceManager) addKeysArgs(s *shard, ch, uid, user string, info []byte) ([]string, []string, error) {
	if uid == "" {
		return nil, nil, errors.New("presence: no client id")
	}
	keys := []string{m.setKey(s, ch), m.hashKey(s, ch), m.userSetKey(s, ch), m.userHashKey(s, ch)}
	expire := int(m.ttl.Seconds())
	args := []string{strconv.Itoa(expire), uid, string(info), user, m.mappingArg()}
	return keys, args, nil
}

func (m *presenceManager) addPresence(ctx context.Context, s *shard, ch, uid, user string, info []byte) error {
	keys, args, err := m.addKeysArgs(s, ch, uid, user, info)
	if err != nil {
		return err
	}
	return addScript.Exec(ctx, s.client, keys, args).Error()
}

// addKeysArgsBad builds the per-user keys without the channel's hashtag.
func (m *presenceManager) addKeysArgsBad(s *shard, ch, uid, user string) ([]string, []string, error) {
	if uid == "" {
		return nil, nil, errors.New("presence: no client id")
	}
	keys := []string{m.setKey(s, ch), m.hashKey(s, ch), "presence:users:" + ch, "presence:clients:" + ch}
	return keys, []string{"60", uid, "", user, "1"}, nil
}

func (m *presenceManager) addPresenceBad(ctx context.Context, s *shard, ch, uid, user string) error {
	keys, args, err := m.addKeysArgsBad(s, ch, uid, user)
	if err != nil {
		return err
	}
	return addScript.Exec(ctx, s.client, keys, args).Error() // want `EVALSHA keys "centrifuge.presence.expire.{<ch>}" .* and "presence:users:<ch>" .* may hash to different slots`
}

// addKeysArgsShort passes two keys to a script that reads four.
func (m *presenceManager) addKeysArgsShort(s *shard, ch, uid, user string) ([]string, []string, error) {
	keys := []string{m.setKey(s, ch), m.hashKey(s, ch)}
	return keys, []string{"60", uid, "", user, "1"}, nil
}

func (m *presenceManager) addPresenceShort(ctx context.Context, s *shard, ch, uid, user string) error {
	keys, args, err := m.addKeysArgsShort(s, ch, uid, user)
	if err != nil {
		return err
	}
	return addScript.Exec(ctx, s.client, keys, args).Error() // want `script addScript line 6: KEYS\[4\] is nil: the call passes 2 keys` `script addScript line 7: KEYS\[3\] is nil: the call passes 2 keys`
}

// remKeysArgsBad passes the per-user hash key in ARGV.
func (m *presenceManager) remKeysArgsBad(s *shard, ch, uid, user string) ([]string, []string, error) {
	keys := []string{m.setKey(s, ch), m.hashKey(s, ch)}
	args := []string{uid, user, m.userHashKey(s, ch)}
	return keys, args, nil
}

func (m *presenceManager) removePresenceBad(ctx context.Context, s *shard, ch, uid, user string) error {
	keys, args, err := m.remKeysArgsBad(s, ch, uid, user)
	if err != nil {
		return err
	}
	return remScript.Exec(ctx, s.client, keys, args).Error() // want `script remScript line 4: redis.call\("hincrby", ARGV\[3\], ARGV\[2\], -1\) touches a key not declared in KEYS: ARGV\[3\]; it keeps the hashtag "{<ch>}" of KEYS\[1\]` `script remScript line 4: ARGV\[3\] \("centrifuge.presence.user.clients.{<ch>}"\) is used as a key`
}

// remKeysArgs is the fixed form: the per-user hash key is in KEYS.
func (m *presenceManager) remKeysArgs(s *shard, ch, uid, user string) ([]string, []string, error) {
	keys := []string{m.setKey(s, ch), m.hashKey(s, ch), m.userHashKey(s, ch)}
	args := []string{uid, user}
	return keys, args, nil
}

func (m *presenceManager) removePresence(ctx context.Context, s *shard, ch, uid, user string) error {
	keys, args, err := m.remKeysArgs(s, ch, uid, user)
	if err != nil {
		return err
	}
	return remFixed.Exec(ctx, s.client, keys, args).Error()
}
