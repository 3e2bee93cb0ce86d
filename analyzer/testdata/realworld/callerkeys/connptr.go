package callerkeys

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

// Origin: LeeQY/cache (cache.go): a cache library whose getConn hands out
// a pooled connection by pointer, *redis.Conn; MDelCache and
// UpdateExpiration queue one command per caller key in one MULTI/EXEC on
// (*conn).
var connPool *redis.Pool

func getConn() (*redis.Conn, error) {
	if connPool == nil {
		return nil, errors.New("pool is not created")
	}
	conn := connPool.Get()
	if conn.Err() != nil {
		conn.Close()
		return nil, conn.Err()
	}
	return &conn, nil
}

func MDelCache(keys []string) error { // want MDelCache:`keyWrapper\(MULTI/EXEC transaction "<keys\[i\]>" each of \$0\)`
	conn, err := getConn()
	if err != nil {
		return err
	}
	defer (*conn).Close()
	(*conn).Send("MULTI") // want `MULTI/EXEC transaction of the callers' keys "<keys\[i\]>": callers in other modules are not checked`
	for i := 0; i < len(keys); i++ {
		(*conn).Send("DEL", keys[i])
	}
	_, err = (*conn).Do("EXEC")
	return err
}

// Fixed: the cache's keys are one owner's fields under its hashtag.
func MDelOwnerCache(owner string, fields []string) error {
	conn, err := getConn()
	if err != nil {
		return err
	}
	defer (*conn).Close()
	(*conn).Send("MULTI")
	for i := 0; i < len(fields); i++ {
		(*conn).Send("DEL", "cache:{"+owner+"}:"+fields[i])
	}
	_, err = (*conn).Do("EXEC")
	return err
}
