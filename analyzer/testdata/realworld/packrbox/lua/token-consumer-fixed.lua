local userID = redis.call("GET", KEYS[1])

if not userID then
	return nil
end

redis.call("DEL", KEYS[1])

return userID
