package scanned

import (
	redigo "github.com/gomodule/redigo/redis"
)

// Origin: kumparan/cacher (keeper.go, Purge): redigo's reply of SCAN is a
// cursor and a page of keys, read back as res[0] and res[1] of
// redis.Values; each page the callers' pattern matches is deleted in one
// DEL, whose keys may be in many slots.
type purger struct{ pool *redigo.Pool }

// Purger is what other modules call.
type Purger interface {
	Purge(match string) error
	PurgeStrings(match string) error
	PurgeFixed(match string) error
}

// NewPurger returns a purger of the pool's keys.
func NewPurger(pool *redigo.Pool) Purger { return &purger{pool} }

func (p *purger) Purge(match string) error {
	client := p.pool.Get()
	defer client.Close()
	var cursor interface{} = "0"
	for {
		res, err := redigo.Values(client.Do("SCAN", cursor, "MATCH", match, "COUNT", 500000)) // want `SCAN on client, a client that may be a cluster, reads one node's keys only, with no error; send it on a connection to each master`
		if err != nil {
			return err
		}
		stop := res[0].([]uint8)
		if found, ok := res[1].([]interface{}); ok {
			if len(found) > 0 {
				if err := client.Send("DEL", found...); err != nil { // want `DEL keys built as "<SCAN reply>" from different values may hash to different slots`
					return err
				}
			}
			if stop[0] == '0' {
				break
			}
		}
		cursor = res[0]
	}
	return client.Flush()
}

// The same purge reading the page with redis.Strings, as most redigo SCAN
// loops do.
func (p *purger) PurgeStrings(match string) error {
	client := p.pool.Get()
	defer client.Close()
	cursor := 0
	for {
		res, err := redigo.Values(client.Do("SCAN", cursor, "MATCH", "cache:"+match+"*")) // want `SCAN on client, a client that may be a cluster, reads one node's keys only`
		if err != nil {
			return err
		}
		cursor, _ = redigo.Int(res[0], nil)
		keys, _ := redigo.Strings(res[1], nil)
		if len(keys) > 0 {
			if _, err := client.Do("DEL", redigo.Args{}.AddFlat(keys)...); err != nil { // want `DEL keys built as "cache:<match><\*>" from different values may hash to different slots`
				return err
			}
		}
		if cursor == 0 {
			return nil
		}
	}
}

// Fixed: each key of the page is deleted by a DEL of its own, pipelined on
// the connection.
func (p *purger) PurgeFixed(match string) error {
	client := p.pool.Get()
	defer client.Close()
	var cursor interface{} = "0"
	for {
		res, err := redigo.Values(client.Do("SCAN", cursor, "MATCH", match)) // want `SCAN on client, a client that may be a cluster, reads one node's keys only`
		if err != nil {
			return err
		}
		found, _ := res[1].([]interface{})
		for _, k := range found {
			if err := client.Send("DEL", k); err != nil {
				return err
			}
		}
		if c, _ := redigo.String(res[0], nil); c == "0" {
			break
		}
		cursor = res[0]
	}
	return client.Flush()
}
