package raw

import redigo "github.com/gomodule/redigo/redis"

// blpop is a helper that sends its arguments, the keys and then a
// timeout, as one BLPOP: its callers' keys are checked at each call, the
// timeout left out.
func blpop(pool *redigo.Pool, args ...interface{}) (interface{}, error) {
	c := pool.Get()
	defer c.Close()
	return c.Do("BLPOP", args...)
}

func brpop(pool *redigo.Pool, args []interface{}) (interface{}, error) {
	c := pool.Get()
	defer c.Close()
	return c.Do("BRPOP", args...)
}

func pop(pool *redigo.Pool) {
	blpop(pool, "queue:a", "queue:b", 10) // want `BLPOP \(through blpop at blocking.go:\d+\) keys "queue:a" .* and "queue:b" .* hash to different slots`
	blpop(pool, "{queue}:a", "{queue}:b", 10)
	blpop(pool, "queue:a", 10)
	brpop(pool, []interface{}{"queue:a", "queue:b", 5}) // want `BRPOP \(through brpop at blocking.go:\d+\) keys "queue:a" .* and "queue:b" .* hash to different slots`
	brpop(pool, []interface{}{"queue:a", 5})
}
