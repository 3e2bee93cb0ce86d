package oldredigo

import (
	"fmt"

	"github.com/garyburd/redigo/redis"
)

// Origin: RedisLabs/redis-recommend (redrec/engine.go,
// getSimilarityCandidates and getSuggestCandidates): a temporary key and
// a count of float64(max) first, then one key per item or user that a
// loop appends, then WEIGHTS and AGGREGATE. The count is not known, but
// ZUNIONSTORE refuses 0, so the first key after it is a key beside the
// destination.
func similarityCandidates(c redis.Conn, items []string, max int) {
	args := []interface{}{}
	args = append(args, "ztmp", float64(max))
	for i := 0; i < max; i++ {
		args = append(args, fmt.Sprintf("item:%s:scores", items[i]))
	}
	c.Do("ZUNIONSTORE", args...) // want `ZUNIONSTORE keys "ztmp" \(slot 11767\) and "item:<items\[i\]>:scores" \(hashtag unknown\) may hash to different slots`
}

func suggestCandidates(c redis.Conn, user string, similar []string) {
	args := []interface{}{}
	args = append(args, "ztmp", float64(len(similar)+1), fmt.Sprintf("user:%s:items", user))
	weights := []interface{}{"WEIGHTS", -1.0}
	for _, u := range similar {
		args = append(args, fmt.Sprintf("user:%s:items", u))
		weights = append(weights, 1.0)
	}
	args = append(args, weights...)
	args = append(args, "AGGREGATE", "MIN")
	c.Do("ZUNIONSTORE", args...) // want `ZUNIONSTORE keys "ztmp" \(slot 11767\) and "user:<user>:items" \(hashtag unknown\) may hash to different slots`
}

// Fixed: the engine's keys share the hashtag {rec}.
func similarityCandidatesFixed(c redis.Conn, items []string, max int) {
	args := []interface{}{}
	args = append(args, "{rec}:ztmp", float64(max))
	for i := 0; i < max; i++ {
		args = append(args, fmt.Sprintf("{rec}:item:%s:scores", items[i]))
	}
	c.Do("ZUNIONSTORE", args...)
}

func suggestCandidatesFixed(c redis.Conn, user string, similar []string) {
	args := []interface{}{}
	args = append(args, "{rec}:ztmp", float64(len(similar)+1), fmt.Sprintf("{rec}:user:%s:items", user))
	weights := []interface{}{"WEIGHTS", -1.0}
	for _, u := range similar {
		args = append(args, fmt.Sprintf("{rec}:user:%s:items", u))
		weights = append(weights, 1.0)
	}
	args = append(args, weights...)
	args = append(args, "AGGREGATE", "MIN")
	c.Do("ZUNIONSTORE", args...)
}

// Origin: koding/redis (redis.go, RedisSession.SortedSetsUnion): the
// session's prefix joined to the destination and to each of the caller's
// keys, counted by len(keys), the caller's weights spread after them, all
// sent through the session's Do.
type Session struct {
	pool   *redis.Pool
	prefix string
}

func (r *Session) Do(cmd string, args ...interface{}) (interface{}, error) { // want Do:`keyWrapper\(Do raw \$0\.\.\.\)`
	conn := r.pool.Get()
	defer conn.Close()
	return conn.Do(cmd, args...)
}

// SetPrefix puts every key under name.
func (r *Session) SetPrefix(name string) { r.prefix = name + ":" }

func (r *Session) addPrefix(name string) string { return r.prefix + name }

func (r *Session) SortedSetsUnion(destination string, keys []string, weights []interface{}, aggregate string) (int64, error) {
	n := len(keys)
	prefixed := []interface{}{r.addPrefix(destination), n}
	for _, key := range keys {
		prefixed = append(prefixed, r.addPrefix(key))
	}
	if len(weights) != 0 {
		prefixed = append(prefixed, "WEIGHTS")
		prefixed = append(prefixed, weights...)
	}
	if aggregate != "" {
		prefixed = append(prefixed, "AGGREGATE", aggregate)
	}
	return redis.Int64(r.Do("ZUNIONSTORE", prefixed...)) // want `ZUNIONSTORE \(through Do at zstore.go:\d+\) keys "<name>:<destination>" \(hashtag unknown\) and "<name>:<key>" \(hashtag unknown\) may hash to different slots`
}

// Fixed: one owner's sets, under the owner's hashtag.
func (r *Session) OwnerSetsUnion(owner string, names []string, weights []interface{}) (int64, error) {
	prefixed := []interface{}{r.addPrefix("{" + owner + "}:union"), len(names)}
	for _, name := range names {
		prefixed = append(prefixed, r.addPrefix("{"+owner+"}:"+name))
	}
	if len(weights) != 0 {
		prefixed = append(prefixed, "WEIGHTS")
		prefixed = append(prefixed, weights...)
	}
	return redis.Int64(r.Do("ZUNIONSTORE", prefixed...))
}
