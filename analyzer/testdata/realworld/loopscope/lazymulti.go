package loopscope

import (
	"github.com/garyburd/redigo/redis"
)

// Presence keeps one key per user that expires when the user goes quiet.
type Presence struct {
	pool     *redis.Pool
	prefix   string
	inactive string
}

// Online marks the users online: the keys of those not yet there are set.
func (s *Presence) Online(existence []int, ids ...string) error { // want Online:`keyWrapper\(MULTI/EXEC transaction \(through setMissing at lazymulti.go:32\) "<s.prefix><ids\[i\]>" each of \$1\)`
	return s.setMissing(ids, existence) // want `MULTI/EXEC transaction \(through setMissing at lazymulti.go:32\) of the callers' keys "<s.prefix><ids\[i\]>"`
}

// Origin: cihangir/presence (redis.go, sendMultiSetIfRequired): the MULTI
// is sent on the first turn of the loop that needs it, and every later
// turn queues its SETEX in the same transaction, which one EXEC after
// the loop sends: one user's key per turn, in one MULTI/EXEC.
func (s *Presence) setMissing(ids []string, existence []int) error {
	c := s.pool.Get()
	defer c.Close()
	queued := 0
	for i, exists := range existence {
		if exists != 0 {
			continue
		}
		if queued == 0 {
			c.Send("MULTI")
		}
		queued++
		c.Send("SETEX", s.prefix+ids[i], s.inactive, ids[i])
	}
	if queued != 0 {
		if _, err := c.Do("EXEC"); err != nil {
			return err
		}
	}
	return nil
}

// Fixed: each user's key is set by a command of its own, in a plain
// pipeline, which a cluster client splits by slot.
func (s *Presence) setMissingFixed(ids []string, existence []int) error {
	c := s.pool.Get()
	defer c.Close()
	for i, exists := range existence {
		if exists == 0 {
			c.Send("SETEX", s.prefix+ids[i], s.inactive, ids[i])
		}
	}
	return c.Flush()
}

// A transaction per turn, opened and sent in the loop: each holds one key.
func (s *Presence) setEach(ids []string) error {
	c := s.pool.Get()
	defer c.Close()
	for _, id := range ids {
		if id == "" {
			continue
		}
		c.Send("MULTI")
		c.Send("SETEX", s.prefix+id, s.inactive, id)
		if _, err := c.Do("EXEC"); err != nil {
			return err
		}
	}
	return nil
}
