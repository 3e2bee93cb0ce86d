package main

// genmethods type-checks go-redis v8 from source to build and check its
// method table; this import keeps v8 in go.mod, where go mod tidy would
// otherwise drop it, since no other package of slotlint imports it.
import _ "github.com/go-redis/redis/v8"
