-- KEYS[1]: the sorted set of future events; ARGV[1]: now
local events = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", ARGV[1])
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", ARGV[1])
return events
