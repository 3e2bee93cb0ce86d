-- KEYS: [1]: object_id; [>1]: index keys.
local object_id = KEYS[1]
redis.call("HSET", object_id, "object", ARGV[1])
local setKey = keySetKey(object_id)
for i = 2, #KEYS do
    redis.call("SADD", setKey, KEYS[i])
    redis.call("SET", KEYS[i], object_id)
end
