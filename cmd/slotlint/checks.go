package main

// checkDocs describes each of slotlint's checks, the categories of its
// findings, for the rules of a SARIF log. TestCheckDocs checks that every
// check of the built-in rules has one.
var checkDocs = map[string]struct{ short, full string }{
	"cross-slot": {
		"Keys of one command provably hash to different slots",
		"The keys of one command, transaction or script provably hash to different slots: Redis Cluster rejects the command with CROSSSLOT. Give the keys a common hashtag, the same {...} section in each key, so that they hash to one slot.",
	},
	"maybe-cross-slot": {
		"Nothing proves that the keys of one command share a slot",
		"The keys of one command, transaction or script may hash to different slots: no common hashtag proves that they share one, as with two keys built from unknown values and without a hashtag. Give them a common hashtag.",
	},
	"copy-db": {
		"COPY to a database other than 0",
		"COPY with DB set to a database other than 0: a Redis Cluster has only database 0.",
	},
	"ignore-directive": {
		"A //slotlint:ignore directive without a reason, or that suppresses nothing",
		"A //slotlint:ignore directive must give a reason, //slotlint:ignore <why the keys are safe>, and must suppress a finding on its line or the line below; remove directives that no longer suppress anything.",
	},
	"lua-syntax": {
		"A Lua script that does not parse",
		"A script sent with EVAL, EVALSHA or a Script does not parse as Lua; Redis rejects it when it is loaded.",
	},
	"undeclared-key": {
		"A script touches a key it was not given in KEYS",
		"A Lua script reads or writes a key that it was not given in KEYS. Redis Cluster routes a script by the keys in KEYS, so a key built inside the script or taken from ARGV may live on another node.",
	},
	"script-arity": {
		"KEYS and ARGV do not match what the script reads",
		"The keys and arguments passed to a script do not match what it reads: a KEYS[i] past the keys passed, keys passed and never read, or a key passed in ARGV.",
	},
	"script-flags": {
		"The script's #!lua line is rejected by Redis 7 or does not fit the script",
		"The script's #!lua shebang line has what Redis 7 rejects, or flags that do not fit the script or how it is called, such as no-writes on a script that writes.",
	},
	"read-outside-watch": {
		"A read, inside a WATCH function, of a key that is not watched",
		"Inside a WATCH function the transaction reads a key that it does not watch, so a concurrent change to that key does not abort the transaction.",
	},
	"tx-write-outside-multi": {
		"A write, inside a WATCH function, sent outside MULTI/EXEC",
		"Inside a WATCH function a write is sent directly rather than in the MULTI/EXEC pipeline, so it is applied even when the transaction aborts.",
	},
	"unbounded-watch-retry": {
		"A WATCH retry loop without a bound on its attempts",
		"A loop retries a WATCH transaction without a bound on its attempts; under contention it can spin for ever.",
	},
	"retry-on-any-error": {
		"A WATCH retry loop that retries on any error",
		"A loop retries a WATCH transaction on any error, not only on redis.TxFailedErr, so it retries errors that a retry cannot fix.",
	},
	"unwatched-decision-key": {
		"A transaction's writes depend on a key it reads but does not watch",
		"A transaction decides what to write from a key that it reads but does not watch, so it can commit on a stale value.",
	},
	"lost-update": {
		"A read, then a write of the same key, without WATCH, script or MULTI",
		"A key is read and then written from what was read, with no WATCH, script or MULTI/EXEC to make the two atomic, so a concurrent update can be lost.",
	},
}
