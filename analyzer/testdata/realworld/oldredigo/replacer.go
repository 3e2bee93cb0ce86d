package oldredigo

import (
	"strings"

	"github.com/garyburd/redigo/redis"
)

// Origin: soundcloud/roshi (cluster/cluster.go): one generic Lua text
// whose placeholders two strings.NewReplacer fill, at init, with the
// suffixes of a key's inserts set ("+") and deletes set ("-"). Each script
// is given the one key and ZADDs and ZREMs KEYS[1] .. '+' and
// KEYS[1] .. '-', keys it builds itself, which Redis Cluster cannot route.
const (
	insertSuffix = "+"
	deleteSuffix = "-"
)

var (
	genericScript = `
		local addKey = KEYS[1] .. 'ADDSUFFIX'
		local remKey = KEYS[1] .. 'REMSUFFIX'
		local insertTs = redis.call('ZSCORE', KEYS[1] .. 'INSERTSUFFIX', ARGV[2])
		if insertTs and tonumber(ARGV[1]) < tonumber(insertTs) then
			return -1
		end
		redis.call('ZREM', remKey, ARGV[2])
		return redis.call('ZADD', addKey, ARGV[1], ARGV[2])
	`
	insertScript *redis.Script
	deleteScript *redis.Script
)

func init() {
	genericScript = strings.NewReplacer(
		"INSERTSUFFIX", insertSuffix,
	).Replace(genericScript)

	insertScript = redis.NewScript(1, strings.NewReplacer(
		"REMSUFFIX", deleteSuffix,
		"ADDSUFFIX", insertSuffix,
	).Replace(genericScript))

	deleteScript = redis.NewScript(1, strings.NewReplacer(
		"REMSUFFIX", insertSuffix,
		"ADDSUFFIX", deleteSuffix,
	).Replace(genericScript))
}

func PipelineInsert(conn redis.Conn, key string, score float64, member string) error {
	return insertScript.Send(conn, key, score, member) // want `script insertScript line 4: redis.call\("ZSCORE", KEYS\[1\] \.\. "\+", ARGV\[2\]\) touches a key not declared in KEYS` `script insertScript line 8: redis.call\("ZREM", remKey, ARGV\[2\]\) touches a key not declared in KEYS: remKey holds the concatenation KEYS\[1\] \.\. "-"` `script insertScript line 9: redis.call\("ZADD", addKey, ARGV\[1\], ARGV\[2\]\) touches a key not declared in KEYS: addKey holds the concatenation KEYS\[1\] \.\. "\+"`
}

func PipelineDelete(conn redis.Conn, key string, score float64, member string) error {
	return deleteScript.Send(conn, key, score, member) // want `script deleteScript line 4: redis.call\("ZSCORE", KEYS\[1\] \.\. "\+", ARGV\[2\]\) touches a key not declared in KEYS` `script deleteScript line 8: redis.call\("ZREM", remKey, ARGV\[2\]\) touches a key not declared in KEYS: remKey holds the concatenation KEYS\[1\] \.\. "\+"` `script deleteScript line 9: redis.call\("ZADD", addKey, ARGV\[1\], ARGV\[2\]\) touches a key not declared in KEYS: addKey holds the concatenation KEYS\[1\] \.\. "-"`
}

// Fixed: the three sets of a key under its hashtag, each given in KEYS.
var taggedInsert = redis.NewScript(3, strings.NewReplacer("ADDKEY", "KEYS[2]", "REMKEY", "KEYS[3]").Replace(`
	local insertTs = redis.call('ZSCORE', KEYS[1], ARGV[2])
	if insertTs and tonumber(ARGV[1]) < tonumber(insertTs) then
		return -1
	end
	redis.call('ZREM', REMKEY, ARGV[2])
	return redis.call('ZADD', ADDKEY, ARGV[1], ARGV[2])
`))

func TaggedInsert(conn redis.Conn, key string, score float64, member string) error {
	return taggedInsert.Send(conn, "{"+key+"}+", "{"+key+"}+", "{"+key+"}-", score, member)
}
