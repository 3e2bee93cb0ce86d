local object_id = redis.call("GET", KEYS[1])
if object_id == false then
    return nil
end
return redis.call("HGET", object_id, "object")
