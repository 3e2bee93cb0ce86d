package filled

import (
	redigo "github.com/gomodule/redigo/redis"
)

// Origin: mrz1836/go-cache v1.1.11 (dependency.go, KillByDependencyRaw,
// and scripts.go): EVALSHA of a script's digest written in the code,
// with no KEYS; its ARGV, made with make and filled by index in a loop,
// are the dependency sets, and the script reads each one and deletes it
// with its members. Every key the script touches is undeclared.
const dependencyPrefix = "depend:"

const killByDependencySha = "b6fc6964b7e50d96cfb191260bf6d99b371d62fd"

const killByDependencyLua = `
local all_keys = {}
for _, key in ipairs(ARGV) do
	table.insert(all_keys, key)
	local set = redis.call("SMEMBERS", key)
	for _, v in ipairs(set) do
		table.insert(all_keys, v)
	end
end
return redis.call("DEL", unpack(all_keys))
`

func killByDependency(conn redigo.Conn, keys ...string) (int, error) {
	if len(keys) == 0 {
		return 0, nil
	}
	args := make([]interface{}, len(keys)+2)
	args[0] = killByDependencySha
	args[1] = 0
	for i, key := range keys {
		args[i+2] = dependencyPrefix + key
	}
	return redigo.Int(conn.Do("EVALSHA", args...)) // want `script killByDependencyLua line 5: redis.call\("SMEMBERS", key\) touches a key not declared in KEYS` `script killByDependencyLua line 5: an element of ARGV is used as a key` `script killByDependencyLua line 10: redis.call\("DEL", unpack\(all_keys\)\) touches a key not declared in KEYS`
}

// Fixed: one dependency set a call, passed in KEYS.
const killOneDependencySha = "d902a8c6070bb6f5b1944cbd5650aee017a67d80"

const killOneDependencyLua = `
local all_keys = {KEYS[1]}
local set = redis.call("SMEMBERS", KEYS[1])
for _, v in ipairs(set) do
	table.insert(all_keys, v)
end
return #all_keys
`

func killByDependencyFixed(conn redigo.Conn, keys ...string) (int, error) {
	total := 0
	for _, key := range keys {
		n, err := redigo.Int(conn.Do("EVALSHA", killOneDependencySha, 1, dependencyPrefix+key))
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}
