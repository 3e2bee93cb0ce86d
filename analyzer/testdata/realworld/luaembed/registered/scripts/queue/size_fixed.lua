-- KEYS: the task sets of the queues, each passed by the caller
local res = {}
for i = 1, #KEYS do
  table.insert(res, KEYS[i])
  table.insert(res, redis.call("SCARD", KEYS[i]))
end
return res
