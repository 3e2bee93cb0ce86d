package luacheck

import (
	"fmt"
	"testing"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
)

// TestFlow follows keys through the script: locals, branches, loops,
// functions, tables and library calls.
func TestFlow(t *testing.T) {
	// The key count is left unknown where the case is not about it, so the
	// script need not read every key.
	orders := Call{Keys: lits(ordersPending)}
	other := fmt.Sprintf("slot %d vs hashtag \"{orders}\" of KEYS[1]", slotOf("emq:other"))
	runCases(t, []checkCase{
		{
			name: "local function called with KEYS and a literal",
			src: `local function push(list, id)
  redis.call('LPUSH', list, id)
end
push(KEYS[1], ARGV[1])
push('emq:other', ARGV[1])
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 2, 3, `redis.call("LPUSH", list, id) touches a key not declared in KEYS: list may hold the string literal "emq:other"; it is wrong on Redis Cluster too (`+other+")"),
			},
		},
		{
			name: "local function called with KEYS only",
			src: `local function push(list, id)
  return redis.call('LPUSH', list, id)
end
push(KEYS[1], ARGV[1])
local f = function(k) return redis.call('GET', k) end
return f(KEYS[1])
`,
			call: orders,
		},
		{
			name: "closure reads a local holding a KEYS element",
			src: `local key = KEYS[1]
local function get()
  return redis.call('GET', key)
end
return get()
`,
			call: orders,
		},
		{
			name: "parameter bound to ARGV",
			src: `local function get(k)
  return redis.call('GET', k)
end
return get(ARGV[1])
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 2, 10, `redis.call("GET", k) touches a key not declared in KEYS: k holds ARGV[1]; it may be in another slot than KEYS[1] (unknown hashtag vs hashtag "{orders}" of KEYS[1])`, "pass it in KEYS, not in ARGV"),
				w(CategoryArity, 2, 10, `ARGV[1] is used as a key by redis.call("GET", k), so the caller passes a key in ARGV; pass it in KEYS`),
			},
		},
		{
			name: "function the script never calls",
			src: `local function helper(k)
  return redis.call('GET', k)
end
return 1
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 2, 10, `k holds the parameter k of function helper, which the script calls from nowhere the analysis follows; its value is not traced to KEYS; it may be in another slot than KEYS[1]`),
			},
		},
		{
			name: "nested functions and a global function",
			src: `function outer(a)
  local function inner(b)
    return redis.call('INCR', b .. ':n')
  end
  return inner(a)
end
return outer(KEYS[1])
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKeySameSlot, 3, 12, `redis.call("INCR", b .. ":n") touches a key not declared in KEYS: the concatenation KEYS[1] .. ":n"; it keeps the hashtag "{orders}" of KEYS[1]`, "pass the whole key in KEYS"),
			},
		},
		{
			name: "recursion over KEYS",
			src: `local function drop(n)
  if n == 0 then
    return 0
  end
  redis.call('DEL', KEYS[n])
  return drop(n - 1)
end
return drop(#KEYS)
`,
			call: keysCall(ordersPending, ordersActive),
		},
		{
			name: "pcall of redis.call",
			src: `local ok = pcall(redis.call, 'SET', 'emq:lock', 1)
return redis.pcall('INCR', KEYS[1])
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 1, 12, `pcall(redis.call, "SET", "emq:lock", 1) touches a key not declared in KEYS: the string literal "emq:lock"`),
			},
		},
		{
			name: "pcall of a function",
			src: `local ok, err = pcall(function()
  redis.call('DEL', ARGV[1])
end)
return ok
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 2, 3, `redis.call("DEL", ARGV[1]) touches a key not declared in KEYS: ARGV[1]`),
				w(CategoryArity, 2, 3, `ARGV[1] is used as a key`),
			},
		},
		{
			name: "server.pcall",
			src:  `return server.pcall('GET', 'emq:other')`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 1, 8, `server.pcall("GET", "emq:other") touches a key not declared in KEYS`)},
		},
		{
			name: "command name in a local",
			src: `local cmd = 'SADD'
redis.call(cmd, 'emq:other', 1)
`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 2, 1, `redis.call(cmd, "emq:other", 1) touches a key not declared in KEYS: the string literal "emq:other"`)},
		},
		{
			name: "command name computed",
			src:  `return redis.call(ARGV[1], 'emq:other')`,
			call: orders,
		},
		{
			name: "branch reassigns a local",
			src: `local k = KEYS[1]
if ARGV[1] == 'other' then
  k = ARGV[2]
end
return redis.call('GET', k)
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 5, 8, `k may hold ARGV[2]`),
				w(CategoryArity, 5, 8, `ARGV[2] is used as a key`),
			},
		},
		{
			name: "reassignment builds a key",
			src: `local k = KEYS[1]
k = k .. ':meta'
return redis.call('HGETALL', k)
`,
			call: keysCall(ordersJob),
			want: []want{w(CategoryUndeclaredKeySameSlot, 3, 8, `k holds the concatenation KEYS[1] .. ":meta"; it keeps the hashtag "{orders}" of KEYS[1], so it works on Redis Cluster`, "pass the whole key in KEYS")},
		},
		{
			name: "concatenation with KEYS whose hashtag is unknown",
			src:  `return redis.call('HGETALL', KEYS[1] .. ':meta')`,
			want: []want{w(CategoryUndeclaredKey, 1, 8, `the concatenation KEYS[1] .. ":meta"; it stays in the slot of KEYS[1] only if KEYS[1] has a hashtag: without a shebang, Redis 7 runs it only while both slots are on one node`)},
		},
		{
			name: "concatenation with a key without hashtag",
			src:  `return redis.call('HGETALL', KEYS[1] .. ':meta')`,
			call: keysCall("emq:job:42"),
			want: []want{w(CategoryUndeclaredKey, 1, 8, fmt.Sprintf(`it is wrong on Redis Cluster too (slot %d vs slot %d of KEYS[1])`, slotOf("emq:job:42:meta"), slotOf("emq:job:42")))},
		},
		{
			name: "concatenation with ARGV known at run time",
			src:  `return redis.call('GET', KEYS[1] .. ':' .. ARGV[1])`,
			call: runtimeCall([]string{"emq:{orders}"}, "x"),
			want: []want{w(CategoryUndeclaredKeySameSlot, 1, 8, `the concatenation KEYS[1] .. ":" .. ARGV[1]; it keeps the hashtag "{orders}" of KEYS[1]`)},
		},
		{
			name: "symbolic keys from the analyzer",
			src:  `return redis.call('HGETALL', KEYS[1] .. ':meta')`,
			call: Call{Keys: []keyspace.Key{sym("emq:{<queue>}:job:<id>")}, KnownKeyCount: true},
			want: []want{w(CategoryUndeclaredKeySameSlot, 1, 8, `it keeps the hashtag "{<queue>}" of KEYS[1]`)},
		},
		{
			name: "ipairs over KEYS",
			src: `for _, k in ipairs(KEYS) do
  redis.call('DEL', k)
end
for i = 1, #KEYS do
  redis.call('EXPIRE', KEYS[i], ARGV[1])
end
local n = 0
while n < #KEYS do
  n = n + 1
  redis.call('INCR', KEYS[n])
end
`,
			call: keysCall(ordersPending, ordersActive),
		},
		{
			name: "ipairs over KEYS builds keys",
			src: `for i, k in ipairs(KEYS) do
  redis.call('SET', k .. ':copy', ARGV[i])
end
`,
			call: keysCall(ordersPending, ordersActive),
			want: []want{w(CategoryUndeclaredKeySameSlot, 2, 3, `the concatenation KEYS[i] .. ":copy"; it keeps the hashtag "{orders}" of KEYS[1]`)},
		},
		{
			name: "ipairs over KEYS builds keys, one without hashtag",
			src: `for i, k in ipairs(KEYS) do
  redis.call('SET', k .. ':copy', ARGV[i])
end
`,
			call: keysCall(ordersPending, "emq:active"),
			want: []want{
				w(CategoryCrossSlot, 0, 0, `KEYS[1] and KEYS[2] must share a slot`),
				w(CategoryUndeclaredKey, 2, 3, `the concatenation KEYS[i] .. ":copy"; it is wrong on Redis Cluster too`),
			},
		},
		{
			name: "ipairs over ARGV",
			src: `for _, k in ipairs(ARGV) do
  redis.call('DEL', k)
end
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 2, 3, `k holds an element of ARGV`),
				w(CategoryArity, 2, 3, `an element of ARGV is used as a key by redis.call("DEL", k), so the caller passes keys in ARGV; pass them in KEYS`),
			},
		},
		{
			name: "ipairs over a reply",
			src: `for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', id)
end
`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 2, 3, `id holds a value read from Redis by redis.call("SMEMBERS", KEYS[1]) at line 1`)},
		},
		{
			name: "unpack KEYS",
			src:  `return redis.call('DEL', unpack(KEYS))`,
			call: keysCall(ordersPending, ordersActive, ordersLeases),
		},
		{
			name: "unpack ARGV",
			src:  `return redis.call('DEL', unpack(ARGV))`,
			call: Call{Keys: lits(ordersPending), Args: lits("emq:{orders}:a", "emq:b"), KnownArgCount: true},
			want: []want{
				w(CategoryUndeclaredKeySameSlot, 1, 8, `unpack(ARGV) passes ARGV[1]; it keeps the hashtag "{orders}" of KEYS[1]`),
				w(CategoryArity, 1, 8, `ARGV[1] ("emq:{orders}:a") is used as a key`),
				w(CategoryUndeclaredKey, 1, 8, `unpack(ARGV) passes ARGV[2]; it is wrong on Redis Cluster too`),
				w(CategoryArity, 1, 8, `ARGV[2] ("emq:b") is used as a key`),
			},
		},
		{
			name: "local list of KEYS",
			src: `local a, b = unpack(KEYS)
local keys = {a, b, KEYS[3]}
for _, k in ipairs(keys) do
  redis.call('DEL', k)
end
return redis.call('EXISTS', keys[2])
`,
			call: keysCall(ordersPending, ordersActive, ordersLeases),
		},
		{
			name: "table with a literal key",
			src: `local keys = {KEYS[1]}
table.insert(keys, 'emq:other')
return redis.call('DEL', unpack(keys))
`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 3, 8, `unpack(keys) passes the string literal "emq:other"`)},
		},
		{
			name: "module table with methods",
			src: `local Q = {}
Q.key = KEYS[1]
function Q.push(k, v)
  return redis.call('LPUSH', k, v)
end
function Q:pop()
  return redis.call('RPOP', self.key)
end
Q.push(KEYS[1], ARGV[1])
return Q:pop()
`,
			call: orders,
		},
		{
			name: "string.format",
			src: `local meta = string.format('%s:meta', KEYS[1])
local other = ('emq:%s'):format(ARGV[1])
redis.call('HSET', meta, 'a', 1)
return redis.call('GET', other)
`,
			call: keysCall(ordersJob),
			want: []want{
				w(CategoryUndeclaredKeySameSlot, 3, 1, `meta holds the concatenation KEYS[1] .. ":meta"; it keeps the hashtag "{orders}"`),
				w(CategoryUndeclaredKey, 4, 8, `other holds the concatenation "emq:" .. ARGV[1]`),
			},
		},
		{
			name: "decoded document",
			src: `local job = cjson.decode(ARGV[1])
return redis.call('SADD', job.queue, job.id)
`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 2, 8, `redis.call("SADD", job.queue, job.id) touches a key not declared in KEYS: a field of a value decoded from ARGV[1]; its value is not traced to KEYS; it may be in another slot than KEYS[1]`)},
		},
		{
			name: "string library",
			src:  `return redis.call('GET', string.lower(ARGV[1]))`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 1, 8, `a value built by string.lower from ARGV[1]`)},
		},
		{
			name: "global the script does not set",
			src:  `return redis.call('GET', somekey)`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 1, 8, `somekey holds the global somekey; its value is not traced to KEYS`)},
		},
		{
			name: "goto continue",
			src: `for _, k in ipairs(KEYS) do
  if redis.call('EXISTS', k) == 0 then
    goto continue
  end
  redis.call('DEL', k)
  ::continue::
end
`,
			call: keysCall(ordersPending, ordersActive),
		},
		{
			name: "break keeps the loop's values",
			src: `local k = KEYS[1]
while true do
  k = ARGV[1]
  break
end
return redis.call('GET', k)
`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 6, 8, `k may hold ARGV[1]`),
				w(CategoryArity, 6, 8, `ARGV[1] is used as a key`),
			},
		},
		{
			name: "several calls on a line",
			src:  `redis.call('SET', KEYS[1], 1); redis.call('SET', 'emq:other', 1); redis.call('SET', KEYS[1], redis.call('GET', 'emq:other'))`,
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 1, 32, `redis.call("SET", "emq:other", 1)`),
				w(CategoryUndeclaredKey, 1, 94, `redis.call("GET", "emq:other")`),
			},
		},
		{
			name: "no keys passed",
			src:  `return redis.call('GET', 'emq:other')`,
			call: Call{KnownKeyCount: true},
			want: []want{w(CategoryUndeclaredKey, 1, 8, `the call passes no keys, so a cluster client sends the script to any node: it is wrong on Redis Cluster too`)},
		},
		{
			name: "script that reads no KEYS",
			src:  `return redis.call('GET', 'emq:other')`,
			want: []want{w(CategoryUndeclaredKey, 1, 8, `the script reads no KEYS, so nothing ties the key to the node that runs the script`)},
		},
		{
			name: "same key as the one passed",
			src:  `return redis.call('GET', 'emq:job:1')`,
			call: Call{Keys: lits("emq:job:1")},
			want: []want{w(CategoryUndeclaredKeySameSlot, 1, 8, `it is in the slot of KEYS[1], so it works on Redis Cluster`)},
		},
	})
}

