// Package cmdrecords holds transactions whose commands are data: a slice
// of records, each a command's name and its arguments, that a helper
// sends one by one on a connection and ends with EXEC.
package cmdrecords

import (
	"github.com/gomodule/redigo/redis"
)

// Origin: pomerium/pomerium v0.10 (pkg/storage/redis/redis.go, DB.Put,
// DB.Delete, DB.ClearDeleted and DB.tx, here a function): a record's hash, the set of the
// deleted ones and the version zset are three keys made from one record
// type, each written in one MULTI/EXEC that a slice of maps holds.
type db struct {
	pool       *redis.Pool
	recordType string
	versionSet string
	deletedSet string
}

func newDB(pool *redis.Pool, recordType string) *db {
	return &db{
		pool:       pool,
		recordType: recordType,
		versionSet: recordType + "_version_set",
		deletedSet: recordType + "_deleted_set",
	}
}

// tx sends the records of one transaction, as pomerium's DB.tx does.
func tx(c redis.Conn, commands []map[string][]interface{}) error {
	for _, m := range commands {
		for cmd, args := range m {
			if err := c.Send(cmd, args...); err != nil {
				return err
			}
		}
	}
	_, err := c.Do("EXEC")
	return err
}

func (d *db) put(id string, data []byte, version int64) error {
	c := d.pool.Get()
	defer c.Close()
	cmds := []map[string][]interface{}{
		{"MULTI": nil},
		{"HSET": {d.recordType, id, string(data)}},
		{"ZADD": {d.versionSet, version, id}},
	}
	return tx(c, cmds) // want `MULTI/EXEC transaction \(through tx at cmdrecords.go:\d+\) keys "<d.recordType>" .* and "<recordType>_version_set" .* may hash to different slots`
}

func (d *db) clearDeleted(ids []string) error {
	c := d.pool.Get()
	defer c.Close()
	for _, id := range ids {
		err := tx(c, []map[string][]interface{}{ // want `MULTI/EXEC transaction \(through tx at cmdrecords.go:\d+\) keys "<d.recordType>" .* and "<recordType>_version_set" .* may hash to different slots`
			{"MULTI": nil},
			{"HDEL": {d.recordType, id}},
			{"ZREM": {d.versionSet, id}},
			{"SREM": {d.deletedSet, id}},
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Fixed: the three keys of a record type share its hashtag, so each
// MULTI/EXEC stays in one slot.
type taggedDB struct {
	pool       *redis.Pool
	recordType string
	versionSet string
}

func newTaggedDB(pool *redis.Pool, recordType string) *taggedDB {
	tag := "{" + recordType + "}"
	return &taggedDB{pool: pool, recordType: tag, versionSet: tag + "_version_set"}
}

func (d *taggedDB) put(id string, data []byte, version int64) error {
	c := d.pool.Get()
	defer c.Close()
	cmds := []map[string][]interface{}{
		{"MULTI": nil},
		{"HSET": {d.recordType, id, string(data)}},
		{"ZADD": {d.versionSet, version, id}},
	}
	return tx(c, cmds)
}
