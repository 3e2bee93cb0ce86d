-- KEYS[1] the code of a phone, KEYS[2] its send counter, ARGV[1] the code,
-- ARGV[2] its TTL
local cnt = redis.call("INCR", KEYS[2])
if redis.call("TTL", KEYS[1]) > 540 then
  return -1
end
redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2])
return cnt
