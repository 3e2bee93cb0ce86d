package luacheck

import (
	"testing"

	"github.com/slotlint/slotlint/keyspace"
)

// TestRouteKey: a key passed in KEYS that the script never reads is not
// reported when it is a key the script reads with a separator and a suffix
// appended, a key passed only to route the call.
//
// The case comes from centrifuge (broker_redis.go, idempotentRouteKey): an
// idempotent publish passes its result key and the result key with ".route"
// appended, a key that never exists, so that a node importing the slot
// answers TRYAGAIN instead of running the script. The cases are written
// anew, each correct form with a bad form next to it.
func TestRouteKey(t *testing.T) {
	const publish = "local done = redis.call('HGET', KEYS[1], 'e')\nif done then return done end\nreturn redis.call('HSET', KEYS[1], 'e', ARGV[1])\n"
	result := keyspace.Concat(keyspace.Lit("cf.result."), keyspace.Unknown("rk", "resultKey", false))
	runCases(t, []checkCase{
		{
			name: "a route key with a suffix of the result key",
			src:  publish,
			call: keysCall("cf.result.{3}.news.k1", "cf.result.{3}.news.k1.route"),
		},
		{
			name: "a route key built from an unknown result key",
			src:  publish,
			call: Call{Keys: []keyspace.Key{result, keyspace.Concat(result, keyspace.Lit(".route"))}, KnownKeyCount: true},
			// Nothing proves the result key has a hashtag: the slots of
			// KEYS are the cross-slot checks', and not arity's.
			want: []want{w(CategoryMaybeCrossSlot, 0, 0, "KEYS[1] and KEYS[2] must share a slot")},
		},
		{
			name: "a route key passed first",
			src:  "return redis.call('GET', KEYS[2])",
			call: keysCall("{q}:job:route", "{q}:job"),
		},
		{
			name: "a longer key that is another key is bad",
			src:  publish,
			call: keysCall("{u}:user:1", "{u}:user:12"),
			want: []want{w(CategoryArity, 0, 0, `never reads KEYS[2] ("{u}:user:12")`)},
		},
		{
			name: "an unrelated key is bad",
			src:  publish,
			call: keysCall("cf.result.{3}.news.k1", "cf.{3}.route"),
			want: []want{w(CategoryArity, 0, 0, `never reads KEYS[2] ("cf.{3}.route")`)},
		},
		{
			name: "a suffix of another unknown is bad",
			src:  publish,
			call: Call{Keys: []keyspace.Key{result, keyspace.Concat(keyspace.Lit("cf.result."), keyspace.Unknown("other", "otherKey", false), keyspace.Lit(".route"))}, KnownKeyCount: true},
			want: []want{
				w(CategoryMaybeCrossSlot, 0, 0, "KEYS[1] and KEYS[2] must share a slot"),
				w(CategoryArity, 0, 0, `never reads KEYS[2] ("cf.result.<otherKey>.route")`),
			},
		},
		{
			name: "a suffix of a key the script does not read is bad",
			src:  "return redis.call('GET', KEYS[3])",
			call: keysCall("{q}:a", "{q}:a.route", "{q}:b"),
			want: []want{w(CategoryArity, 0, 0, `never reads KEYS[1] ("{q}:a") and KEYS[2] ("{q}:a.route")`)},
		},
	})
}