// TestCommands checks key positions beyond the first argument: keywords,
// key counts, subcommands, and commands that take no key.
func TestCommands(t *testing.T) {
	orders := Call{Keys: lits(ordersPending, ordersActive)}
	runCases(t, []checkCase{
		{
			name: "xread streams",
			src: `redis.call('XREAD', 'COUNT', 10, 'STREAMS', KEYS[1], KEYS[2], '0', '0')
return redis.call('XREAD', 'STREAMS', 'emq:other', '0')
`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 2, 8, `the string literal "emq:other"`)},
		},
		{
			name: "zunionstore key count",
			src:  `return redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[2], 'emq:other')`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 1, 8, `the string literal "emq:other"`)},
		},
		{
			name: "zunionstore key count from ARGV",
			src:  `return redis.call('ZUNIONSTORE', KEYS[1], ARGV[1], KEYS[2], 'emq:other')`,
			call: orders,
		},
		{
			name: "zunionstore key count from ARGV at run time",
			src:  `return redis.call('ZUNIONSTORE', KEYS[1], ARGV[1], KEYS[2], 'emq:other')`,
			call: runtimeCall([]string{ordersPending, ordersActive}, "2"),
			want: []want{w(CategoryUndeclaredKey, 1, 8, `the string literal "emq:other"`)},
		},
		{
			name: "subcommand",
			src:  `return redis.call('OBJECT', 'ENCODING', 'emq:other')`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 1, 8, `redis.call("OBJECT", "ENCODING", "emq:other") touches a key not declared in KEYS`)},
		},
		{
			name: "commands without keys",
			src: `redis.call('PUBLISH', 'emq:events', ARGV[1])
local t = redis.call('TIME')
return redis.call('PING')
`,
			call: orders,
		},
		{
			name: "values are not keys",
			src:  `return redis.call('ZADD', KEYS[1], ARGV[1], 'emq:not-a-key')`,
			call: orders,
		},
		{
			name: "unknown command",
			src:  `return redis.call('MYMODULE.ADD', 'emq:other')`,
			call: orders,
		},
		{
			name: "no command table",
			src:  `return redis.call('GET', 'emq:other')`,
			call: orders,
			cmds: func(string) *ruleset.Command { return nil },
		},
	})
	s, _ := Parse("s", `return redis.call('GET', 'emq:other')`)
	if got := s.Check(nil, Call{Keys: lits(ordersPending)}); len(got) != 0 {
		t.Errorf("nil cmds: got %v", got)
	}
}

