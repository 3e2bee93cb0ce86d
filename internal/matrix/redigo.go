package matrix

import (
	"context"

	"github.com/gomodule/redigo/redis"
)

// Redigo is redigo, which has no cluster client: each row dials the master
// that serves its first key, as a program that knows one node of a cluster
// would.
var Redigo = Client{Name: "redigo", Module: "github.com/gomodule/redigo", Rows: []Row{
	{AloneOne, redigoAloneOne},
	{AloneCross, redigoAloneCross},
	{PipelineCross, redigoPipelineCross},
	{PipelineSpread, redigoPipelineSpread},
	{MultiOne, redigoMultiOne},
	{MultiCross, redigoMultiCross},
	{WatchOne, redigoWatchOne},
	{WatchCross, redigoWatchCross},
	{ScriptOne, redigoScriptOne},
	{ScriptCross, redigoScriptCross},
	{ScriptCounted, redigoScriptCounted},
	{Keys, redigoKeys},
	{Scan, redigoScan},
	{DB, redigoDB},
}}

func redigoAloneOne(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("{price}:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(redis.Strings(c.Do("MGET", "{price}:1", "{price}:2")))
}

func redigoAloneCross(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("price:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(redis.Strings(c.Do("MGET", "price:1", "price:2")))
}

func redigoPipelineCross(ctx context.Context, e *Env) Result {
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

func redigoPipelineSpread(ctx context.Context, e *Env) Result {
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

func redigoMultiOne(ctx context.Context, e *Env) Result {
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

func redigoMultiCross(ctx context.Context, e *Env) Result {
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

func redigoWatchOne(ctx context.Context, e *Env) Result {
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

func redigoWatchCross(ctx context.Context, e *Env) Result {
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

var redigoReadBoth = redis.NewScript(2, ReadBoth)

func redigoScriptOne(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("{price}:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(redis.Strings(redigoReadBoth.Do(c, "{price}:1", "{price}:2")))
}

func redigoScriptCross(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("price:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(redis.Strings(redigoReadBoth.Do(c, "price:1", "price:2")))
}

// redigoReadBothCounted is made with no key count: each Do gives it first,
// as redis.Args{}.Add(len(keys)).AddFlat(keys) does.
var redigoReadBothCounted = redis.NewScript(-1, ReadBoth)

func redigoScriptCounted(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("price:1"))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	keys := []string{"price:1", "price:2"}
	return strs(redis.Strings(redigoReadBothCounted.Do(c, redis.Args{}.Add(len(keys)).AddFlat(keys)...)))
}

func redigoKeys(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	keys, err := redis.Strings(c.Do("KEYS", "scan:*"))
	return count(len(keys), err)
}

func redigoScan(ctx context.Context, e *Env) Result {
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

func redigoDB(ctx context.Context, e *Env) Result {
	c, err := redis.Dial("tcp", e.Owner("db:probe"), redis.DialDatabase(3))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	_, err = c.Do("SET", "db:probe", "x")
	return done(err)
}
