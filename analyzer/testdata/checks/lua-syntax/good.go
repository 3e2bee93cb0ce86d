package luasyntax

import "github.com/redis/go-redis/v9"

var push = redis.NewScript("\nreturn redis.call(\"LPUSH\", KEYS[1], ARGV[1])\n")