func TestArity(t *testing.T) {
	runCases(t, []checkCase{
		{
			name: "KEYS past the keys passed",
			src: `redis.call('SET', KEYS[1], ARGV[1])
return redis.call('GET', KEYS[3])
`,
			call: keysCall("{x}a", "{x}b"),
			want: []want{
				{cat: CategoryArity, exact: `script KEYSPastTheKeysPassedScript: the call passes 2 keys but the script never reads KEYS[2] ("{x}b"); drop it from the call or use it`},
				{cat: CategoryArity, line: 2, col: 26, exact: `script KEYSPastTheKeysPassedScript line 2: KEYS[3] is nil: the call passes 2 keys; pass the key in KEYS`},
			},
		},
		{
			name: "KEYS with no keys passed",
			src:  `return redis.call('GET', KEYS[1])`,
			call: keysCall(),
			want: []want{w(CategoryArity, 1, 26, `KEYS[1] is nil: the call passes no keys`)},
		},
		{
			name: "KEYS read twice past the keys passed",
			src:  `return redis.call('GET', KEYS[2]) .. redis.call('GET', KEYS[2])`,
			call: keysCall("a"),
			want: []want{
				w(CategoryArity, 0, 0, `the call passes 1 key but the script never reads KEYS[1] ("a"); drop it from the call or use it`),
				w(CategoryArity, 1, 26, `KEYS[2] is nil: the call passes 1 key`),
			},
		},
		{
			name: "tested KEYS",
			src: `local k = KEYS[2] or KEYS[1]
if KEYS[3] then
  redis.call('DEL', KEYS[3])
end
return redis.call('GET', k)
`,
			call: keysCall("a"),
			want: []want{w(CategoryArity, 3, 21, `KEYS[3] is nil`)},
		},
		{
			name: "script that counts KEYS",
			src: `if #KEYS > 1 then
  redis.call('DEL', KEYS[2])
end
return redis.call('GET', KEYS[1])
`,
			call: keysCall("a"),
		},
		{
			name: "keys never read",
			src:  `return redis.call('GET', KEYS[1])`,
			call: keysCall("{x}a", "{x}b", "{x}c"),
			want: []want{{cat: CategoryArity, exact: `script keysNeverReadScript: the call passes 3 keys but the script never reads KEYS[2] ("{x}b") and KEYS[3] ("{x}c"); drop them from the call or use them`}},
		},
		{
			name: "keys iterated are read",
			src: `for _, k in ipairs(KEYS) do
  redis.call('DEL', k)
end
`,
			call: keysCall("{x}a", "{x}b", "{x}c"),
		},
		{
			name: "keys read with a variable index are read",
			src: `local i = tonumber(ARGV[1])
return redis.call('GET', KEYS[i])
`,
			call: keysCall("{x}a", "{x}b"),
		},
		{
			name: "keys read with a constant in a local",
			src: `local i = 2
return redis.call('GET', KEYS[i])
`,
			call: keysCall("{x}a", "{x}b"),
			want: []want{w(CategoryArity, 0, 0, `never reads KEYS[1] ("{x}a")`)},
		},
		{
			name: "unknown key count",
			src:  `return redis.call('GET', KEYS[3])`,
			call: Call{Keys: lits("a")},
		},
	})
}

