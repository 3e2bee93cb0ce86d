package matrix

import (
	"context"

	"github.com/mediocregopher/radix/v3"
)

// Radix3 is radix v3's Cluster.
var Radix3 = Client{Name: "radix", Module: "github.com/mediocregopher/radix/v3", Cluster: true, Rows: []Row{
	{Connect, radix3Connect},
	{AloneOne, radix3AloneOne},
	{AloneCross, radix3AloneCross},
	{PipelineCross, radix3PipelineCross},
	{PipelineSpread, radix3PipelineSpread},
	{MultiOne, radix3MultiOne},
	{MultiCross, radix3MultiCross},
	{WatchOne, radix3WatchOne},
	{WatchCross, radix3WatchCross},
	{ScriptOne, radix3ScriptOne},
	{ScriptCross, radix3ScriptCross},
	{Keys, radix3Keys},
	{Scan, radix3Scan},
	{DB, radix3DB},
}}

func radix3Connect(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(radix.Cmd(nil, "GET", "{price}:1")))
}

func radix3AloneOne(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(radix.Cmd(&out, "MGET", "{price}:1", "{price}:2")))
}

func radix3AloneCross(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(radix.Cmd(&out, "MGET", "price:1", "price:2")))
}

func radix3PipelineCross(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(radix.Pipeline(radix.Cmd(&out, "MGET", "price:1", "price:2"))))
}

func radix3PipelineSpread(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var a, b string
	err = c.Do(radix.Pipeline(radix.Cmd(&a, "GET", "price:1"), radix.Cmd(&b, "GET", "price:2")))
	return values(err, a, b)
}

func radix3MultiOne(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(radix.WithConn("{order}:1", func(conn radix.Conn) error {
		return firstErr(
			conn.Do(radix.Cmd(nil, "MULTI")),
			conn.Do(radix.Cmd(nil, "SET", "{order}:1", "1")),
			conn.Do(radix.Cmd(nil, "SET", "{order}:2", "2")),
			conn.Do(radix.Cmd(nil, "EXEC")))
	})))
}

func radix3MultiCross(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(radix.WithConn("order:1", func(conn radix.Conn) error {
		return firstErr(
			conn.Do(radix.Cmd(nil, "MULTI")),
			conn.Do(radix.Cmd(nil, "SET", "order:1", "1")),
			conn.Do(radix.Cmd(nil, "SET", "order:2", "2")),
			conn.Do(radix.Cmd(nil, "EXEC")))
	})))
}

func radix3WatchOne(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(radix.WithConn("{stock}:1", func(conn radix.Conn) error {
		return firstErr(
			conn.Do(radix.Cmd(nil, "WATCH", "{stock}:1", "{stock}:2")),
			conn.Do(radix.Cmd(nil, "MULTI")),
			conn.Do(radix.Cmd(nil, "SET", "{stock}:1", "1")),
			conn.Do(radix.Cmd(nil, "SET", "{stock}:2", "2")),
			conn.Do(radix.Cmd(nil, "EXEC")))
	})))
}

func radix3WatchCross(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(radix.WithConn("stock:1", func(conn radix.Conn) error {
		return firstErr(
			conn.Do(radix.Cmd(nil, "WATCH", "stock:1", "stock:2")),
			conn.Do(radix.Cmd(nil, "MULTI")),
			conn.Do(radix.Cmd(nil, "SET", "stock:1", "1")),
			conn.Do(radix.Cmd(nil, "SET", "stock:2", "2")),
			conn.Do(radix.Cmd(nil, "EXEC")))
	})))
}

var radix3ReadBoth = radix.NewEvalScript(2, ReadBoth)

func radix3ScriptOne(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(radix3ReadBoth.Cmd(&out, "{price}:1", "{price}:2")))
}

func radix3ScriptCross(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(radix3ReadBoth.Cmd(&out, "price:1", "price:2")))
}

func radix3Keys(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var keys []string
	err = c.Do(radix.Cmd(&keys, "KEYS", "scan:*"))
	return count(len(keys), err)
}

func radix3Scan(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	s := c.NewScanner(radix.ScanOpts{Command: "SCAN", Pattern: "scan:*", Count: 100})
	n := 0
	var key string
	for s.Next(&key) {
		n++
	}
	return count(n, s.Close())
}

func radix3DB(ctx context.Context, e *Env) Result {
	c, err := radix.NewCluster(e.Addrs, radix.ClusterPoolFunc(func(network, addr string) (radix.Client, error) {
		return radix.NewPool(network, addr, 4, radix.PoolConnFunc(func(network, addr string) (radix.Conn, error) {
			return radix.Dial(network, addr, radix.DialSelectDB(3))
		}))
	}))
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(radix.Cmd(nil, "SET", "db:probe", "x")))
}
