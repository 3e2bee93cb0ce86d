package oldredigo

import (
	"fmt"

	"github.com/garyburd/redigo/redis"
)

// Origin: topfreegames/mqttbot (app/history.go, HistoryHandler): a chat
// history handler reads, in one MULTI/EXEC, a user's key and the key of the
// user's subscription to a topic, the user id with "-<topic>" after it.
// The user id is a request's query parameter, a value slotlint does not
// follow; the two keys share a slot only if every id holds a hashtag, and
// nothing puts one there.
type request interface {
	QueryParam(name string) string
	ParamValues() []string
}

func history(pool *redis.Pool, c request) ([]interface{}, error) {
	topic := c.ParamValues()[0]
	userID := c.QueryParam("userid")
	rc := pool.Get()
	defer rc.Close()
	rc.Send("MULTI") // want `MULTI/EXEC transaction keys "<c.QueryParam\(\\"userid\\"\)>" \(hashtag unknown\) and "<c.QueryParam\(\\"userid\\"\)>-<c.ParamValues\(\)\[0\]>" \(hashtag unknown\) may hash to different slots`
	rc.Send("GET", userID)
	rc.Send("GET", fmt.Sprintf("%s-%s", userID, topic))
	return redis.Values(rc.Do("EXEC"))
}

// The fix: both keys under the user's hashtag.
func historyTagged(pool *redis.Pool, c request) ([]interface{}, error) {
	topic := c.ParamValues()[0]
	userID := c.QueryParam("userid")
	rc := pool.Get()
	defer rc.Close()
	rc.Send("MULTI")
	rc.Send("GET", "{"+userID+"}")
	rc.Send("GET", fmt.Sprintf("{%s}-%s", userID, topic))
	return redis.Values(rc.Do("EXEC"))
}

// A value the function reads itself beside a key whose hashtag it is
// (radix's cluster tests: key and "{" + key + "}.foo"): the two share a
// slot unless the value holds a brace, which code that wraps it in braces
// takes it not to. Not reported.
func roomWithMembers(pool *redis.Pool, c request) ([]interface{}, error) {
	room := c.QueryParam("room")
	rc := pool.Get()
	defer rc.Close()
	rc.Send("MULTI")
	rc.Send("GET", room)
	rc.Send("SMEMBERS", "{"+room+"}:members")
	return redis.Values(rc.Do("EXEC"))
}
