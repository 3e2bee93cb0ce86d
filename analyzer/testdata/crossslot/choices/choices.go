// Package choices holds keys built from one of several values: a field two
// constructors set apart, a variable set on two branches. One object's
// field, or one run's variable, holds one of them, and every key built
// from it in one command is built from that one.
package choices

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type counter struct {
	rdb redis.UniversalClient
	tag string
}

func newUserCounter(rdb redis.UniversalClient) *counter {
	return &counter{rdb: rdb, tag: "{users}"}
}

func newOrderCounter(rdb redis.UniversalClient) *counter {
	return &counter{rdb: rdb, tag: "{orders}"}
}

// Both keys carry the object's one tag, "{users}" or "{orders}".
func (c *counter) pair(ctx context.Context) []interface{} {
	return c.rdb.MGet(ctx, c.tag+":total", c.tag+":today").Val()
}

// Two counters' tags are two objects' fields: they may differ.
func pairOf(ctx context.Context, a, b *counter) []interface{} {
	return a.rdb.MGet(ctx, a.tag+":total", b.tag+":total").Val() // want `MGET keys "{orders}:total" \(slot 105\) and "{users}:total" \(slot 14124\) hash to different slots`
}

// A variable set on two branches: both keys take the same branch's value.
func byRegion(ctx context.Context, rdb redis.UniversalClient, eu bool) error {
	tag := "{us}"
	if eu {
		tag = "{eu}"
	}
	return rdb.Rename(ctx, tag+":staging", tag+":live").Err()
}

// Two variables, each set on its own branch, choose apart.
func byRegions(ctx context.Context, rdb redis.UniversalClient, euFrom, euTo bool) error {
	from, to := "{us}", "{us}"
	if euFrom {
		from = "{eu}"
	}
	if euTo {
		to = "{eu}"
	}
	return rdb.Rename(ctx, from+":staging", to+":live").Err() // want `RENAME keys "{eu}:staging" \(slot 6893\) and "{us}:live" \(slot 14680\) hash to different slots`
}
