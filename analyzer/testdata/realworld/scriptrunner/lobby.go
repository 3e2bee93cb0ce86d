// Package scriptrunner is reduced from CryptoElementals/ElementalsAPI
// (common/redis/script.go and lobby_server/player_info/redis_store.go): a
// game lobby runs its redigo scripts through helpers of its own that take
// the script and its keys and arguments as one list, keysAndArgs, and
// hand them to Script.Do; which of them are keys, the script's key count
// says, and only the caller knows the script. A matchmaking script takes
// the queue, the pending pairs and the players in game, three keys with
// no common hashtag. Nothing was checked: the helper's keys were not
// known, and its callers were not given them.
package scriptrunner

import (
	"github.com/gomodule/redigo/redis"
)

func newScript(keyCount int, src string) *redis.Script {
	return redis.NewScript(keyCount, src)
}

func scriptDo(pool *redis.Pool, s *redis.Script, keysAndArgs ...interface{}) (interface{}, error) {
	c := pool.Get()
	defer c.Close()
	return s.Do(c, keysAndArgs...)
}

func scriptInt(pool *redis.Pool, s *redis.Script, keysAndArgs ...interface{}) (int, error) {
	return redis.Int(scriptDo(pool, s, keysAndArgs...))
}

var queueAddScript = newScript(3, `
if redis.call("SISMEMBER", KEYS[3], ARGV[1]) == 1 then return 0 end
if redis.call("HEXISTS", KEYS[2], ARGV[1]) == 1 then return 0 end
return redis.call("ZADD", KEYS[1], ARGV[2], ARGV[1])
`)

type store struct {
	pool                          *redis.Pool
	queueZSet, pendingMap, inGame string
}

func newStore(pool *redis.Pool, namespace string) *store {
	return &store{pool: pool, queueZSet: namespace + ":queue:zset", pendingMap: namespace + ":pending:hash", inGame: namespace + ":ingame:set"}
}

func (s *store) addQueue(player string, nowMs int64) (bool, error) {
	out, err := scriptInt(s.pool, queueAddScript, s.queueZSet, s.pendingMap, s.inGame, player, nowMs) // want `EVALSHA \(through scriptDo at lobby.go:\d+\) \(through scriptInt at lobby.go:\d+\) keys "<namespace>:queue:zset" \(hashtag unknown\) and "<namespace>:pending:hash" \(hashtag unknown\) may hash to different slots`
	return out == 1, err
}

// The fix: the lobby's keys under its namespace's hashtag.
type taggedStore struct {
	pool                          *redis.Pool
	queueZSet, pendingMap, inGame string
}

func newTaggedStore(pool *redis.Pool, namespace string) *taggedStore {
	tag := "{" + namespace + "}"
	return &taggedStore{pool: pool, queueZSet: tag + ":queue:zset", pendingMap: tag + ":pending:hash", inGame: tag + ":ingame:set"}
}

func (s *taggedStore) addQueue(player string, nowMs int64) (bool, error) {
	out, err := scriptInt(s.pool, queueAddScript, s.queueZSet, s.pendingMap, s.inGame, player, nowMs)
	return out == 1, err
}

// A script of no keys run through the same helper: its list is all ARGV.
var lobbyStatsScript = newScript(0, `return {ARGV[1], ARGV[2]}`)

func (s *store) stats(a, b string) (int, error) {
	return scriptInt(s.pool, lobbyStatsScript, "lobby:"+a, "queue:"+b)
}
