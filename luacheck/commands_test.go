package luacheck

import "github.com/slotlint/slotlint/ruleset"

// testCommands are the key specs of the commands the tests use, written by
// hand after Redis 7's COMMAND INFO, until rules.yaml's generated table is
// loadable.
var testCommands = map[string]*ruleset.Command{}

func init() {
	one := func(index int) ruleset.KeySpec { return ruleset.KeySpec{Index: index, LastKey: 0, Step: 1} }
	all := ruleset.KeySpec{Index: 1, LastKey: -1, Step: 1}
	def := func(name string, write bool, specs ...ruleset.KeySpec) {
		flags := []string{"readonly"}
		if write {
			flags = []string{"write"}
		}
		testCommands[name] = &ruleset.Command{Name: name, Flags: flags, Keys: specs}
	}
	for _, n := range []string{"get", "smembers", "sismember", "scard", "llen", "lrange", "lindex", "zscore",
		"zrangebyscore", "zrange", "zcard", "zrank", "hget", "hgetall", "hmget", "hexists", "hlen", "ttl", "pttl",
		"type", "xlen", "xrange"} {
		def(n, false, one(1))
	}
	for _, n := range []string{"set", "sadd", "srem", "lpush", "rpush", "lpop", "rpop", "lrem", "ltrim", "zadd",
		"zrem", "zincrby", "zremrangebyscore", "hset", "hdel", "hincrby", "hsetnx", "expire", "pexpire", "incr",
		"incrby", "decr", "xadd", "xdel", "setnx", "getdel", "persist"} {
		def(n, true, one(1))
	}
	def("lmove", true, one(1), one(2))
	def("rpoplpush", true, one(1), one(2))
	def("smove", true, one(1), one(2))
	def("rename", true, one(1), one(2))
	def("del", true, all)
	def("unlink", true, all)
	def("exists", false, all)
	def("mget", false, all)
	def("mset", true, ruleset.KeySpec{Index: 1, LastKey: -1, Step: 2})
	def("zunionstore", true, one(1), ruleset.KeySpec{Index: 2, IsKeyNum: true, KeyNumIdx: 0, FirstKey: 1, Step: 1})
	def("xread", false, ruleset.KeySpec{Keyword: "STREAMS", StartFrom: 1, LastKey: -1, Step: 1, Limit: 2})
	def("object|encoding", false, one(2))
	def("publish", false)
	def("time", false)
	def("ping", false)
	testCommands["del"].Split = true
	testCommands["mget"].Split = true
	testCommands["exists"].Split = true
	testCommands["publish"].Flags = []string{"pubsub", "fast"}
}

func lookupTest(name string) *ruleset.Command { return testCommands[name] }
