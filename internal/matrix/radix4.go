package matrix

import (
	"context"

	"github.com/mediocregopher/radix/v4"
)

// Radix4 is radix v4's Cluster.
var Radix4 = Client{Name: "radix", Module: "github.com/mediocregopher/radix/v4", Cluster: true, Rows: []Row{
	{AloneOne, radix4AloneOne},
	{AloneCross, radix4AloneCross},
	{PipelineCross, radix4PipelineCross},
	{PipelineSpread, radix4PipelineSpread},
	{MultiOne, radix4MultiOne},
	{MultiCross, radix4MultiCross},
	{WatchOne, radix4WatchOne},
	{WatchCross, radix4WatchCross},
	{ScriptOne, radix4ScriptOne},
	{ScriptCross, radix4ScriptCross},
	{Keys, radix4Keys},
	{Scan, radix4Scan},
	{DB, radix4DB},
}}

func radix4AloneOne(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(ctx, radix.Cmd(&out, "MGET", "{price}:1", "{price}:2")))
}

func radix4AloneCross(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(ctx, radix.Cmd(&out, "MGET", "price:1", "price:2")))
}

func radix4PipelineCross(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	p := radix.NewPipeline()
	p.Append(radix.Cmd(&out, "MGET", "price:1", "price:2"))
	return strs(out, c.Do(ctx, p))
}

func radix4PipelineSpread(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var a, b string
	p := radix.NewPipeline()
	p.Append(radix.Cmd(&a, "GET", "price:1"))
	p.Append(radix.Cmd(&b, "GET", "price:2"))
	return values(c.Do(ctx, p), a, b)
}

func radix4MultiOne(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(ctx, radix.WithConn("{order}:1", func(ctx context.Context, conn radix.Conn) error {
		return firstErr(
			conn.Do(ctx, radix.Cmd(nil, "MULTI")),
			conn.Do(ctx, radix.Cmd(nil, "SET", "{order}:1", "1")),
			conn.Do(ctx, radix.Cmd(nil, "SET", "{order}:2", "2")),
			conn.Do(ctx, radix.Cmd(nil, "EXEC")))
	})))
}

func radix4MultiCross(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(ctx, radix.WithConn("order:1", func(ctx context.Context, conn radix.Conn) error {
		return firstErr(
			conn.Do(ctx, radix.Cmd(nil, "MULTI")),
			conn.Do(ctx, radix.Cmd(nil, "SET", "order:1", "1")),
			conn.Do(ctx, radix.Cmd(nil, "SET", "order:2", "2")),
			conn.Do(ctx, radix.Cmd(nil, "EXEC")))
	})))
}

func radix4WatchOne(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(ctx, radix.WithConn("{stock}:1", func(ctx context.Context, conn radix.Conn) error {
		return firstErr(
			conn.Do(ctx, radix.Cmd(nil, "WATCH", "{stock}:1", "{stock}:2")),
			conn.Do(ctx, radix.Cmd(nil, "MULTI")),
			conn.Do(ctx, radix.Cmd(nil, "SET", "{stock}:1", "1")),
			conn.Do(ctx, radix.Cmd(nil, "SET", "{stock}:2", "2")),
			conn.Do(ctx, radix.Cmd(nil, "EXEC")))
	})))
}

func radix4WatchCross(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(ctx, radix.WithConn("stock:1", func(ctx context.Context, conn radix.Conn) error {
		return firstErr(
			conn.Do(ctx, radix.Cmd(nil, "WATCH", "stock:1", "stock:2")),
			conn.Do(ctx, radix.Cmd(nil, "MULTI")),
			conn.Do(ctx, radix.Cmd(nil, "SET", "stock:1", "1")),
			conn.Do(ctx, radix.Cmd(nil, "SET", "stock:2", "2")),
			conn.Do(ctx, radix.Cmd(nil, "EXEC")))
	})))
}

var radix4ReadBoth = radix.NewEvalScript(ReadBoth)

func radix4ScriptOne(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(ctx, radix4ReadBoth.Cmd(&out, []string{"{price}:1", "{price}:2"})))
}

func radix4ScriptCross(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var out []string
	return strs(out, c.Do(ctx, radix4ReadBoth.Cmd(&out, []string{"price:1", "price:2"})))
}

func radix4Keys(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	var keys []string
	err = c.Do(ctx, radix.Cmd(&keys, "KEYS", "scan:*"))
	return count(len(keys), err)
}

func radix4Scan(ctx context.Context, e *Env) Result {
	c, err := (radix.ClusterConfig{}).New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	s := (radix.ScannerConfig{Pattern: "scan:*", Count: 100}).NewMulti(c)
	n := 0
	var key string
	for s.Next(ctx, &key) {
		n++
	}
	return count(n, s.Close())
}

func radix4DB(ctx context.Context, e *Env) Result {
	cfg := radix.ClusterConfig{PoolConfig: radix.PoolConfig{Dialer: radix.Dialer{SelectDB: "3"}}}
	c, err := cfg.New(ctx, e.Addrs)
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(ctx, radix.Cmd(nil, "SET", "db:probe", "x")))
}
