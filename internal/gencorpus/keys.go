package main

import "fmt"

// keysFile is the shared key package: helpers that every service uses, and
// Space, a struct that holds a prefix and a hashtag.
func keysFile() string {
	return `// Package keys builds the Redis keys that the services share.
package keys

import (
	"fmt"
	"strconv"
	"strings"
)

// App prefixes every key of the application.
const App = "shop"

// Space is a family of keys that share one hashtag.
type Space struct {
	Prefix string
	Tag    string
}

// Key is the key of id in the space.
func (s Space) Key(id string) string {
	return s.Prefix + ":{" + s.Tag + "}:" + id
}

// Field is the key of one field of id in the space.
func (s Space) Field(id, field string) string {
	return s.Key(id) + ":" + field
}

// Sub is a space inside s, with the same hashtag.
func (s Space) Sub(name string) Space {
	return Space{Prefix: s.Prefix + ":" + name, Tag: s.Tag}
}

// User is the key of a user's record.
func User(id string) string {
	return App + ":user:{" + id + "}"
}

// UserField is the key of one field of a user's record.
func UserField(id, field string) string {
	return User(id) + ":" + field
}

// Order is the key of an order.
func Order(id int64) string {
	return fmt.Sprintf("%s:order:{%d}", App, id)
}

// Cart is the key of a user's cart. It has no hashtag.
func Cart(uid string) string {
	return App + ":cart:" + uid
}

// Tagged puts name under a hashtag.
func Tagged(tag, name string) string {
	return "{" + tag + "}:" + name
}

// Join joins key segments with ':'.
func Join(parts ...string) string {
	return strings.Join(parts, ":")
}

// Shard is the key of shard n of a counter.
func Shard(name string, n int) string {
	return App + ":" + name + ":" + strconv.Itoa(n)
}

// Valid reports whether a key segment is usable: not empty, and without
// braces or spaces.
func Valid(segment string) bool {
	if segment == "" {
		return false
	}
	for _, r := range segment {
		switch r {
		case '{', '}', ' ', '\t', '\n':
			return false
		}
	}
	return true
}
`
}

// A domainPkg is a package of key helpers for one domain.
type domainPkg struct {
	name, path, word string
}

func (g *gen) domain(i int) error {
	d := &domainPkg{name: fmt.Sprintf("d%02d", i), word: g.word()}
	d.path = g.module + "/keys/" + d.name
	g.domains = append(g.domains, d)
	src := subst(`// Package @name@ builds the keys of the @word@ domain.
package @name@

import (
	"fmt"
	"strconv"

	"@module@/keys"
)

const prefix = keys.App + ":@word@@i@"

// Space holds the @word@ keys that share the "all" hashtag.
var Space = keys.Space{Prefix: prefix, Tag: "all"}

// Queue is the list of pending @word@ jobs.
var Queue = prefix + ":{jobs}:pending"

// Done is the list of finished @word@ jobs.
var Done = prefix + ":{jobs}:done"

// Item is the key of one @word@.
func Item(id string) string {
	return prefix + ":{" + id + "}:item"
}

// Counter is the counter of one @word@.
func Counter(id string) string {
	return prefix + ":{" + id + "}:count"
}

// Lock is the lock key of one @word@. It has no hashtag.
func Lock(id string) string {
	return fmt.Sprintf("lock:%s:%s", prefix, id)
}

// Index is the key of page n of the @word@ index.
func Index(n int) string {
	return prefix + ":index:" + strconv.Itoa(n)
}

// Job is the key of a job in the queue's slot.
func Job(id string) string {
	return prefix + ":{jobs}:job:" + id
}
`, "name", d.name, "word", d.word, "module", g.module, "i", fmt.Sprint(i))
	return g.add("keys/"+d.name+"/keys.go", src)
}
