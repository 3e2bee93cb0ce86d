// Package radixv2 uses radix.v2 (github.com/mediocregopher/radix.v2):
// Cmd sends a raw command, the command's name and its arguments, on a
// Client, a Pool or a Cluster; PipeAppend queues one on a Client; MULTI,
// its commands and EXEC sent on one Client are a transaction.
//
// Reduced from cgrates/cgrates v0.10.4 (engine/storage_redis.go,
// RedisStorage.Cmd and SetFilterIndexesDrv): the storage's own Cmd passes
// the command and its arguments on to a pooled Client, and the indexes
// written under a transaction's temporary key are renamed to the origin
// key at commit; the temporary key is joined by another package's helper.
// Written anew, each cross-slot form followed by its fix.
package radixv2

import (
	"github.com/mediocregopher/radix.v2/cluster"
	"github.com/mediocregopher/radix.v2/pool"
	"github.com/mediocregopher/radix.v2/redis"

	"slotlint.test/clients/radixv2/utils"
)

const redisRENAME = "RENAME"

type RedisStorage struct {
	dbPool *pool.Pool
}

func (rs *RedisStorage) Cmd(cmd string, args ...interface{}) *redis.Resp { // want Cmd:`keyWrapper\(Cmd raw \$0...\)`
	c1, err := rs.dbPool.Get()
	if err != nil {
		return redis.NewResp(err)
	}
	result := c1.Cmd(cmd, args...)
	rs.dbPool.Put(c1)
	return result
}

func (rs *RedisStorage) setIndexes(prefix, itemIDPrefix, transactionID string) error {
	originKey := prefix + itemIDPrefix
	dbKey := "tmp_" + utils.ConcatenatedKey(originKey, transactionID)
	return rs.Cmd(redisRENAME, dbKey, originKey).Err // want `RENAME \(through Cmd at radixv2.go:\d+\) keys "tmp_<prefix><itemIDPrefix>:<transactionID>" \(hashtag unknown\) and "<prefix><itemIDPrefix>" \(hashtag unknown\) may hash to different slots`
}

// Fixed: the temporary key keeps the origin key as its hashtag.
func (rs *RedisStorage) setIndexesFixed(prefix, itemIDPrefix, transactionID string) error {
	originKey := "{" + prefix + itemIDPrefix + "}"
	dbKey := "tmp_" + utils.ConcatenatedKey(originKey, transactionID)
	return rs.Cmd(redisRENAME, dbKey, originKey).Err
}

func multiKey(c *cluster.Cluster, conn *redis.Client, p *pool.Pool) {
	p.Cmd("MGET", "cart:1", "cart:2") // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	p.Cmd("MGET", "cart:{1}:items", "cart:{1}:total")
	c.Cmd("MGET", "cart:1", "cart:2") // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	c.Cmd("MGET", "cart:{1}:items", "cart:{1}:total")
	conn.PipeAppend("MGET", "cart:1", "cart:2") // want `MGET keys "cart:1" .* and "cart:2" .* hash to different slots`
	conn.PipeAppend("MGET", "cart:{1}:items", "cart:{1}:total")
	conn.PipeResp()
}

func transaction(conn *redis.Client) {
	conn.Cmd("MULTI") // want `MULTI/EXEC transaction keys "order:1" .* and "order:2" .* hash to different slots`
	conn.Cmd("SET", "order:1", "1")
	conn.Cmd("SET", "order:2", "2")
	conn.Cmd("EXEC")

	conn.Cmd("MULTI")
	conn.Cmd("SET", "{order}:1", "1")
	conn.Cmd("SET", "{order}:2", "2")
	conn.Cmd("EXEC")
}
