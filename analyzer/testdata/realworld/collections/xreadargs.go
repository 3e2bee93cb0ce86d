package collections

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: cargocam/ghostcam (server/handlers, Handlers.SSE): the
// telemetry stream of each of a user's cameras, read in one XREAD whose
// arguments are made as a struct and then grown field by field:
// args.Streams = append(args.Streams, k) for each stream, then each last
// ID. The streams of two cameras are two keys.
type camera struct{ DeviceID string }

func telemetry(ctx context.Context, rdb *redis.Client, cameras []camera) ([]redis.XStream, error) {
	streamKeys := make([]string, 0, len(cameras))
	for _, c := range cameras {
		streamKeys = append(streamKeys, fmt.Sprintf("telemetry:%s", c.DeviceID))
	}
	lastIDs := make(map[string]string, len(streamKeys))
	for _, k := range streamKeys {
		lastIDs[k] = "$"
	}
	args := &redis.XReadArgs{
		Streams: make([]string, 0, len(streamKeys)*2),
		Block:   5 * time.Second,
	}
	for _, k := range streamKeys {
		args.Streams = append(args.Streams, k)
	}
	for _, k := range streamKeys {
		args.Streams = append(args.Streams, lastIDs[k])
	}
	return rdb.XRead(ctx, args).Result() // want `XREAD keys built as "telemetry:<c.DeviceID>" from different values may hash to different slots`
}

// Fixed: a user's streams share the user's hashtag, so one XREAD reads
// them in one slot.
func telemetryFixed(ctx context.Context, rdb *redis.Client, userID string, cameras []camera) ([]redis.XStream, error) {
	streamKeys := make([]string, 0, len(cameras))
	for _, c := range cameras {
		streamKeys = append(streamKeys, fmt.Sprintf("telemetry:{%s}:%s", userID, c.DeviceID))
	}
	args := &redis.XReadArgs{
		Streams: make([]string, 0, len(streamKeys)*2),
		Block:   5 * time.Second,
	}
	for _, k := range streamKeys {
		args.Streams = append(args.Streams, k)
	}
	for range streamKeys {
		args.Streams = append(args.Streams, "$")
	}
	return rdb.XRead(ctx, args).Result()
}
