package scriptruns

import (
	"github.com/gomodule/redigo/redis"
)

// Origin: evolsnow/samaritan (model/conn_redis.go, readProjects and its
// callers): one helper runs a script that reads a user's project ids from
// the set it is given and each project's hash, "project:" .. id, a key it
// builds itself. Each caller's run fails on a cluster, and each is
// reported where the helper is called.
var readProjectsLua = redis.NewScript(1, `
local data = redis.call("SMEMBERS", KEYS[1])
local out = {}
for idx = 1, #data do
	out[idx] = redis.call("HGETALL", "project:" .. data[idx])
end
return out`)

func readProjects(conn redis.Conn, key string) ([]interface{}, error) {
	return redis.Values(readProjectsLua.Do(conn, key))
}

func createdProjects(conn redis.Conn, uid string) ([]interface{}, error) {
	return readProjects(conn, "user:"+uid+":projects:create") // want `script readProjectsLua line 5: redis.call\("HGETALL", "project:" .. data\[idx\]\) touches a key not declared in KEYS`
}

func joinedProjects(conn redis.Conn, uid string) ([]interface{}, error) {
	return readProjects(conn, "user:"+uid+":projects:join") // want `script readProjectsLua line 5: redis.call\("HGETALL", "project:" .. data\[idx\]\) touches a key not declared in KEYS`
}

// The fix: the script returns the ids, and the client reads each project's
// hash with a command of its own.
var projectIDsLua = redis.NewScript(1, `return redis.call("SMEMBERS", KEYS[1])`)

func joinedProjectIDs(conn redis.Conn, uid string) ([]string, error) {
	return redis.Strings(projectIDsLua.Do(conn, "user:"+uid+":projects:join"))
}
