// Package intervals holds keys that a helper makes and fills by index and
// returns, read by a redigo script whose key count is its first argument
// and by MULTI/EXEC transactions that range over them.
package intervals

import (
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
)

// Origin: nyaruka/redisx v0.9.0 (interval_set.go, utils.go): a set kept as
// one key per interval, "<keyBase>:<timestamp>", made by intervalKeys into
// a slice made with make and filled by index, returned through the
// set's keys method. IsMember runs a NewScript(-1, ...) script with
// Add(len(keys)).AddFlat(keys); Rem and Clear queue a command per key in
// one MULTI/EXEC. The keys of two intervals are in two slots.
type intervalSet struct {
	keyBase  string
	interval time.Duration
	size     int
}

var isMemberScript = redis.NewScript(-1, `
for _, key in ipairs(KEYS) do
  if redis.call("SISMEMBER", key, ARGV[1]) == 1 then return 1 end
end
return 0
`)

func intervalKeys(keyBase string, interval time.Duration, size int) []string {
	now := time.Now()
	keys := make([]string, size)
	for i := range keys {
		timestamp := now.Add(-interval * time.Duration(i)).Format("2006-01-02T15:04")
		keys[i] = fmt.Sprintf("%s:%s", keyBase, timestamp)
	}
	return keys
}

func (s *intervalSet) keys() []string { return intervalKeys(s.keyBase, s.interval, s.size) }

func (s *intervalSet) isMember(rc redis.Conn, member string) (bool, error) {
	keys := s.keys()
	return redis.Bool(isMemberScript.Do(rc, redis.Args{}.Add(len(keys)).AddFlat(keys).Add(member)...)) // want `EVALSHA keys built as "<s.keyBase>:<now.Add\(-interval \* time.Duration\(i\)\)...>" from different values may hash to different slots`
}

// rem removes members from every interval: SREM of the key and the
// caller's members, which are not keys.
func (s *intervalSet) rem(rc redis.Conn, members ...string) error {
	rc.Send("MULTI") // want `MULTI/EXEC transaction keys built as "<s.keyBase>:<now.Add\(-interval \* time.Duration\(i\)\)...>" from different values may hash to different slots`
	for _, k := range s.keys() {
		rc.Send("SREM", redis.Args{}.Add(k).AddFlat(members)...)
	}
	_, err := rc.Do("EXEC")
	return err
}

// anyMember runs the script with the caller's members as ARGV.
func (s *intervalSet) anyMember(rc redis.Conn, members ...string) (bool, error) {
	keys := s.keys()
	return redis.Bool(isMemberScript.Do(rc, redis.Args{}.Add(len(keys)).AddFlat(keys).AddFlat(members)...)) // want `EVALSHA keys built as "<s.keyBase>:<now.Add\(-interval \* time.Duration\(i\)\)...>" from different values may hash to different slots`
}

func (s *intervalSet) clear(rc redis.Conn) error {
	rc.Send("MULTI") // want `MULTI/EXEC transaction keys built as "<s.keyBase>:<now.Add\(-interval \* time.Duration\(i\)\)...>" from different values may hash to different slots`
	for _, k := range s.keys() {
		rc.Send("DEL", k)
	}
	_, err := rc.Do("EXEC")
	return err
}

// Fixed, as nyaruka/vkutil (utils.go) makes the same keys:
// "{<keyBase>}:<timestamp>", so that every interval of one set is in one
// slot.
type taggedSet struct {
	keyBase  string
	interval time.Duration
	size     int
}

func taggedKeys(keyBase string, interval time.Duration, size int) []string {
	now := time.Now()
	keys := make([]string, size)
	for i := range keys {
		timestamp := now.Add(-interval * time.Duration(i)).Format("2006-01-02T15:04")
		keys[i] = fmt.Sprintf("{%s}:%s", keyBase, timestamp)
	}
	return keys
}

func (s *taggedSet) keys() []string { return taggedKeys(s.keyBase, s.interval, s.size) }

func (s *taggedSet) isMember(rc redis.Conn, member string) (bool, error) {
	keys := s.keys()
	return redis.Bool(isMemberScript.Do(rc, redis.Args{}.Add(len(keys)).AddFlat(keys).Add(member)...))
}

func (s *taggedSet) rem(rc redis.Conn, members ...string) error {
	rc.Send("MULTI")
	for _, k := range s.keys() {
		rc.Send("SREM", redis.Args{}.Add(k).AddFlat(members)...)
	}
	_, err := rc.Do("EXEC")
	return err
}

func (s *taggedSet) anyMember(rc redis.Conn, members ...string) (bool, error) {
	keys := s.keys()
	return redis.Bool(isMemberScript.Do(rc, redis.Args{}.Add(len(keys)).AddFlat(keys).AddFlat(members)...))
}

func (s *taggedSet) clear(rc redis.Conn) error {
	rc.Send("MULTI")
	for _, k := range s.keys() {
		rc.Send("DEL", k)
	}
	_, err := rc.Do("EXEC")
	return err
}
