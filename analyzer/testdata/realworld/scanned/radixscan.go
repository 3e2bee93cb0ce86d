package scanned

import (
	"github.com/mediocregopher/radix/v3"
)

// Origin: botlabs-gg/yagpdb v2.38.0 (analytics/backgroundworker.go,
// saveTempStats): each key a radix Scanner fills in through &key is
// renamed to "temp_" + key before it is read; the key and its copy are in
// two slots.
func saveTempStats(pool *radix.Pool) error {
	return pool.Do(radix.WithConn("", func(c radix.Conn) error {
		s := radix.NewScanner(c, radix.ScanOpts{Command: "SCAN", Pattern: "analytics_active_units.*"})
		var key string
		for s.Next(&key) {
			if err := c.Do(radix.Cmd(nil, "RENAME", key, "temp_"+key)); err != nil { // want `RENAME keys "<key>" \(hashtag unknown\) and "temp_<key>" \(hashtag unknown\) may hash to different slots`
				return err
			}
		}
		return s.Close()
	}))
}

// Fixed: each key's counts are read and the key deleted in one script of
// that key alone, atomic as the rename was, with no second key.
var takeCounts = radix.NewEvalScript(1, `local v = redis.call("HGETALL", KEYS[1]) redis.call("DEL", KEYS[1]) return v`)

func saveTempStatsFixed(pool *radix.Pool) error {
	return pool.Do(radix.WithConn("", func(c radix.Conn) error {
		s := radix.NewScanner(c, radix.ScanOpts{Command: "SCAN", Pattern: "analytics_active_units.*"})
		var key string
		for s.Next(&key) {
			var counts map[string]string
			if err := c.Do(takeCounts.Cmd(&counts, key)); err != nil {
				return err
			}
		}
		return s.Close()
	}))
}
