// Package luasyntax shows the lua-syntax check.
package luasyntax

import "github.com/redis/go-redis/v9"

// The call to LPUSH is never closed.
var broken = redis.NewScript("\nredis.call(\"LPUSH\", KEYS[1], ARGV[1]\n") // want `script broken line 2: syntax error at column 37: unexpected end of script`
