-- KEYS[1] the stream, ARGV[1] the group, ARGV[2] the id
redis.call("XACK", KEYS[1], ARGV[1], ARGV[2])
return redis.call("XDEL", KEYS[1], ARGV[2])
