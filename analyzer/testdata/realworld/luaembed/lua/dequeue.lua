-- KEYS[1] the pending list, KEYS[2] the active list
return redis.call("LMOVE", KEYS[1], KEYS[2], "RIGHT", "LEFT")
