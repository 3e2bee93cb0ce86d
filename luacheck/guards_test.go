package luacheck

import "testing"

// TestGuards follows the tests a script makes of a variable before it uses
// it as a key: in the branch where k ~= "x" holds, k is not "x".
//
// The pattern comes from centrifuge (internal/redis_lua/map_broker_add.lua,
// run by map_broker_redis.go): KEYS the caller leaves unused are passed as a
// placeholder, which the script turns back into the empty string and
// tests for before each use:
//
//	local state_hash_key = KEYS[4]
//	if state_hash_key == nil_key then state_hash_key = '' end
//	if state_hash_key ~= '' then redis.call("hget", state_hash_key, ...) end
//
// The cases here are written anew, with a non-empty literal as the "off"
// value where the case is about the narrowing itself, since "" among
// other values is not taken for a key anyway (see checker.key). Each correct form
// has a bad form next to it that is still reported.
func TestGuards(t *testing.T) {
	orders := Call{Keys: lits(ordersPending)}
	// off: k is KEYS[1], or the literal "emq:off" when ARGV[1] says so.
	const off = "local k = KEYS[1]\nif ARGV[1] == '0' then k = 'emq:off' end\n"
	mayHold := `k may hold the string literal "emq:off"`
	runCases(t, []checkCase{
		{
			name: "guard v ~= literal",
			src:  off + "if k ~= 'emq:off' then\n  redis.call('GET', k)\nend\n",
			call: orders,
		},
		{
			name: "guard on another literal is bad",
			src:  off + "if k ~= 'emq:of' then\n  redis.call('GET', k)\nend\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 4, 3, mayHold)},
		},
		{
			name: "guard literal ~= v",
			src:  off + "if 'emq:off' ~= k then\n  redis.call('GET', k)\nend\n",
			call: orders,
		},
		{
			name: "guard v == literal takes the else branch",
			src:  off + "if k == 'emq:off' then\n  return 0\nelse\n  redis.call('GET', k)\nend\n",
			call: orders,
		},
		{
			name: "use under v == literal is bad",
			src:  off + "if k == 'emq:off' then\n  redis.call('GET', k)\nend\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 4, 3, mayHold)},
		},
		{
			name: "guard not (v == literal)",
			src:  off + "if not (k == 'emq:off') then\n  redis.call('GET', k)\nend\n",
			call: orders,
		},
		{
			name: "guard in a conjunction",
			src:  off + "if ARGV[2] ~= '' and k ~= 'emq:off' and ARGV[3] == '1' then\n  redis.call('GET', k)\nend\n",
			call: orders,
		},
		{
			name: "guard in a disjunction is bad",
			src:  off + "if ARGV[2] ~= '' or k ~= 'emq:off' then\n  redis.call('GET', k)\nend\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 4, 3, mayHold)},
		},
		{
			name: "early return on v == literal",
			src:  off + "if k == 'emq:off' then return 0 end\nreturn redis.call('GET', k)\n",
			call: orders,
		},
		{
			name: "early return on another variable is bad",
			src:  off + "if ARGV[2] == 'emq:off' then return 0 end\nreturn redis.call('GET', k)\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 4, 8, mayHold)},
		},
		{
			name: "early return on not v or v == literal",
			src:  "local k = ARGV[1] ~= '0' and KEYS[1] or nil\nif ARGV[2] == '1' then k = 'emq:off' end\nif not k or k == 'emq:off' then return 0 end\nreturn redis.call('GET', k)\n",
			call: orders,
		},
		{
			name: "early return on v == nil and v == literal is bad",
			src:  "local k = ARGV[1] ~= '0' and KEYS[1] or nil\nif ARGV[2] == '1' then k = 'emq:off' end\nif k == nil and k == 'emq:off' then return 0 end\nreturn redis.call('GET', k)\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 4, 8, mayHold)},
		},
		{
			name: "guard against a local holding the literal",
			src:  "local OFF = 'emq:off'\n" + off + "if k ~= OFF then\n  redis.call('GET', k)\nend\n",
			call: orders,
		},
		{
			name: "guard in an and expression",
			src:  off + "return k ~= 'emq:off' and redis.call('GET', k)\n",
			call: orders,
		},
		{
			name: "or expression runs its right side where the guard fails",
			src:  off + "return k == 'emq:off' or redis.call('GET', k)\n",
			call: orders,
		},
		{
			name: "and expression the other way round is bad",
			src:  off + "return k == 'emq:off' and redis.call('GET', k)\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 3, 27, mayHold)},
		},
		{
			name: "guard of a while loop",
			src:  off + "while k ~= 'emq:off' do\n  redis.call('GET', k)\n  k = 'emq:off'\nend\n",
			call: orders,
		},
		{
			name: "guard in an elseif",
			src:  off + "if ARGV[2] == '1' then\n  return 1\nelseif k ~= 'emq:off' then\n  redis.call('GET', k)\nend\n",
			call: orders,
		},
		{
			name: "the guard holds only in its branch",
			src:  off + "if k ~= 'emq:off' then\n  redis.call('GET', k)\nend\nredis.call('DEL', k)\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 6, 1, `redis.call("DEL", k)`, mayHold)},
		},
		{
			name: "v ~= nil and if v: a branch no path reaches",
			src:  "local k = nil\nif k ~= nil then redis.call('GET', 'emq:a') end\nif k then redis.call('GET', 'emq:b') end\nredis.call('GET', 'emq:c')\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 4, 1, `the string literal "emq:c"`)},
		},
		{
			name: "if v keeps the values that are not nil",
			src:  "local k = nil\nif ARGV[1] == '1' then k = 'emq:other' end\nif k then redis.call('GET', k) end\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 3, 11, `k holds the string literal "emq:other"`)},
		},
		{
			name: "length tests say the key is not empty",
			src: `local k = KEYS[1]
if ARGV[1] == '0' then k = '' end
if #k > 0 then redis.call('GET', k) end
if 0 < #k then redis.call('GET', k) end
if string.len(k) >= 1 then redis.call('GET', k) end
if #k == 0 then return 0 end
local only = ''
if #only > 0 then redis.call('GET', only) end
return redis.call('GET', k)
`,
			call: orders,
		},
		{
			name: "a length test that does not exclude the empty string is bad",
			src:  "local k = ''\nif #k >= 0 then redis.call('GET', k) end\nif #k < 1 then redis.call('GET', k) end\n",
			call: orders,
			want: []want{
				w(CategoryUndeclaredKey, 2, 17, `k holds the string literal ""`),
				w(CategoryUndeclaredKey, 3, 16, `k holds the string literal ""`),
			},
		},
		{
			// asynq (internal/rdb/inspect.go, removeQueueCmd): the loops
			// after the return run over an empty table, and touch nothing.
			name: "a loop over a table whose length is 0",
			src: `local ids = {}
for _, id in ipairs(redis.call("LRANGE", KEYS[1], 0, -1)) do
	table.insert(ids, id)
end
if table.getn(ids) > 0 then
	return -1
end
for _, id in ipairs(ids) do
	redis.call("DEL", "emq:other:" .. id)
end
return 1
`,
			call: orders,
		},
		{
			name: "a loop over a table that is not empty is bad",
			src: `local ids = {}
for _, id in ipairs(redis.call("LRANGE", KEYS[1], 0, -1)) do
	table.insert(ids, id)
end
if #ids == 0 then
	return -1
end
for _, id in ipairs(ids) do
	redis.call("DEL", "emq:other:" .. id)
end
return 1
`,
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 9, 2, `redis.call("DEL", "emq:other:" .. id) touches a key not declared in KEYS`)},
		},
		{
			name: "centrifuge placeholder keys turned back into the empty string",
			src: `local state_hash_key = KEYS[1]
local nil_key = ARGV[23] or ""
if nil_key ~= "" then
  if state_hash_key == nil_key then state_hash_key = '' end
end
if state_hash_key ~= '' then
  redis.call("hget", state_hash_key, ARGV[1])
end
`,
			call: orders,
		},
		{
			name: "the empty string among other values is no key",
			src: `local k = KEYS[1]
if ARGV[1] == '0' then k = '' end
local wipe = false
if k ~= '' then wipe = redis.call('HLEN', k) > 0 end
if wipe then redis.call('DEL', k) end
`,
			call: orders,
		},
		// After gocraft/work's requeue scripts (redis.go, redisLuaZremLpushCmd):
		// the queue a job goes back to is built from ARGV and its name, and
		// is pushed to only where it equals one of KEYS.
		{
			name: "a key equal to an element of KEYS is declared",
			src:  requeue("  for _, v in pairs(KEYS) do\n    if v == queue then\n      redis.call('LPUSH', queue, j)\n    end\n  end\n"),
			call: orders,
		},
		{
			name: "KEYS element == key, the other way round",
			src:  requeue("  for i = 1, #KEYS do\n    local v = KEYS[i]\n    if v == queue then\n      redis.call('LPUSH', queue, j)\n    end\n  end\n"),
			call: orders,
		},
		{
			name: "a key pushed to without the comparison is bad",
			src:  requeue("  redis.call('LPUSH', queue, j)\n"),
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 4, 3, "queue holds the concatenation ARGV[1] .. ")},
		},
		{
			name: "a key equal to an element of ARGV is bad",
			src:  requeue("  for _, v in pairs(ARGV) do\n    if v == queue then\n      redis.call('LPUSH', queue, j)\n    end\n  end\n"),
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 6, 7, "queue holds the concatenation ARGV[1] .. ")},
		},
		{
			name: "a key unequal to an element of KEYS is bad",
			src:  requeue("  for _, v in pairs(KEYS) do\n    if v ~= queue then\n      redis.call('LPUSH', queue, j)\n    end\n  end\n"),
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 6, 7, "queue may hold the concatenation ARGV[1] .. ")},
		},
		{
			name: "the empty string alone is a key in slot 0",
			src:  "local k = ''\nredis.call('DEL', k)\n",
			call: orders,
			want: []want{w(CategoryUndeclaredKey, 2, 1, `k holds the string literal ""; it is wrong on Redis Cluster too (slot 0 vs hashtag "{orders}" of KEYS[1])`)},
		},
	})
}

// requeue is a script that reads a job from KEYS[1] and builds the key of
// its queue from ARGV[1] and the job's name, then runs body.
func requeue(body string) string {
	return "local j = redis.call('ZRANGE', KEYS[1], 0, 0)[1]\n" +
		"local queue = ARGV[1] .. cjson.decode(j)['name']\n" +
		"if j then\n" + body + "end\n"
}
