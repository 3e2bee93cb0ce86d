// Package placeholders holds keys that a branch leaves empty.
package placeholders

import (
	"context"
	"fmt"

	"github.com/gomodule/redigo/redis"
)

// Origin: zoff-music/vibes-backend (client/redis/ratelimit.go,
// ConsumeRateLimit): a helper WATCHes a device's and an IP's rate-limit
// hashes and queues, in one MULTI/EXEC, either both writes or an HLEN of
// the one that is over its limit, a variable set to "" and then, on the
// branches that refuse, to one of the two keys. The "" is a placeholder
// that no command sends.
func Consume(ctx context.Context, conn redis.Conn, ip, route, dev string, limit int64) error {
	prefix := fmt.Sprintf("vibes:ratelimit:%s:%s", ip, route)
	for range 3 {
		if err := consume(ctx, conn, prefix+":device:"+dev, prefix+":ip", limit); err == nil { // want `WATCH \(through consume at ratelimit.go:\d+\) keys "vibes:ratelimit:<ip>:<route>:device:<dev>" \(hashtag unknown\) and "vibes:ratelimit:<ip>:<route>:ip" \(hashtag unknown\) may hash to different slots`
			return nil
		}
	}
	return nil
}

// Fixed, as the project has it: the IP is the keys' hashtag.
func ConsumeFixed(ctx context.Context, conn redis.Conn, ip, route, dev string, limit int64) error {
	prefix := fmt.Sprintf("vibes:ratelimit:{%s}:%s", ip, route)
	for range 3 {
		if err := consume(ctx, conn, prefix+":device:"+dev, prefix+":ip", limit); err == nil {
			return nil
		}
	}
	return nil
}

func consume(ctx context.Context, conn redis.Conn, deviceKey, ipKey string, limit int64) error {
	if _, err := redis.DoContext(conn, ctx, "WATCH", deviceKey, ipKey); err != nil {
		return err
	}
	deviceCount, _ := redis.Int64(redis.DoContext(conn, ctx, "HLEN", deviceKey))
	ipCount, _ := redis.Int64(redis.DoContext(conn, ctx, "HLEN", ipKey))
	allowed, limitedKey := true, ""
	if deviceCount >= limit {
		allowed, limitedKey = false, deviceKey
	} else if ipCount >= limit {
		allowed, limitedKey = false, ipKey
	}
	if err := conn.Send("MULTI"); err != nil {
		return err
	}
	if allowed {
		conn.Send("HSET", deviceKey, "m", 1)
		conn.Send("HSET", ipKey, "m", 1)
	} else {
		conn.Send("HLEN", limitedKey)
	}
	_, err := redis.DoContext(conn, ctx, "EXEC")
	return err
}
