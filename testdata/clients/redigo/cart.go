// Package redigo is slotlint's demo for redigo: a shopping cart kept in
// Redis Cluster through redigo connections (from a cluster layer such as
// redisc, which hands out redis.Conn values).
package redigo

import (
	"github.com/gomodule/redigo/redis"
)

// Checkout moves the cart to the order and clears it in MULTI/EXEC. The
// cart and the order hash to different slots: the cluster refuses the
// transaction.
func Checkout(c redis.Conn, user, order string) error {
	c.Send("MULTI")
	c.Send("RENAME", "cart:"+user, "order:"+order+":items")
	c.Send("DEL", "cart:"+user+":total")
	_, err := c.Do("EXEC")
	return err
}

// CheckoutFixed keys the order under the user's hashtag.
func CheckoutFixed(c redis.Conn, user, order string) error {
	c.Send("MULTI")
	c.Send("RENAME", "cart:{"+user+"}", "order:{"+user+"}:"+order+":items")
	c.Send("DEL", "cart:{"+user+"}:total")
	_, err := c.Do("EXEC")
	return err
}

// Prices reads two price keys with one MGET.
func Prices(c redis.Conn) ([]string, error) {
	return redis.Strings(c.Do("MGET", "price:sku1", "price:sku2"))
}

// PricesFixed reads them from one slot.
func PricesFixed(c redis.Conn) ([]string, error) {
	return redis.Strings(c.Do("MGET", "price:{catalog}:sku1", "price:{catalog}:sku2"))
}

var addItem = redis.NewScript(1, `
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('INCR', 'stats:items')
return 1
`)

// AddItem counts an item in the cart, and in a global counter that the
// script does not declare in KEYS.
func AddItem(c redis.Conn, user, sku string) error {
	_, err := addItem.Do(c, "cart:{"+user+"}", sku)
	return err
}
