// Package rueidis is slotlint's demo for rueidis: a shopping cart kept in
// Redis Cluster with rueidis's command builder.
package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

// Checkout moves the cart to the order and clears it, in one transaction on
// a dedicated connection. The cart and the order hash to different slots:
// the cluster refuses the transaction.
func Checkout(ctx context.Context, c rueidis.Client, user, order string) error {
	return c.Dedicated(func(d rueidis.DedicatedClient) error {
		for _, r := range d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Rename().Key("cart:"+user).Newkey("order:"+order+":items").Build(),
			d.B().Del().Key("cart:"+user+":total").Build(),
			d.B().Exec().Build(),
		) {
			if err := r.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

// CheckoutFixed keys the order under the user's hashtag, so every key of
// the transaction is in the user's slot.
func CheckoutFixed(ctx context.Context, c rueidis.Client, user, order string) error {
	return c.Dedicated(func(d rueidis.DedicatedClient) error {
		for _, r := range d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Rename().Key("cart:{"+user+"}").Newkey("order:{"+user+"}:"+order+":items").Build(),
			d.B().Del().Key("cart:{"+user+"}:total").Build(),
			d.B().Exec().Build(),
		) {
			if err := r.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

// Prices reads two price keys with one MGET.
func Prices(ctx context.Context, c rueidis.Client) ([]string, error) {
	return c.Do(ctx, c.B().Mget().Key("price:sku1", "price:sku2").Build()).AsStrSlice()
}

// PricesFixed reads them from one slot.
func PricesFixed(ctx context.Context, c rueidis.Client) ([]string, error) {
	return c.Do(ctx, c.B().Mget().Key("price:{catalog}:sku1", "price:{catalog}:sku2").Build()).AsStrSlice()
}

var addItem = rueidis.NewLuaScript(`
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('INCR', 'stats:items')
return 1
`)

// AddItem counts an item in the cart, and in a global counter that the
// script does not declare in KEYS.
func AddItem(ctx context.Context, c rueidis.Client, user, sku string) error {
	return addItem.Exec(ctx, c, []string{"cart:{" + user + "}"}, []string{sku}).Error()
}
