-- The same script with a shared fallback key in place of '': the state of
-- every channel whose caller leaves KEYS[2] unused goes to one key, in a
-- slot of its own. The guard tests for '' and lets the fallback through.
local stream_key = KEYS[1]
local state_key = KEYS[2]
local nil_key = ARGV[2] or ""
if nil_key ~= "" then
  if stream_key == nil_key then stream_key = '' end
  if state_key == nil_key then state_key = 'cf:state:shared' end
end
local offset = 0
if stream_key ~= '' then
  offset = redis.call("xadd", stream_key, "*", "d", ARGV[1])
end
if state_key ~= '' and ARGV[3] ~= '' then
  redis.call("hset", state_key, ARGV[3], ARGV[1])
end
return offset
