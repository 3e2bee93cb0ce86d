package watchmisuse

import (
	"context"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/rueidis"
)

// redigo: a WATCH sent after MULTI on the same connection is refused.
func redigoLate(c redigo.Conn, k string) (any, error) {
	c.Send("MULTI")
	c.Send("WATCH", k) // want `WATCH "<k>" is sent on the connection after its MULTI at line 12: Redis answers "ERR WATCH inside MULTI is not allowed" and watches nothing; send WATCH before MULTI`
	c.Send("INCR", k)
	return c.Do("EXEC")
}

// Fixed: WATCH first, as redigo's documentation shows.
func redigoFixed(c redigo.Conn, k string) (any, error) {
	c.Do("WATCH", k)
	c.Send("MULTI")
	c.Send("INCR", k)
	return c.Do("EXEC")
}

// Origin: gomodule/redigo (redis/pool_test.go, a transaction left open,
// then another): Close hands the connection back to the pool, which
// DISCARDs the open MULTI, and c = p.Get() takes a connection that is in
// no MULTI. The WATCH after it is sent before its own MULTI.
func redigoAgain(p *redigo.Pool, k string) (any, error) {
	c := p.Get()
	c.Do("WATCH", k)
	c.Do("MULTI")
	c.Do("INCR", k)
	c.Close()

	c = p.Get()
	defer c.Close()
	c.Do("WATCH", k)
	c.Do("MULTI")
	c.Do("INCR", k)
	return c.Do("EXEC")
}

// Without the Close and the new Get, the second WATCH is inside the first
// MULTI.
func redigoAgainLate(p *redigo.Pool, k string) (any, error) {
	c := p.Get()
	defer c.Close()
	c.Do("WATCH", k)
	c.Do("MULTI")
	c.Do("INCR", k)
	c.Do("WATCH", k) // want `WATCH "<k>" is sent on the connection after its MULTI at line \d+`
	c.Do("MULTI")
	return c.Do("EXEC")
}

// rueidis: DoMulti sends its commands in order on a dedicated connection.
func rueidisLate(ctx context.Context, c rueidis.Client, k string) error {
	return c.Dedicated(func(d rueidis.DedicatedClient) error {
		for _, r := range d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Watch().Key(k).Build(), // want `WATCH "<k>" is sent on the connection after its MULTI at line 61`
			d.B().Incr().Key(k).Build(),
			d.B().Exec().Build(),
		) {
			if err := r.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

func rueidisFixed(ctx context.Context, c rueidis.Client, k string) error {
	return c.Dedicated(func(d rueidis.DedicatedClient) error {
		for _, r := range d.DoMulti(ctx,
			d.B().Watch().Key(k).Build(),
			d.B().Multi().Build(),
			d.B().Incr().Key(k).Build(),
			d.B().Exec().Build(),
		) {
			if err := r.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}
