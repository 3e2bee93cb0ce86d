-- release a lock held by ARGV[1], and count releases
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("INCR", "locks:released")
  return redis.call("DEL", KEYS[1])
end
return 0
