package matrix

import (
	"context"

	valkey "github.com/valkey-io/valkey-go"
)

// Valkey is valkey-go's client of a cluster, in the same code as rueidis.go.
var Valkey = Client{Name: "valkey-go", Module: "github.com/valkey-io/valkey-go", Cluster: true, Rows: []Row{
	{AloneOne, valkeyAloneOne},
	{AloneCross, valkeyAloneCross},
	{PipelineCross, valkeyPipelineCross},
	{PipelineSpread, valkeyPipelineSpread},
	{MultiOne, valkeyMultiOne},
	{MultiCross, valkeyMultiCross},
	{WatchOne, valkeyWatchOne},
	{WatchCross, valkeyWatchCross},
	{ScriptOne, valkeyScriptOne},
	{ScriptCross, valkeyScriptCross},
	{Keys, valkeyKeys},
	{Scan, valkeyScan},
	{DB, valkeyDB},
}}

func valkeyAloneOne(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(c.Do(ctx, c.B().Mget().Key("{price}:1", "{price}:2").Build()).AsStrSlice())
}

func valkeyAloneCross(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(c.Do(ctx, c.B().Mget().Key("price:1", "price:2").Build()).AsStrSlice())
}

func valkeyPipelineCross(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	res := c.DoMulti(ctx, c.B().Mget().Key("price:1", "price:2").Build())
	return strs(res[0].AsStrSlice())
}

func valkeyPipelineSpread(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	res := c.DoMulti(ctx, c.B().Get().Key("price:1").Build(), c.B().Get().Key("price:2").Build())
	a, errA := res[0].ToString()
	b, errB := res[1].ToString()
	return values(firstErr(errA, errB), a, b)
}

func valkeyMultiOne(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
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

func valkeyMultiCross(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
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

func valkeyWatchOne(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Dedicated(func(d valkey.DedicatedClient) error {
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

func valkeyWatchCross(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Dedicated(func(d valkey.DedicatedClient) error {
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

var valkeyReadBoth = valkey.NewLuaScript(ReadBoth)

func valkeyScriptOne(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(valkeyReadBoth.Exec(ctx, c, []string{"{price}:1", "{price}:2"}, nil).AsStrSlice())
}

func valkeyScriptCross(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return strs(valkeyReadBoth.Exec(ctx, c, []string{"price:1", "price:2"}, nil).AsStrSlice())
}

func valkeyKeys(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	keys, err := c.Do(ctx, c.B().Keys().Pattern("scan:*").Build()).AsStrSlice()
	return count(len(keys), err)
}

func valkeyScan(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs})
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

func valkeyDB(ctx context.Context, e *Env) Result {
	c, err := valkey.NewClient(valkey.ClientOption{InitAddress: e.Addrs, SelectDB: 3})
	if err != nil {
		return done(err)
	}
	defer c.Close()
	return done(c.Do(ctx, c.B().Set().Key("db:probe").Value("x").Build()).Error())
}
