package luacheck

import (
	"strings"
	"testing"
)

// A job queue's functions as a Redis 7 library: the positional form of
// redis.register_function, the table form with flags, and a callback given
// by the name of a local function.
const queueLibBad = `#!lua name=emq
local function enqueue(keys, args)
  redis.call('HSET', keys[2], 'payload', args[2])
  redis.call('LPUSH', keys[1], args[1])
  redis.call('SADD', 'emq:queues', 'orders')
  return 1
end

local function peek(keys, args)
  return redis.call('LINDEX', keys[1], 0)
end

redis.register_function('enqueue', enqueue)
redis.register_function('claim', function(ks, argv)
  local id = redis.call('RPOPLPUSH', ks[1], ks[2])
  if not id then return false end
  redis.call('ZADD', argv[1], argv[2], id)
  return redis.call('HGETALL', 'emq:{orders}:job:' .. id)
end)
redis.register_function{
  function_name = 'stats',
  callback = function(keys)
    redis.call('INCR', keys[1])
    return redis.call('GET', keys[3])
  end,
  flags = {'no-writes', 'no-cluster'},
}
redis.register_function{function_name='peek', callback=peek, flags={'no-writes'}}
`

// queueLibGood declares every key in keys, and its read-only functions say
// so.
const queueLibGood = `#!lua name=emq
local function enqueue(keys, args)
  redis.call('HSET', keys[2], 'payload', args[2])
  redis.call('LPUSH', keys[1], args[1])
  redis.call('SADD', keys[3], 'orders')
  return 1
end

local function peek(keys, args)
  return redis.call('LINDEX', keys[1], 0)
end

redis.register_function('enqueue', enqueue)
redis.register_function('claim', function(ks, argv)
  local id = redis.call('RPOPLPUSH', ks[1], ks[2])
  if not id then return false end
  redis.call('ZADD', ks[3], argv[1], id)
  return redis.call('HGETALL', ks[4])
end)
redis.register_function{
  function_name = 'stats',
  callback = function(keys)
    return redis.call('GET', keys[1])
  end,
  flags = {'no-writes'},
}
redis.register_function{function_name='peek', callback=peek, flags={'no-writes'}}
`

func TestLibraryFunctions(t *testing.T) {
	pending, active := "emq:{orders}:pending", "emq:{orders}:active"
	cases := []struct {
		name, fn string
		src      string
		call     Call
		want     []want
	}{
		{"enqueue bad", "enqueue", queueLibBad, runtimeCall([]string{pending, "emq:{orders}:job:1"}, "1", "{}"), []want{
			{cat: CategoryUndeclaredKey, line: 5, col: 3, exact: `function enqueue line 5: redis.call("SADD", "emq:queues", "orders") touches a key not declared in keys: the string literal "emq:queues"; it is wrong on Redis Cluster too (slot 8388 vs hashtag "{orders}" of keys[1]): Redis 7 fails the function on it, unless it is registered with the flag allow-cross-slot-keys; pass it in keys`},
		}},
		{"enqueue good", "enqueue", queueLibGood, runtimeCall([]string{pending, "emq:{orders}:job:1", "emq:{orders}:queues"}, "1", "{}"), nil},
		{"enqueue read-only", "enqueue", queueLibGood, Call{Keys: lits(pending, "emq:{orders}:job:1", "emq:{orders}:queues"), KnownKeyCount: true, ReadOnly: true}, []want{
			w(CategoryFlags, 13, 1, "function enqueue line 13: the function runs with FCALL_RO, but it is registered without the flag no-writes"),
		}},
		{"claim bad", "claim", queueLibBad, runtimeCall([]string{pending, active}, "emq:{orders}:leases", "100"), []want{
			w(CategoryUndeclaredKeySameSlot, 17, 3, "function claim line 17:", "touches a key not declared in ks: argv[1]", "pass it in ks, not in argv"),
			w(CategoryArity, 17, 3, `argv[1] ("emq:{orders}:leases") is used as a key`),
			w(CategoryUndeclaredKeySameSlot, 18, 10, `redis.call("HGETALL", "emq:{orders}:job:" .. id) touches a key not declared in ks`),
		}},
		{"claim good", "claim", queueLibGood, runtimeCall([]string{pending, active, "emq:{orders}:leases", "emq:{orders}:job:1"}, "100"), nil},
		{"claim short", "claim", queueLibGood, keysCall(pending, active), []want{
			w(CategoryArity, 17, 22, "function claim line 17: ks[3] is nil: the call passes 2 keys; pass the key in ks"),
			w(CategoryArity, 18, 32, "ks[4] is nil"),
		}},
		{"stats bad", "stats", queueLibBad, Call{Keys: lits(pending, active), KnownKeyCount: true, Cluster: true, ReadOnly: true}, []want{
			w(CategoryArity, 0, 0, `function stats: the call passes 2 keys but the function never reads keys[2] ("emq:{orders}:active")`),
			w(CategoryFlags, 20, 1, "flag no-cluster", "a cluster client calls it"),
			w(CategoryFlags, 23, 5, `redis.call("INCR", keys[1]) writes, but the function is registered with the flag no-writes`),
			w(CategoryArity, 24, 30, "keys[3] is nil: the call passes 2 keys"),
		}},
		{"stats good", "stats", queueLibGood, Call{Keys: lits(pending), KnownKeyCount: true, Cluster: true, ReadOnly: true}, nil},
		{"peek good", "peek", queueLibGood, Call{Keys: lits(pending), KnownKeyCount: true, ReadOnly: true}, nil},
		{"peek extra key", "peek", queueLibBad, keysCall(pending, active), []want{
			w(CategoryArity, 0, 0, "function peek: the call passes 2 keys but the function never reads keys[2]"),
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ParseLibrary("queueLib", tc.src)
			if err != nil {
				t.Fatalf("ParseLibrary: %v", err)
			}
			if l.Name != "emq" {
				t.Errorf("Name = %q, want emq", l.Name)
			}
			if got := strings.Join(l.Functions(), ","); got != "claim,enqueue,peek,stats" {
				t.Errorf("Functions() = %s", got)
			}
			s, ok := l.Function(tc.fn)
			if !ok {
				t.Fatalf("no function %s", tc.fn)
			}
			got := s.Check(lookupTest, tc.call)
			sameAsCheck(t, s, lookupTest, tc.call)
			for _, f := range got {
				if !strings.HasPrefix(f.Message, "function "+tc.fn) || strings.Contains(f.Message, "KEYS") || strings.Contains(f.Message, "ARGV") {
					t.Errorf("message not about function %s: %s", tc.fn, f.Message)
				}
			}
			expectFindings(t, got, tc.want)
		})
	}
}

