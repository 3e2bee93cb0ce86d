-- publish_idempotent publishes once per idempotency key: the caller
-- supplies the result key, nothing here reads KEYS or ARGV.
local function publish_idempotent(result_key, payload, channel)
  local done = redis.call("hget", result_key, "e")
  if done then
    return done
  end
  redis.call("hset", result_key, "e", "1")
  return redis.call("publish", channel, payload)
end
