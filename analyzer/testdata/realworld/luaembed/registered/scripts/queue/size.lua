-- KEYS[1]: the set of the queues' task sets
local res = {}
local sets = redis.call("SMEMBERS", KEYS[1])
for i = 1, #sets do
  table.insert(res, sets[i])
  table.insert(res, redis.call("SCARD", sets[i]))
end
return res
