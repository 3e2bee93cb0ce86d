-- release a lock
return redis.call('DEL', KEYS[1])
