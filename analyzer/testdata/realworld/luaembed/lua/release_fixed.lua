-- release a lock held by ARGV[1], and count releases in KEYS[2]
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("INCR", KEYS[2])
  return redis.call("DEL", KEYS[1])
end
return 0
