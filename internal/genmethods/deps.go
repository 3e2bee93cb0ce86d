package main

// genmethods type-checks go-redis v8, v7 and v6 from source to build and
// check their method tables; these imports keep them in go.mod, where go mod
// tidy would otherwise drop them, since no other package of slotlint imports
// them.
import (
	_ "github.com/go-redis/redis"
	_ "github.com/go-redis/redis/v7"
	_ "github.com/go-redis/redis/v8"
)
