package callerkeys

import (
	"encoding/json"

	"github.com/gomodule/redigo/redis"
)

// Origin: SnirkImmington/shadowroller (event/event.go, BulkUpdate, and
// player/player.go, Create): a game server's exported helpers take the
// caller's connection. BulkUpdate queues, in one MULTI/EXEC, a ZREM and
// a ZADD of each event on the game's one history key: the key is made in
// the loop but is the same at each turn, so the transaction has one key
// (it was reported as the callers' keys). Create writes the username
// index and the player's hash, HSET of redis.Args{}.Add(key).AddFlat(p),
// in one MULTI/EXEC: two keys (the struct flattened after the key was
// taken for keys not seen, and the transaction was not reported).
type historyEvent struct {
	ID   int64  `json:"id"`
	Kind string `json:"kind"`
}

func BulkUpdate(gameID string, events []historyEvent, conn redis.Conn) error {
	if err := conn.Send("MULTI"); err != nil {
		return err
	}
	for _, evt := range events {
		data, err := json.Marshal(evt)
		if err != nil {
			return err
		}
		conn.Send("ZREMRANGEBYSCORE", "history:"+gameID, evt.ID, evt.ID)
		conn.Send("ZADD", "history:"+gameID, evt.ID, data)
	}
	_, err := conn.Do("EXEC")
	return err
}

type gamePlayer struct {
	ID       string `redis:"id"`
	Username string `redis:"uname"`
}

func CreatePlayer(p *gamePlayer, conn redis.Conn) error {
	conn.Send("MULTI") // want `MULTI/EXEC transaction keys "player_ids" \(slot \d+\) and "player:<p.ID>" \(hashtag unknown\) may hash to different slots`
	conn.Send("HSET", "player_ids", p.Username, p.ID)
	conn.Send("HSET", redis.Args{}.Add("player:"+p.ID).AddFlat(p)...)
	_, err := conn.Do("EXEC")
	return err
}

// The fix: the index of one player's name beside the player, under the
// player's hashtag.
func CreatePlayerTagged(p *gamePlayer, conn redis.Conn) error {
	conn.Send("MULTI")
	conn.Send("SET", "player:{"+p.ID+"}:uname", p.Username)
	conn.Send("HSET", redis.Args{}.Add("player:{"+p.ID+"}").AddFlat(p)...)
	_, err := conn.Do("EXEC")
	return err
}
