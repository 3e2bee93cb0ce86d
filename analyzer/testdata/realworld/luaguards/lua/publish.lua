-- Reduced from centrifuge's internal/redis_lua/map_broker_add.lua: KEYS the
-- caller does not use come as a slot-aligned placeholder (ARGV[2]), which
-- the script turns back into '' and tests for before each use.
local stream_key = KEYS[1]
local state_key = KEYS[2]
local nil_key = ARGV[2] or ""
if nil_key ~= "" then
  if stream_key == nil_key then stream_key = '' end
  if state_key == nil_key then state_key = '' end
end
local offset = 0
if stream_key ~= '' then
  offset = redis.call("xadd", stream_key, "*", "d", ARGV[1])
end
local wipe = false
if state_key ~= '' and ARGV[3] ~= '' then
  redis.call("hset", state_key, ARGV[3], ARGV[1])
  wipe = redis.call("hlen", state_key) > 1000
end
if wipe then
  redis.call("del", state_key)
end
if '' ~= stream_key then
  redis.call("pexpire", stream_key, 60000)
end
return offset
