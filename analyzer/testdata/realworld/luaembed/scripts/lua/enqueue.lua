-- KEYS[1] the task hash, KEYS[2] the pending list
redis.call("HSET", KEYS[1], "msg", ARGV[1])
redis.call("LPUSH", KEYS[2], ARGV[2])
redis.call("SADD", "asynq:queues", ARGV[3])
return 1
