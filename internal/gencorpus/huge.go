package main

import (
	"fmt"
	"strings"
)

// The cases of the huge function: each is one branch of a command
// dispatcher, with its own locals, and shared variables (key, ks, total)
// that every branch sets.
var hugeCases = []string{`
	case "op@c@":
		a@c@ := h.key(id, "a@c@")
		b@c@ := h.key(id, "b@c@")
		key = a@c@
		ks = append(ks, a@c@)
		if err := h.rdb.Rename(ctx, a@c@, b@c@).Err(); err != nil {
			return nil, err
		}
`, `
	case "op@c@":
		p@c@ := h.rdb.TxPipeline()
		p@c@.Incr(ctx, h.key(id, "n@c@"))
		p@c@.Expire(ctx, h.key(id, "n@c@"), time.Minute)
		if _, err := p@c@.Exec(ctx); err != nil {
			return nil, err
		}
`, `
	case "op@c@":
		w@c@ := h.key(id, "w@c@")
		err := h.rdb.Watch(ctx, func(tx *redis.Tx) error {
			n, err := tx.Get(ctx, w@c@).Int64()
			if err != nil && !errors.Is(err, redis.Nil) {
				return err
			}
			total += n
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, w@c@, n+1, 0)
				p.Expire(ctx, h.key(id, "w@c@"), time.Hour)
				return nil
			})
			return err
		}, w@c@)
		if err != nil {
			return nil, err
		}
`, `
	case "op@c@":
		v, err := script.Run(ctx, h.rdb, []string{h.key(id, "s@c@")}).Result()
		if err != nil {
			return nil, err
		}
		return v, nil
`, `
	case "op@c@":
		key = fmt.Sprintf("%s:{%s}:l@c@", h.prefix, id)
		for i, a := range args {
			ks = append(ks, key+":"+a)
			total += int64(i)
		}
`, `
	case "op@c@":
		return h.rdb.MGet(ctx, @kd@.Item(id), @kd@.Counter(id), @kd@.Item(id)+":m@c@").Result()
`, `
	case "op@c@":
		var b strings.Builder
		for _, a := range args {
			b.WriteString(strings.ToUpper(a))
		}
		total += int64(b.Len())
		key = b.String()
`, `
	case "op@c@":
		q@c@ := h.rdb.Pipeline()
		for _, a := range args {
			q@c@.SAdd(ctx, h.key(id, "set@c@"), a)
		}
		if _, err := q@c@.Exec(ctx); err != nil {
			return nil, err
		}
`}

// huge is package huge: a dispatcher whose one function has cases cases,
// and a key function with one return per case.
func (g *gen) huge(cases int) error {
	d := g.domains[0]
	var sw, ret strings.Builder
	for c := range cases {
		sw.WriteString(subst(hugeCases[g.rng.IntN(len(hugeCases))], "c", fmt.Sprint(c), "kd", d.name))
		if c%2 == 0 {
			fmt.Fprintf(&ret, "\tcase \"op%d\":\n\t\treturn h.key(id, \"k%d\")\n", c, c)
		}
	}
	src := subst(`// Package huge is a command dispatcher written as one very large function.
package huge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"@kdpath@"
)

// Handler runs operations on Redis.
type Handler struct {
	rdb    redis.UniversalClient
	prefix string
}

// New returns a Handler.
func New(rdb redis.UniversalClient) *Handler {
	return &Handler{rdb: rdb, prefix: "huge"}
}

var script = redis.NewScript(`+"`"+`return redis.call("GET", KEYS[1])`+"`"+`)

var errNegative = errors.New("negative total")

func (h *Handler) key(id, f string) string { return h.prefix + ":{" + id + "}:" + f }

// Dispatch runs operation op on id.
func (h *Handler) Dispatch(ctx context.Context, op, id string, args []string) (any, error) {
	var key string
	var ks []string
	var total int64
	switch op {
@cases@	default:
		return nil, fmt.Errorf("unknown operation %q", op)
	}
	if total < 0 {
		return nil, errNegative
	}
	if len(ks) > 0 {
		//slotlint:ignore every operation builds its keys under the id hashtag
		return h.rdb.Exists(ctx, ks...).Result()
	}
	return key, nil
}

// KeyFor is the key that operation op works on.
func (h *Handler) KeyFor(op, id string) string {
	switch op {
@returns@	}
	return h.key(id, op)
}
`, "kdpath", d.path, "cases", sw.String(), "returns", ret.String())
	return g.add("huge/huge.go", src)
}