// A callback that walks its keys, and hands them to a helper of the
// library.
func TestLibraryKeysFlow(t *testing.T) {
	const src = `#!lua name=sets
local function touch(key, member)
  return redis.call('SADD', key, member)
end
local function count(keys)
  return #keys
end
redis.register_function('addall', function(keys, args)
  for _, k in ipairs(keys) do
    touch(k, args[1])
  end
  touch('sets:all', args[1])
  return count(keys)
end)
redis.register_function('uses_globals', function(keys, args)
  return redis.call('GET', KEYS[1])
end)
`
	l, err := ParseLibrary("setsLib", src)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := l.Function("addall")
	if n, ok := s.MaxKeyIndex(); ok {
		t.Errorf("MaxKeyIndex = %d, true; want unknown", n)
	}
	expectFindings(t, s.Check(lookupTest, keysCall("sets:{a}:x", "sets:{a}:y")), []want{
		w(CategoryUndeclaredKey, 3, 10, `function addall line 3: redis.call("SADD", key, member) touches a key not declared in keys: key may hold the string literal "sets:all"`),
	})
	s, _ = l.Function("uses_globals")
	expectFindings(t, s.Check(lookupTest, keysCall("sets:{a}:x")), []want{
		w(CategoryArity, 0, 0, "never reads keys[1]"),
		w(CategoryUndeclaredKey, 16, 10, `the global "KEYS", which Redis does not set for functions`),
	})
}

func TestLibraryProblems(t *testing.T) {
	cases := []struct {
		name, src string
		want      []want
	}{
		{"no shebang", "redis.register_function('f', function(keys) return 1 end)\n", []want{
			w(CategoryFlags, 1, 1, `library lib line 1: the library has no "#!lua name=" line, so Redis 7 refuses it ("Missing library metadata")`),
		}},
		{"flags in shebang", "#!lua flags=no-writes\nredis.register_function('f', function(keys) return 1 end)\n", []want{
			w(CategoryFlags, 1, 1, `("Library name was not given")`),
			w(CategoryFlags, 1, 7, `"flags=no-writes" is not name=`),
		}},
		{"bad names", "#!lua name=my-lib\nredis.register_function('f.g', function(keys) return 1 end)\nredis.register_function('h', function(keys) return 1 end)\nredis.register_function('h', function(keys) return 2 end)\n", []want{
			w(CategoryFlags, 1, 7, `the library name "my-lib" has characters Redis 7 refuses`),
			w(CategoryFlags, 2, 1, `the function name "f.g"`),
			w(CategoryFlags, 4, 1, "library lib line 4: the function h is registered twice"),
		}},
		{"syntax", "#!lua name=lib\nredis.register_function('f', function(keys)\n  return redis.call('GET', keys[1]\nend)\n", []want{
			w(CategorySyntax, 4, 1, "library lib line 4: syntax error at column 1"),
		}},
		{"nothing registered", "#!lua name=lib\nlocal x = 1\n", []want{
			w(CategoryFlags, 0, 0, `library lib: the library registers no function, so Redis 7 refuses it ("No functions registered")`),
		}},
		{"good", "#!lua name=lib\nredis.register_function('f', function(keys) return 1 end)\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ParseLibrary("lib", tc.src)
			if (err != nil) != (len(tc.want) > 0) {
				t.Errorf("err = %v", err)
			}
			expectFindings(t, l.Problems(), tc.want)
		})
	}
}

func TestLibraryUnknownFlag(t *testing.T) {
	const src = `#!lua name=lib
redis.register_function{function_name='f', callback=function(keys) return redis.call('GET', keys[1]) end, flags={'no-write'}}
`
	l, err := ParseLibrary("lib", src)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := l.Function("f")
	expectFindings(t, s.Check(lookupTest, keysCall("k")), []want{
		w(CategoryFlags, 2, 1, `function f line 2: unknown function flag "no-write", so Redis 7 refuses the library ("unknown flag given"); did you mean no-writes?`),
	})
}
