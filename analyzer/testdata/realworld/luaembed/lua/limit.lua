-- fixed window limiter: KEYS[1] the window's counter
local n = redis.call("INCR", KEYS[1])
if n == 1 then
  redis.call("EXPIRE", KEYS[1], ARGV[1])
end
redis.call("HINCRBY", "limiter:stats", "calls", 1)
return n
