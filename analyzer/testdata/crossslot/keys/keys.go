// Package keys builds the application's keys, for other packages.
package keys

import (
	"fmt"

	"github.com/slotlint/slotlint/keyspace"
)

const Prefix = "shop:"

var Inventory = keyspace.MustTemplate("inventory:{<sku>}") // want Inventory:`keyTemplate\("inventory:\{<sku>\}"\)`

func Order(sku string, id int) string { // want Order:`keyFunc\("order:\{<sku>\}:<id>"\)`
	return fmt.Sprintf("order:{%s}:%d", sku, id)
}

func Cache(user string) string { // want Cache:`keyFunc\("shop:user:<user>:cache"\)`
	return Prefix + "user:" + user + ":cache"
}

func TmpCache(user string) string { // want TmpCache:`keyFunc\("tmp:shop:user:<user>:cache"\)`
	return "tmp:" + Cache(user)
}
