// Package cmds is a reduced rueidis command builder, in the shape that
// rueidis generates from Redis's command JSON.
package cmds

type Builder struct{ ks uint16 }
type Completed struct{}
type Incomplete struct {
	cs *struct{ s []string }
	ks uint16
}

func slot(string) uint16         { return 0 }
func check(a, b uint16) uint16   { return a }
func get() *struct{ s []string } { return nil }

const NoSlot = 1 << 15

type Rename Incomplete
type RenameKey Incomplete
type RenameNewkey Incomplete

func (b Builder) Rename() (c Rename) {
	c = Rename{cs: get(), ks: b.ks}
	c.cs.s = append(c.cs.s, "RENAME")
	return c
}

func (c Rename) Key(key string) RenameKey {
	c.ks = check(c.ks, slot(key))
	c.cs.s = append(c.cs.s, key)
	return (RenameKey)(c)
}

func (c RenameKey) Newkey(newkey string) RenameNewkey {
	c.ks = check(c.ks, slot(newkey))
	c.cs.s = append(c.cs.s, newkey)
	return (RenameNewkey)(c)
}

func (c RenameNewkey) Build() Completed { return Completed{} }

type Mget Incomplete
type MgetKey Incomplete

func (b Builder) Mget() (c Mget) {
	c = Mget{cs: get(), ks: b.ks}
	c.cs.s = append(c.cs.s, "MGET")
	return c
}

func (c Mget) Key(key ...string) MgetKey {
	for _, k := range key {
		c.ks = check(c.ks, slot(k))
	}
	c.cs.s = append(c.cs.s, key...)
	return (MgetKey)(c)
}

func (c MgetKey) Key(key ...string) MgetKey {
	for _, k := range key {
		c.ks = check(c.ks, slot(k))
	}
	c.cs.s = append(c.cs.s, key...)
	return c
}

func (c MgetKey) Build() Completed { return Completed{} }

type ObjectEncoding Incomplete
type ObjectEncodingKey Incomplete

func (b Builder) ObjectEncoding() (c ObjectEncoding) {
	c = ObjectEncoding{cs: get(), ks: b.ks}
	c.cs.s = append(c.cs.s, "OBJECT", "ENCODING")
	return c
}

func (c ObjectEncoding) Key(key string) ObjectEncodingKey {
	c.ks = check(c.ks, slot(key))
	c.cs.s = append(c.cs.s, key)
	return (ObjectEncodingKey)(c)
}

type Ping Incomplete

func (b Builder) Ping() (c Ping) {
	c = Ping{cs: get(), ks: b.ks}
	c.cs.s = append(c.cs.s, "PING")
	return c
}

type Frob Incomplete

func (b Builder) Frob() (c Frob) {
	c = Frob{cs: get(), ks: b.ks}
	c.cs.s = append(c.cs.s, "FROB")
	return c
}

func (c Frob) Key(key string) Frob {
	c.ks = check(c.ks, slot(key))
	return c
}

type Multi Incomplete

func (b Builder) Multi() (c Multi) {
	c = Multi{cs: get(), ks: b.ks}
	c.cs.s = append(c.cs.s, "MULTI")
	return c
}
