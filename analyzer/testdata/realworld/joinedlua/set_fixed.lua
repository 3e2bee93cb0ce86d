-- KEYS: [1]: object_id; [2]: its set of keys; [>2]: index keys.
local object_id = KEYS[1]
redis.call("HSET", object_id, "object", ARGV[1])
for i = 3, #KEYS do
    redis.call("SADD", KEYS[2], KEYS[i])
    redis.call("SET", KEYS[i], object_id)
end
