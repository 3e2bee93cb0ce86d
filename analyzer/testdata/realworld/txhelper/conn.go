package txhelper

import (
	redigo "github.com/gomodule/redigo/redis"
)

// Origin: izumin5210/ro v0.4.0 (put.go, redisStore.Put and set): Put
// sends MULTI on a redigo connection, hands the connection to set for each
// model, which sends the model's HMSET and a ZADD to each of its score
// sets, and then sends EXEC: every command set sends is queued in Put's
// transaction.
type model struct {
	suffix string
	scores map[string]float64
}

type objectStore struct {
	pool                                    *redigo.Pool
	keyPrefix, keyDelimiter, scoreDelimiter string
}

func (s *objectStore) Put(models []model) error {
	conn := s.pool.Get()
	defer conn.Close()
	conn.Send("MULTI") // want `MULTI/EXEC transaction keys built as "<s.keyPrefix><s.keyDelimiter><m.suffix>" from different values may hash to different slots`
	for _, m := range models {
		if err := s.set(conn, m); err != nil {
			conn.Do("DISCARD")
			return err
		}
	}
	_, err := conn.Do("EXEC")
	return err
}

func (s *objectStore) set(conn redigo.Conn, m model) error {
	key := s.keyPrefix + s.keyDelimiter + m.suffix
	if err := conn.Send("HMSET", key, "suffix", m.suffix); err != nil {
		return err
	}
	for ks, score := range m.scores {
		if err := conn.Send("ZADD", s.keyPrefix+s.scoreDelimiter+ks, score, key); err != nil {
			return err
		}
	}
	return nil
}

// The fixed form sends each model's commands without MULTI: a model's
// hash and its score sets are in different slots, so no transaction can
// hold them on a cluster. A helper handed the connection outside any
// MULTI is not part of a transaction.
func (s *objectStore) PutEach(models []model) error {
	conn := s.pool.Get()
	defer conn.Close()
	for _, m := range models {
		if err := s.set(conn, m); err != nil {
			return err
		}
	}
	return conn.Flush()
}
