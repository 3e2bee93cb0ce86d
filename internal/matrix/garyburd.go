package matrix

import (
	"context"

	"github.com/garyburd/redigo/redis"
)

// Garyburd is redigo under its first import path,
// github.com/garyburd/redigo/redis (v1.6.0, its last release there), which
// older projects still import: the rows of Redigo, written against it.
var Garyburd = Client{Name: "garyburd/redigo", Module: "github.com/garyburd/redigo", Rows: []Row{
	{AloneOne, garyburdAloneOne},
	{AloneCross, garyburdAloneCross},
	{PipelineCross, garyburdPipelineCross},
	{PipelineSpread, garyburdPipelineSpread},
	{MultiOne, garyburdMultiOne},
	{MultiCross, garyburdMultiCross},
	{WatchOne, garyburdWatchOne},
	{WatchCross, garyburdWatchCross},
	{ScriptOne, garyburdScriptOne},
	{ScriptCross, garyburdScriptCross},
	{Keys, garyburdKeys},
	{Scan, garyburdScan},
	{DB, garyburdDB},
}}

func garyburdAloneOne(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("{price}:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(redis.Strings(c.Do("MGET", "{price}:1", "{price}:2")))
}

func garyburdAloneCross(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("price:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(redis.Strings(c.Do("MGET", "price:1", "price:2")))
}

func garyburdPipelineCross(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("price:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	if err := c.Send("MGET", "price:1", "price:2"); err != nil {
		return done(err)
	}
	if err := c.Flush(); err != nil {
		return done(err)
	}
	return strs(redis.Strings(c.Receive()))
}

func garyburdPipelineSpread(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("price:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	if err := firstErr(c.Send("GET", "price:1"), c.Send("GET", "price:2"), c.Flush()); err != nil {
		return done(err)
	}
	a, errA := redis.String(c.Receive())
	b, errB := redis.String(c.Receive())
	return values(firstErr(errA, errB), a, b)
}

func garyburdMultiOne(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("{order}:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	if err := firstErr(c.Send("MULTI"), c.Send("SET", "{order}:1", "1"), c.Send("SET", "{order}:2", "2")); err != nil {
		return done(err)
	}
	_, err = c.Do("EXEC")
	return done(err)
}

func garyburdMultiCross(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("order:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	if err := firstErr(c.Send("MULTI"), c.Send("SET", "order:1", "1"), c.Send("SET", "order:2", "2")); err != nil {
		return done(err)
	}
	_, err = c.Do("EXEC")
	return done(err)
}

func garyburdWatchOne(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("{stock}:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	if _, err := c.Do("WATCH", "{stock}:1", "{stock}:2"); err != nil {
		return done(err)
	}
	if err := firstErr(c.Send("MULTI"), c.Send("SET", "{stock}:1", "1"), c.Send("SET", "{stock}:2", "2")); err != nil {
		return done(err)
	}
	_, err = c.Do("EXEC")
	return done(err)
}

func garyburdWatchCross(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("stock:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	if _, err := c.Do("WATCH", "stock:1", "stock:2"); err != nil {
		return done(err)
	}
	if err := firstErr(c.Send("MULTI"), c.Send("SET", "stock:1", "1"), c.Send("SET", "stock:2", "2")); err != nil {
		return done(err)
	}
	_, err = c.Do("EXEC")
	return done(err)
}

var garyburdReadBoth = redis.NewScript(2, ReadBoth)

func garyburdScriptOne(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("{price}:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(redis.Strings(garyburdReadBoth.Do(c, "{price}:1", "{price}:2")))
}

func garyburdScriptCross(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("price:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(redis.Strings(garyburdReadBoth.Do(c, "price:1", "price:2")))
}

func garyburdKeys(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	keys, err := redis.Strings(c.Do("KEYS", "scan:*"))
	return count(len(keys), err)
}

func garyburdScan(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	n, cursor := 0, 0
	for {
		reply, err := redis.Values(c.Do("SCAN", cursor, "MATCH", "scan:*", "COUNT", 100))
		if err != nil {
			return done(err)
		}
		var keys []string
		if _, err := redis.Scan(reply, &cursor, &keys); err != nil {
			return done(err)
		}
		n += len(keys)
		if cursor == 0 {
			return count(n, nil)
		}
	}
}

func garyburdDB(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("db:probe"), redis.DialDatabase(3))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	_, err = c.Do("SET", "db:probe", "x")
	return done(err)
}