// TestValuesInKeys: a KEYS[i] that no command takes as a key, which a
// command takes as an argument or tonumber reads, is a value the caller
// passes in KEYS (eTask's timer passes the time as KEYS[3]).
func TestValuesInKeys(t *testing.T) {
	const timer = `local members = redis.call('ZRANGEBYSCORE', KEYS[1], 0, KEYS[3])
for _, m in ipairs(members) do
  redis.call('ZREM', KEYS[1], m)
  redis.call('LPUSH', KEYS[2], m)
end
`
	runCases(t, []checkCase{
		{
			name: "time as a score",
			src:  timer,
			want: []want{w(CategoryArity, 1, 17, `KEYS[3] is an argument of redis.call("ZRANGEBYSCORE", KEYS[1], 0, KEYS[3]), and no command takes it as a key: the caller passes a value in KEYS, which on Redis Cluster must hash to the slot of the other keys; pass it in ARGV`)},
		},
		{
			name: "time as a score, keys known",
			src:  timer,
			call: keysCall("{q}:delayed", "{q}:ready", "1733300000"),
			// One finding: the keys' slots leave the value out, whose
			// finding says to move it to ARGV.
			want: []want{w(CategoryArity, 1, 17, `KEYS[3] ("1733300000") is an argument of`)},
		},
		{
			name: "time as a score, keys in two slots",
			src:  timer,
			call: keysCall("delayed", "ready", "1733300000"),
			want: []want{
				w(CategoryCrossSlot, 0, 0, `KEYS[1] and KEYS[2] must share a slot`),
				w(CategoryArity, 1, 17, `KEYS[3] ("1733300000") is an argument of`),
			},
		},
		{
			name: "value in the keys' slot",
			src:  timer,
			call: keysCall("{q}:delayed", "{q}:ready", "{q}:1733300000"),
		},
		{
			name: "count read by tonumber",
			src:  `return redis.call('LTRIM', KEYS[1], 0, tonumber(KEYS[2]) - 1)`,
			want: []want{w(CategoryArity, 1, 40, `KEYS[2] is read as a number by tonumber(KEYS[2]): the caller passes a value in KEYS`)},
		},
		{
			name: "fields and values in KEYS",
			src:  `return redis.call('HSET', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])`,
			want: []want{w(CategoryArity, 1, 8, `KEYS[2], KEYS[3], KEYS[4] and 2 more are arguments of redis.call("HSET", KEYS[1], KEYS[2], KEYS[3], ...), and no command takes them as keys: the caller passes values in KEYS`)},
		},
		{
			name: "also taken as a key",
			src: `redis.call('SADD', KEYS[1], KEYS[2])
return redis.call('SET', KEYS[2], ARGV[1])
`,
		},
		{
			name: "the only element of KEYS",
			src:  `return redis.call('ECHO', KEYS[1])`,
		},
		{
			name: "channel in the keys' slot on purpose",
			src: `redis.call('DEL', KEYS[1])
return redis.call('PUBLISH', KEYS[2], ARGV[1])
`,
		},
		{
			name: "command the script computes",
			src: `redis.call('DEL', KEYS[1])
return redis.call(ARGV[1], KEYS[2])
`,
		},
		{
			name: "keys iterated",
			src: `for i = 2, #KEYS do redis.call('SADD', KEYS[1], KEYS[i]) end
return redis.call('EXPIRE', KEYS[1], KEYS[2])
`,
		},
	})
}

