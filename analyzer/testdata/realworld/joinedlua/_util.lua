-- keySetKey names the set of the keys that point at an object.
local function keySetKey(object_id)
    return object_id .. "-keys"
end
