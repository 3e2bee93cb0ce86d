-- KEYS[1] the room's players, ARGV[1] the player, ARGV[2] the room's size
if redis.call("SCARD", KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call("SADD", KEYS[1], ARGV[1])
return 1
