// Package ownscript is reduced from mgomes/senna (ratelimit/bucket.go): a
// fixed-window rate limiter runs its script through the project's own
// script type of another package (luascript). The script is given the
// limiter's key and counts in a key it builds from it, the key and the
// window's start: a key not declared in KEYS, which on a cluster may be
// on another node. The script's text was not followed into the type
// that holds it, so nothing was checked.
package ownscript

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/ownscript/internal/luascript"
)

var bucketScript = luascript.New("bucket", `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local bucket_ts = math.floor(now / window) * window
local bucket_key = key .. ":" .. bucket_ts
local current = tonumber(redis.call("GET", bucket_key) or "0")
if current >= limit then
    return {0, current}
end
redis.call("INCR", bucket_key)
redis.call("EXPIRE", bucket_key, ARGV[4])
return {1, current + 1}
`)

type BucketLimiter struct {
	name      string
	limit     int
	interval  time.Duration
	client    redis.Cmdable
	keyPrefix string
}

func (l *BucketLimiter) Acquire(ctx context.Context) (any, error) {
	now := float64(time.Now().UnixNano()) / 1e9
	windowSecs := l.interval.Seconds()
	return bucketScript.Run(ctx, l.client, []string{l.keyPrefix + ":" + l.name}, l.limit, windowSecs, now, int64(windowSecs*2)) // want `script bucketScript line 8: redis.call\("GET", bucket_key\) touches a key not declared in KEYS: bucket_key holds the concatenation KEYS\[1\] .. ":" .. <number>` `script bucketScript line 12: redis.call\("INCR", bucket_key\)` `script bucketScript line 13: redis.call\("EXPIRE", bucket_key, ARGV\[4\]\)`
}

// The fix: the limiter computes the window's key and passes it in KEYS.
var windowScript = luascript.New("window", `
local limit = tonumber(ARGV[1])
local current = tonumber(redis.call("GET", KEYS[1]) or "0")
if current >= limit then
    return {0, current}
end
redis.call("INCR", KEYS[1])
redis.call("EXPIRE", KEYS[1], ARGV[2])
return {1, current + 1}
`)

func (l *BucketLimiter) AcquireWindow(ctx context.Context) (any, error) {
	window := int64(l.interval.Seconds())
	start := time.Now().Unix() / window * window
	return windowScript.Run(ctx, l.client, []string{l.keyPrefix + ":" + l.name + ":" + time.Unix(start, 0).UTC().Format("20060102150405")}, l.limit, window*2)
}

// A limiter that keeps its script in a field, set by its constructor: the
// same script type, the same reading.
const slideLua = `
local prev = redis.call("GET", KEYS[1] .. ":prev") or "0"
return redis.call("INCR", KEYS[1]) + tonumber(prev)
`

type slidingLimiter struct {
	script *luascript.Script
	client redis.Cmdable
	key    string
}

func newSlidingLimiter(c redis.Cmdable, key string) *slidingLimiter {
	return &slidingLimiter{script: luascript.New("slide", slideLua), client: c, key: key}
}

func (l *slidingLimiter) allow(ctx context.Context) (any, error) {
	return l.script.Run(ctx, l.client, []string{l.key}) // want `script slideLua line 2: redis.call\("GET", KEYS\[1\] .. ":prev"\) touches a key not declared in KEYS`
}

// The fix: both windows' keys in KEYS, under the limiter's hashtag.
const slideFixedLua = `
local prev = redis.call("GET", KEYS[2]) or "0"
return redis.call("INCR", KEYS[1]) + tonumber(prev)
`

type slidingTagged struct {
	script *luascript.Script
	client redis.Cmdable
	key    string
}

func newSlidingTagged(c redis.Cmdable, name string) *slidingTagged {
	return &slidingTagged{script: luascript.New("slide", slideFixedLua), client: c, key: "{" + name + "}"}
}

func (l *slidingTagged) allow(ctx context.Context) (any, error) {
	return l.script.Run(ctx, l.client, []string{l.key + ":cur", l.key + ":prev"})
}
