package scanned

import (
	"github.com/garyburd/redigo/redis"
)

// Origin: Ptt-Alertor/ptt-alertor (models/pushsum/pushsum.go,
// DelDiffList): the keys that a raw KEYS of a pattern with no hashtag
// lists, deleted in one DEL of redigo's Args.AddFlat of them. On a
// cluster they are one node's keys, and of several slots.
var pushPool *redis.Pool

const pushPrefix = "pushsum:"

func DelDiffList(account, board, kind string) error {
	pattern := pushPrefix + account + ":" + board + ":" + kind + ":*"
	conn := pushPool.Get()
	defer conn.Close()
	keys, err := redis.Strings(conn.Do("KEYS", pattern)) // want `KEYS on conn, a client that may be a cluster, reads one node's keys only`
	if len(keys) > 0 {
		_, err = conn.Do("DEL", redis.Args{}.AddFlat(keys)...) // want `DEL keys built as "pushsum:<account>:<board>:<kind>:<\*>" from different values may hash to different slots`
	}
	return err
}

// Fixed: the lists of one account's board kept under its tag, listed from
// a set rather than the keyspace, and deleted in one DEL.
func DelDiffListTagged(account, board, kind string) error {
	tag := "{" + pushPrefix + account + ":" + board + ":" + kind + "}"
	conn := pushPool.Get()
	defer conn.Close()
	suffixes, err := redis.Strings(conn.Do("SMEMBERS", tag+":lists"))
	if err != nil || len(suffixes) == 0 {
		return err
	}
	args := redis.Args{}
	for _, s := range suffixes {
		args = args.Add(tag + ":" + s)
	}
	_, err = conn.Do("DEL", args...)
	return err
}
