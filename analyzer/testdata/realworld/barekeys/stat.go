// Package barekeys is reduced from ProtocolONE/chihaya
// (middleware/cord/stat/stat.go): a BitTorrent tracker's statistics hook
// saves each announce in a hash whose key is the user's id itself, and
// adds the id to the set "lastUpdated", in one MULTI/EXEC on a redigo
// connection. The id is a key with no text of its own, and a key that is
// only a value was taken to give no evidence of its slot; but
// "lastUpdated" has no hashtag, so only a key whose hashtag is that very
// text shares its slot: the transaction spans two slots.
package barekeys

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

type statInfo struct {
	userID     string
	infoHash   string
	connID     int64
	downloaded int64
	left       int64
}

type hook struct{ pool *redis.Pool }

func (h *hook) saveStat(si statInfo) error {
	conn := h.pool.Get()
	defer conn.Close()
	field := fmt.Sprintf("%s.%d", si.infoHash, si.connID)
	err := conn.Send("MULTI") // want `MULTI/EXEC transaction keys "lastUpdated" \(slot 13807\) and "<si.userID>" \(hashtag unknown\) may hash to different slots`
	err = conn.Send("HMSET", si.userID, field+".downloaded", si.downloaded, field+".left", si.left)
	err = conn.Send("SADD", "lastUpdated", si.userID)
	_, err = conn.Do("EXEC")
	return err
}

// The fix: the hash alone in the transaction, and the index of updated
// users written after it, a command of its own.
func (h *hook) saveStatApart(si statInfo) error {
	conn := h.pool.Get()
	defer conn.Close()
	field := fmt.Sprintf("%s.%d", si.infoHash, si.connID)
	conn.Send("MULTI")
	conn.Send("HMSET", si.userID, field+".downloaded", si.downloaded, field+".left", si.left)
	conn.Send("HSET", si.userID, "updated", 1)
	if _, err := conn.Do("EXEC"); err != nil {
		return err
	}
	_, err := conn.Do("SADD", "lastUpdated", si.userID)
	return err
}
