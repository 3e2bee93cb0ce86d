package oldredigo

import (
	"strconv"

	"github.com/garyburd/redigo/redis"
)

// Origin: golang/gddo (database/database.go, Database.getPackages,
// AllPackages and Query): an index set sorted by, and read through, the
// fields of each package's hash with SORT BY and GET patterns; Redis
// Cluster refuses both, whatever hashtag they would carry.
func getPackages(c redis.Conn, key string) ([]interface{}, error) {
	return redis.Values(c.Do("SORT", key, "ALPHA", "BY", "pkg:*->path", "GET", "pkg:*->path", "GET", "pkg:*->synopsis")) // want `SORT with BY "pkg:\*->path", GET "pkg:\*->path", GET "pkg:\*->synopsis" fails on Redis Cluster`
}

func query(c redis.Conn, id string) {
	c.Send("SORT", id, "DESC", "BY", "nosort", "GET", "pkg:*->path") // want `SORT with GET "pkg:\*->path" fails on Redis Cluster`
	c.Send("DEL", id)
}

// Fixed: the ids are sorted alone, and each package's fields are read
// with their own HMGET (the hash keys are in any slot).
func getPackagesFixed(c redis.Conn, key string) ([][]string, error) {
	ids, err := redis.Strings(c.Do("SORT", key, "ALPHA"))
	if err != nil {
		return nil, err
	}
	var out [][]string
	for _, id := range ids {
		fields, err := redis.Strings(c.Do("HMGET", "pkg:"+id, "path", "synopsis"))
		if err != nil {
			return nil, err
		}
		out = append(out, fields)
	}
	return out, nil
}

func reindex(c redis.Conn, n int) ([]interface{}, error) {
	return redis.Values(c.Do("SORT", "nextCrawl", "LIMIT", strconv.Itoa(n), "200")) // no GET: the ids alone
}

// Origin: sunfmin/redisgosearch (search.go, Client.Search): the matches
// of a search, sorted by each entity's rank key, the SORT's arguments
// built in a slice first.
func search(c redis.Conn, keywordsKey string) ([]interface{}, error) {
	sortArgs := []interface{}{keywordsKey, "BY", "rank_*", "DESC"}
	return redis.Values(c.Do("SORT", sortArgs...)) // want `SORT with BY "rank_\*" fails on Redis Cluster`
}

// Fixed: the matches are sorted by a sorted set of their ranks, kept
// under the search's hashtag beside it, with ZINTERSTORE.
func searchFixed(c redis.Conn, query string) ([]interface{}, error) {
	kw := "{search:" + query + "}"
	args := []interface{}{kw + ":sorted", 2, kw, kw + ":ranks", "WEIGHTS", 0, 1}
	if _, err := c.Do("ZINTERSTORE", args...); err != nil {
		return nil, err
	}
	return redis.Values(c.Do("ZREVRANGE", kw+":sorted", 0, -1))
}

// Indexable is an entity of the search index.
type Indexable interface {
	IndexEntity() (indexType string, key string, rank int64)
}

// Origin: sunfmin/redisgosearch (index.go, Client.RemoveIndex): the
// entity's rank key is deleted with its rank, a number, passed beside it
// as a second key: DEL takes both as keys, and the number's key has no
// hashtag.
func removeRank(c redis.Conn, i Indexable) {
	indexType, key, rank := i.IndexEntity()
	entityKey := "search:" + indexType + ":entity:" + key
	c.Do("DEL", "rank_"+entityKey, rank) // want `DEL keys "rank_search:<i.IndexEntity\(\)>:entity:<key>" \(hashtag unknown\) and "<rank>" \(no hashtag\) may hash to different slots`
}

// Fixed: the rank key alone.
func removeRankFixed(c redis.Conn, i Indexable) {
	indexType, key, _ := i.IndexEntity()
	entityKey := "search:" + indexType + ":entity:" + key
	c.Do("DEL", "rank_"+entityKey)
}
