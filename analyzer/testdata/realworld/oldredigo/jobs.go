// Package oldredigo is a job store on redigo under its first import path,
// github.com/garyburd/redigo/redis, after albrow/jobs (transaction.go,
// scripts.go): the scripts are made with no keys and build every key from
// ARGV, and one MULTI/EXEC saves a job's hash and adds it to the time
// index.
package oldredigo

import (
	"github.com/garyburd/redigo/redis"
)

var setJobField = redis.NewScript(0, `
local key = 'jobs:' .. ARGV[1]
if redis.call('EXISTS', key) == 1 then
	redis.call('HSET', key, ARGV[2], ARGV[3])
end
`)

func SetJobField(conn redis.Conn, id, field, value string) error {
	_, err := setJobField.Do(conn, id, field, value) // want `line 3: redis.call\("EXISTS", key\) touches a key not declared in KEYS` `line 4: redis.call\("HSET", key, ARGV\[2\], ARGV\[3\]\) touches a key not declared in KEYS`
	return err
}

var setJobFieldFixed = redis.NewScript(1, `
if redis.call('EXISTS', KEYS[1]) == 1 then
	redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
`)

func SetJobFieldFixed(conn redis.Conn, id, field, value string) error {
	_, err := setJobFieldFixed.Do(conn, "jobs:"+id, field, value)
	return err
}

func SaveJob(conn redis.Conn, id string, time int64) error {
	if err := conn.Send("MULTI"); err != nil { // want `MULTI/EXEC transaction keys "jobs:<id>" .* and "jobs:time" .* may hash to different slots`
		return err
	}
	_ = conn.Send("HSET", "jobs:"+id, "time", time)
	_ = conn.Send("ZADD", "jobs:time", time, id)
	_, err := conn.Do("EXEC")
	return err
}

// SaveJobFixed keeps the job and the index in the slot of one hashtag.
func SaveJobFixed(conn redis.Conn, id string, time int64) error {
	if err := conn.Send("MULTI"); err != nil {
		return err
	}
	_ = conn.Send("HSET", "{jobs}:"+id, "time", time)
	_ = conn.Send("ZADD", "{jobs}:time", time, id)
	_, err := conn.Do("EXEC")
	return err
}
