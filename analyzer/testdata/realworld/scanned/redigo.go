package scanned

import (
	redigo "github.com/gomodule/redigo/redis"
)

// Origin: edgexfoundry/app-functions-sdk-go v1.3.1
// (internal/store/db/redis/store.go, RetrieveFromStore): the ids of a
// service's stored objects, kept in a set and read back with SMEMBERS
// through redigo's redis.Values, then read together with MGET. Each id is
// a key of its own (a UUID), of its own slot.
func retrieve(conn redigo.Conn, serviceKey string) ([][]byte, error) {
	ids, err := redigo.Values(conn.Do("SMEMBERS", "store:idl:"+serviceKey))
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return redigo.ByteSlices(conn.Do("MGET", ids...)) // want `MGET keys built as "<SMEMBERS reply>" from different values may hash to different slots`
}

// Fixed: one GET an id, pipelined on the connection.
func retrieveFixed(conn redigo.Conn, serviceKey string) ([][]byte, error) {
	ids, err := redigo.Strings(conn.Do("SMEMBERS", "store:idl:"+serviceKey))
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if err := conn.Send("GET", id); err != nil {
			return nil, err
		}
	}
	if err := conn.Flush(); err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(ids))
	for range ids {
		b, err := redigo.Bytes(conn.Receive())
		if err != nil && err != redigo.ErrNil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
