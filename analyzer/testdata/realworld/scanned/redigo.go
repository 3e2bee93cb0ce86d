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

// Origin: edgexfoundry/edgex-go v1.3.1
// (internal/pkg/v2/infrastructure/redis/queries.go, getObjectsBySomeRange):
// the range command is a parameter, ZRANGE or ZREVRANGE at every call;
// the ids it reads back from an index zset are read together with MGET by
// another helper.
func objectsByRange(conn redigo.Conn, command, key string, start, end int) ([][]byte, error) {
	ids, err := redigo.Values(conn.Do(command, key, start, end))
	if err != nil {
		return nil, err
	}
	return objectsByIds(conn, ids) // want `MGET \(through objectsByIds at redigo.go:62\) keys built as "<ZRANGE reply>" from different values may hash to different slots`
}

func objectsByIds(conn redigo.Conn, ids []interface{}) ([][]byte, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return redigo.ByteSlices(conn.Do("MGET", ids...))
}

func allDevices(conn redigo.Conn, offset, limit int) ([][]byte, error) {
	return objectsByRange(conn, "ZRANGE", "v2:device", offset, offset+limit-1)
}

func latestDevices(conn redigo.Conn, limit int) ([][]byte, error) {
	return objectsByRange(conn, "ZREVRANGE", "v2:device", 0, limit-1)
}

// Fixed: one GET an id read back, pipelined on the connection.
func objectsByRangeFixed(conn redigo.Conn, command, key string, start, end int) ([][]byte, error) {
	ids, err := redigo.Strings(conn.Do(command, key, start, end))
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(ids))
	for _, id := range ids {
		b, err := redigo.Bytes(conn.Do("GET", id))
		if err != nil && err != redigo.ErrNil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func allDevicesFixed(conn redigo.Conn) ([][]byte, error) {
	return objectsByRangeFixed(conn, "ZRANGE", "v2:device", 0, -1)
}
