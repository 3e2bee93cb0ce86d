package reqfields

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: traffic-tacos/gateway-api (internal/routes/queue.go, Join): a
// handler fills a request struct through a body parser that takes its
// address, then builds a dedupe key and a stream key under the event's
// hashtag and runs one script on both. The struct is set twice (declared,
// then parsed into), so its fields were taken for other values at each
// use, and the keys' common hashtag was not seen.
type joinRequest struct {
	EventID string
	UserID  string
}

type ctx interface {
	BodyParser(out interface{}) error
	Get(header string) string
}

var enqueue = redis.NewScript(`
redis.call("SET", KEYS[1], ARGV[1])
return redis.call("XADD", KEYS[2], "*", "token", ARGV[1])`)

func join(c ctx, rdb redis.UniversalClient, token, userID string) error {
	var req joinRequest
	if err := c.BodyParser(&req); err != nil {
		return err
	}
	if req.EventID == "" {
		return fmt.Errorf("event_id is required")
	}
	if userID != "" {
		req.UserID = userID
	}
	dedupeKey := fmt.Sprintf("dedupe:{%s}:%s", req.EventID, c.Get("Idempotency-Key"))
	streamKey := fmt.Sprintf("stream:event:{%s}:user:%s", req.EventID, req.UserID)
	return enqueue.Run(context.Background(), rdb, []string{dedupeKey, streamKey}, token).Err()
}

// The same handler with the stream under the user's hashtag: the keys
// may be in two slots.
func joinByUser(c ctx, rdb redis.UniversalClient, token string) error {
	var req joinRequest
	if err := c.BodyParser(&req); err != nil {
		return err
	}
	dedupeKey := fmt.Sprintf("dedupe:{%s}:%s", req.EventID, c.Get("Idempotency-Key"))
	streamKey := fmt.Sprintf("stream:user:{%s}", req.UserID)
	return enqueue.Run(context.Background(), rdb, []string{dedupeKey, streamKey}, token).Err() // want `EVALSHA keys "dedupe:\{<req.EventID>\}:<c.Get\(\\"Idempotency-Key\\"\)>" \(hashtag "\{<req.EventID>\}"\) and "stream:user:\{<req.UserID>\}" \(hashtag "\{<req.UserID>\}"\) may hash to different slots`
}