func TestCrossSlot(t *testing.T) {
	runCases(t, []checkCase{
		{
			name: "different slots",
			src:  `return redis.call('MGET', KEYS[1], KEYS[2])`,
			call: keysCall("a", "b"),
			want: []want{{cat: CategoryCrossSlot, exact: `script differentSlotsScript: KEYS[1] and KEYS[2] must share a slot, but keys "a" (slot 15495) and "b" (slot 3300) hash to different slots, so Redis Cluster fails the call with CROSSSLOT; give them a common hashtag such as "{a}"`}},
		},
		{
			name: "maybe different slots",
			src:  `return redis.call('MGET', KEYS[1], KEYS[2])`,
			call: Call{Keys: []keyspace.Key{sym("emq:{<queue>}:pending"), sym("emq:{<tenant>}:stats")}, KnownKeyCount: true},
			want: []want{w(CategoryMaybeCrossSlot, 0, 0, `KEYS[1] and KEYS[2] must share a slot, but keys "emq:{<queue>}:pending" (hashtag "{<queue>}") and "emq:{<tenant>}:stats" (hashtag "{<tenant>}") may hash to different slots, and Redis Cluster fails the call with CROSSSLOT if they do; no common hashtag proves they share one`)},
		},
		{
			name: "allow-cross-slot-keys does not cover KEYS",
			src: `#!lua flags=allow-cross-slot-keys
return redis.call('GET', KEYS[1]) .. redis.call('GET', KEYS[2])
`,
			call: keysCall("a", "b"),
			want: []want{w(CategoryCrossSlot, 0, 0, `so Redis Cluster fails the call with CROSSSLOT (flags=allow-cross-slot-keys does not change that)`)},
		},
		{
			name: "partly known keys",
			src:  `return redis.call('MGET', unpack(KEYS))`,
			call: Call{Keys: lits("a", "b")},
			want: []want{w(CategoryCrossSlot, 0, 0, `KEYS[1] and KEYS[2] must share a slot`)},
		},
	})
}
