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
	PurgeFixed(match string) error
}

// NewPurger returns a purger of the pool's keys.
func NewPurger(pool *redigo.Pool) Purger { return &purger{pool} }

func (p *purger) Purge(match string) error {
	client := p.pool.Get()
	defer client.Close()
	var cursor interface{} = "0"
	for {
		res, err := redigo.Values(client.Do("SCAN", cursor, "MATCH", match, "COUNT", 500000)) // want `SCAN on client, a client that may be a cluster, reads one node's keys only, with no error; run it on every master with a connection to each`
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

// Origin: syhlion/gua (delayquene/help.go, RedisScan, and bucket.go,
// the job check): a helper lists the keys of a pattern with a raw SCAN,
// reading each page with redis.Strings(arr[1], nil), and its caller reads
// the checkpoint of every job it lists in one MGET.
func redisScan(c redigo.Conn, match string) (keys []string, err error) {
	iter := 0
	for {
		arr, err := redigo.Values(c.Do("SCAN", iter, "MATCH", match, "COUNT", 100)) // want `SCAN on c, a client that may be a cluster, reads one node's keys only`
		if err != nil {
			return nil, err
		}
		iter, _ = redigo.Int(arr[0], nil)
		page, _ := redigo.Strings(arr[1], nil)
		keys = append(keys, page...)
		if iter == 0 {
			return keys, nil
		}
	}
}

func jobCheck(c redigo.Conn) ([]string, error) {
	jobs, err := redisScan(c, "JOB-*")
	if err != nil {
		return nil, err
	}
	var args []interface{}
	for _, v := range jobs {
		args = append(args, v+"-scan")
	}
	return redigo.Strings(c.Do("MGET", args...)) // want `MGET keys built as "<v>-scan" from different values may hash to different slots`
}

// Fixed: one GET a checkpoint, pipelined on the connection.
func jobCheckFixed(c redigo.Conn) error {
	jobs, err := redisScan(c, "JOB-*")
	if err != nil {
		return err
	}
	for _, v := range jobs {
		if err := c.Send("GET", v+"-scan"); err != nil {
			return err
		}
	}
	return c.Flush()
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
