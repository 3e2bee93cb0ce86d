-- KEYS[1]: the sorted set of future events; ARGV[1]: now; ARGV[2]: the key prefix
local events = redis.call("ZRANGE", KEYS[1], "-inf", ARGV[1], "BYSCORE")
local prefix = ARGV[2]
for i = 1, #events do
  local queue = redis.call("HGET", events[i], "queue")
  redis.call("SADD", prefix .. "task-set:" .. queue, events[i])
  redis.call("ZREM", KEYS[1], events[i])
end
return #events
