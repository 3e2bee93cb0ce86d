// Package kmkeys builds keys for package kmapp: a template, a helper and a
// constant, so that the families kmapp uses come from another package.
package kmkeys

import (
	"fmt"

	"github.com/slotlint/slotlint/keyspace"
)

// Cart is a shopping cart; its items share the user's hashtag.
var Cart = keyspace.MustTemplate("cart:{<user>}") // want Cart:`keyTemplate\("cart:{<user>}"\)`

// Items is a user's cart items.
var Items = keyspace.MustTemplate("cart:{<user>}:items") // want Items:`keyTemplate\("cart:{<user>}:items"\)`

// Seen is the set of users seen today.
const Seen = "users:seen"

// Profile is a user's profile.
func Profile(uid int) string { return fmt.Sprintf("profile:%d", uid) } // want Profile:`keyFunc\("profile:<uid>"\)`
