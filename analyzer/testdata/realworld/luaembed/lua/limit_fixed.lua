-- fixed window limiter: KEYS[1] the window's counter, KEYS[2] its stats
local n = redis.call("INCR", KEYS[1])
if n == 1 then
  redis.call("EXPIRE", KEYS[1], ARGV[1])
end
redis.call("HINCRBY", KEYS[2], "calls", 1)
return n
