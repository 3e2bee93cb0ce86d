// Package luacheck checks the Lua scripts that go-redis code sends with EVAL
// and EVALSHA for what breaks them on Redis Cluster: keys that the script
// touches without declaring them in KEYS, KEYS that do not share a slot,
// KEYS and ARGV that do not match what the script reads, and Redis 7 shebang
// flags that do not fit the script or the client.
//
// It is a library of its own: slotlint's analyzer calls it with what it
// recovers from Go code (the script source from constants, KEYS as symbolic
// keys), and slotlint's runtime hook calls it with the script and the
// concrete KEYS and ARGV of each call. Parse a script once, then Check it for
// every call; a Script is immutable, and Check is safe for concurrent use.
// A caller that checks many calls of one script, as the runtime hook does,
// Summarizes it once for its command lookup: Summary.Check gives the same
// findings as Check, and only works through what depends on the call.
//
// The checks follow what Redis does with a script:
//
//   - Redis Cluster routes EVAL by its KEYS, and fails it with CROSSSLOT when
//     they are in different slots, whatever the script's flags.
//   - A key the script touches without having it in KEYS is undeclared. Cluster
//     proxies and Dragonfly route and lock by KEYS, so they break on it. Redis 7
//     runs a script without a shebang (and one with the flag
//     allow-cross-slot-keys) as long as the key is on the node that runs it; a
//     script with a "#!lua" shebang and without allow-cross-slot-keys fails
//     once it touches a key in another slot than its KEYS (or, when it has
//     none, than the first key it touches), even on the same node.
//   - "#!lua flags=no-cluster" makes Redis 7 refuse the script on a cluster,
//     and flags=no-writes makes it fail any write command. EVAL_RO refuses a
//     script whose shebang lacks no-writes, and fails the writes of a script
//     without a shebang.
//
// Redis 7 function libraries (FUNCTION LOAD, then FCALL) go through
// ParseLibrary: it reads the "#!lua name=" line as Redis does, finds the
// functions that redis.register_function registers, in either of its forms,
// and makes each a Script whose KEYS and ARGV are its callback's first and
// second parameters and whose flags are those of its registration. Check a
// function for each FCALL of it as a script for each EVAL.
//
// The analysis of the script is an intra-script data flow over the Lua syntax
// tree: it follows KEYS and ARGV elements, string literals, concatenations and
// values read from Redis through locals, reassignments, branches, loops over
// KEYS, simple tables, and the calls of functions defined in the script. A
// value it cannot trace, such as a field of a decoded JSON document, counts
// as not declared. A branch narrows the variables its condition tests: where
// k ~= "x" holds (or "x" ~= k, or a conjunction with it, or after
// if k == "x" then return end), k is not "x"; where #k > 0 holds, k is not
// "", and where #t == 0 holds, a table t the script built is empty; where k
// or k ~= nil holds, k is not nil. The empty string among other values of a key is the "no key"
// that scripts test for, not a key; a key that can only be "" is reported.
//
// An undeclared key that keeps the slot of a declared one (ARGV[1] .. id,
// with a prefix that has the hashtag of KEYS[1]) is reported under
// CategoryUndeclaredKeySameSlot: Redis Cluster runs it, proxies do not. One
// that may be in another slot, or whose slot is not known, is reported under
// CategoryUndeclaredKey.
package luacheck
