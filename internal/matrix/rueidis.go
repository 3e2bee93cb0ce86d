package matrix

import (
	"context"

	"github.com/redis/rueidis"
)

// Rueidis is rueidis's client of a cluster (NewClient with the cluster's
// addresses). valkey.go is the same code for valkey-go.
var Rueidis = Client{Name: "rueidis", Module: "github.com/redis/rueidis", Cluster: true, Rows: []Row{
	{AloneOne, rueidisAloneOne},
	{AloneCross, rueidisAloneCross},
	{PipelineCross, rueidisPipelineCross},
	{PipelineSpread, rueidisPipelineSpread},
	{MultiOne, rueidisMultiOne},
	{MultiCross, rueidisMultiCross},
	{WatchOne, rueidisWatchOne},
	{WatchCross, rueidisWatchCross},
	{ScriptOne, rueidisScriptOne},
	{ScriptCross, rueidisScriptCross},
	{Keys, rueidisKeys},
	{Scan, rueidisScan},
	{DB, rueidisDB},
}}

func rueidisAloneOne(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(c.Do(ctx, c.B().Mget().Key("{price}:1", "{price}:2").Build()).AsStrSlice())
}

func rueidisAloneCross(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(c.Do(ctx, c.B().Mget().Key("price:1", "price:2").Build()).AsStrSlice())
}

func rueidisPipelineCross(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	res := c.DoMulti(ctx, c.B().Mget().Key("price:1", "price:2").Build())
	return strs(res[0].AsStrSlice())
}

func rueidisPipelineSpread(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	res := c.DoMulti(ctx, c.B().Get().Key("price:1").Build(), c.B().Get().Key("price:2").Build())
	a, errA := res[0].ToString()
	b, errB := res[1].ToString()
	return values(firstErr(errA, errB), a, b)
}

func rueidisMultiOne(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	res := c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("{order}:1").Value("1").Build(),
		c.B().Set().Key("{order}:2").Value("2").Build(),
		c.B().Exec().Build())
	return done(firstErr(res[0].Error(), res[1].Error(), res[2].Error(), res[3].Error()))
}

func rueidisMultiCross(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	res := c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("order:1").Value("1").Build(),
		c.B().Set().Key("order:2").Value("2").Build(),
		c.B().Exec().Build())
	return done(firstErr(res[0].Error(), res[1].Error(), res[2].Error(), res[3].Error()))
}

func rueidisWatchOne(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Watch().Key("{stock}:1", "{stock}:2").Build()).Error(); err != nil {
			return err
		}
		res := d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Set().Key("{stock}:1").Value("1").Build(),
			d.B().Set().Key("{stock}:2").Value("2").Build(),
			d.B().Exec().Build())
		return firstErr(res[0].Error(), res[1].Error(), res[2].Error(), res[3].Error())
	}))
}

func rueidisWatchCross(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Watch().Key("stock:1", "stock:2").Build()).Error(); err != nil {
			return err
		}
		res := d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Set().Key("stock:1").Value("1").Build(),
			d.B().Set().Key("stock:2").Value("2").Build(),
			d.B().Exec().Build())
		return firstErr(res[0].Error(), res[1].Error(), res[2].Error(), res[3].Error())
	}))
}

var rueidisReadBoth = rueidis.NewLuaScript(ReadBoth)

func rueidisScriptOne(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(rueidisReadBoth.Exec(ctx, c, []string{"{price}:1", "{price}:2"}, nil).AsStrSlice())
}

func rueidisScriptCross(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(rueidisReadBoth.Exec(ctx, c, []string{"price:1", "price:2"}, nil).AsStrSlice())
}

func rueidisKeys(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	keys, err := c.Do(ctx, c.B().Keys().Pattern("scan:*").Build()).AsStrSlice()
	return count(len(keys), err)
}

func rueidisScan(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	n := 0
	var cursor uint64
	for {
		entry, err := c.Do(ctx, c.B().Scan().Cursor(cursor).Match("scan:*").Count(100).Build()).AsScanEntry()
		if err != nil {
			return done(err)
		}
		n += len(entry.Elements)
		if cursor = entry.Cursor; cursor == 0 {
			return count(n, nil)
		}
	}
}

func rueidisDB(ctx context.Context, e *Env) Result {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.Addrs, SelectDB: 3})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(ctx, c.B().Set().Key("db:probe").Value("x").Build()).Error())
}
