package matrix

import (
	"context"

	"github.com/mediocregopher/radix.v2/cluster"
	"github.com/mediocregopher/radix.v2/redis"
	"github.com/mediocregopher/radix.v2/util"
)

// Radix2 is radix.v2's Cluster, which sends each command to the master of
// its first argument's slot and follows MOVED; a transaction or a pipeline
// goes on the Client that GetForKey lends. The cluster's options have no
// database number (a custom Dialer would have to send SELECT), so the
// library has no DB row.
var Radix2 = Client{Name: "radix.v2", Module: "github.com/mediocregopher/radix.v2", Cluster: true, OneNode: []Shape{PipelineCross, PipelineSpread, MultiOne, MultiCross, WatchOne, WatchCross}, Rows: []Row{
	{Connect, radix2Connect},
	{AloneOne, radix2AloneOne},
	{AloneCross, radix2AloneCross},
	{PipelineCross, radix2PipelineCross},
	{PipelineSpread, radix2PipelineSpread},
	{MultiOne, radix2MultiOne},
	{MultiCross, radix2MultiCross},
	{WatchOne, radix2WatchOne},
	{WatchCross, radix2WatchCross},
	{ScriptOne, radix2ScriptOne},
	{ScriptCross, radix2ScriptCross},
	{Keys, radix2Keys},
	{Scan, radix2Scan},
}}

func radix2Connect(ctx context.Context, e *Env) Result {
	c, err := cluster.New(e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Cmd("GET", "{price}:1").Err)
}

func radix2AloneOne(ctx context.Context, e *Env) Result {
	c, err := cluster.New(e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(c.Cmd("MGET", "{price}:1", "{price}:2").List())
}

func radix2AloneCross(ctx context.Context, e *Env) Result {
	c, err := cluster.New(e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(c.Cmd("MGET", "price:1", "price:2").List())
}

// radix2Conn lends the Client of the master that serves key, and gives it
// back with put.
func radix2Conn(e *Env, key string) (conn *redis.Client, put func(), err error) {
	c, err := cluster.New(e.Addrs[0])
	if err != nil {
		return nil, nil, err
	}
	conn, err = c.GetForKey(key)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return conn, func() { c.Put(conn); c.Close() }, nil
}

func radix2PipelineCross(ctx context.Context, e *Env) Result {
	conn, put, err := radix2Conn(e, "price:1")
	if err != nil {
		return done(err)
	}
	defer put()
	conn.PipeAppend("MGET", "price:1", "price:2")
	return strs(conn.PipeResp().List())
}

func radix2PipelineSpread(ctx context.Context, e *Env) Result {
	conn, put, err := radix2Conn(e, "price:1")
	if err != nil {
		return done(err)
	}
	defer put()
	conn.PipeAppend("GET", "price:1")
	conn.PipeAppend("GET", "price:2")
	a, errA := conn.PipeResp().Str()
	b, errB := conn.PipeResp().Str()
	return values(firstErr(errA, errB), a, b)
}

func radix2MultiOne(ctx context.Context, e *Env) Result {
	conn, put, err := radix2Conn(e, "{order}:1")
	if err != nil {
		return done(err)
	}
	defer put()
	return done(firstErr(
		conn.Cmd("MULTI").Err,
		conn.Cmd("SET", "{order}:1", "1").Err,
		conn.Cmd("SET", "{order}:2", "2").Err,
		conn.Cmd("EXEC").Err))
}

func radix2MultiCross(ctx context.Context, e *Env) Result {
	conn, put, err := radix2Conn(e, "order:1")
	if err != nil {
		return done(err)
	}
	defer put()
	return done(firstErr(
		conn.Cmd("MULTI").Err,
		conn.Cmd("SET", "order:1", "1").Err,
		conn.Cmd("SET", "order:2", "2").Err,
		conn.Cmd("EXEC").Err))
}

func radix2WatchOne(ctx context.Context, e *Env) Result {
	conn, put, err := radix2Conn(e, "{stock}:1")
	if err != nil {
		return done(err)
	}
	defer put()
	return done(firstErr(
		conn.Cmd("WATCH", "{stock}:1", "{stock}:2").Err,
		conn.Cmd("MULTI").Err,
		conn.Cmd("SET", "{stock}:1", "1").Err,
		conn.Cmd("SET", "{stock}:2", "2").Err,
		conn.Cmd("EXEC").Err))
}

func radix2WatchCross(ctx context.Context, e *Env) Result {
	conn, put, err := radix2Conn(e, "stock:1")
	if err != nil {
		return done(err)
	}
	defer put()
	return done(firstErr(
		conn.Cmd("WATCH", "stock:1", "stock:2").Err,
		conn.Cmd("MULTI").Err,
		conn.Cmd("SET", "stock:1", "1").Err,
		conn.Cmd("SET", "stock:2", "2").Err,
		conn.Cmd("EXEC").Err))
}

func radix2ScriptOne(ctx context.Context, e *Env) Result {
	c, err := cluster.New(e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(c.Cmd("EVAL", ReadBoth, 2, "{price}:1", "{price}:2").List())
}

func radix2ScriptCross(ctx context.Context, e *Env) Result {
	c, err := cluster.New(e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(c.Cmd("EVAL", ReadBoth, 2, "price:1", "price:2").List())
}

func radix2Keys(ctx context.Context, e *Env) Result {
	c, err := cluster.New(e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	keys, err := c.Cmd("KEYS", "scan:*").List()
	return count(len(keys), err)
}

func radix2Scan(ctx context.Context, e *Env) Result {
	c, err := cluster.New(e.Addrs[0])
	if err != nil {
		return done(err)
	}
	defer c.Close()
	s := util.NewScanner(c, util.ScanOpts{Command: "SCAN", Pattern: "scan:*", Count: 100})
	n := 0
	for s.HasNext() {
		s.Next()
		n++
	}
	return count(n, s.Err())
}
