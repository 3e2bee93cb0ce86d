package scanned

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: termermc/streamfleet (streamfleet.go, runReceiverStreamGc): the
// receivers whose heartbeat timed out are members of a sorted set; for
// each, its stream's groups are destroyed and the stream is deleted, in a
// DEL that also names the bare id, a key of another slot than the
// stream's.
const fleetPrefix = "streamfleet:"

func recvStreamKey(id string) string { return fleetPrefix + "receiver:" + id }

func gcReceivers(ctx context.Context, client redis.UniversalClient, queue string) error {
	cutoff := time.Now().Add(-10 * time.Minute)
	ids, err := client.ZRangeByScore(ctx, fleetPrefix+queue+":receivers", &redis.ZRangeBy{
		Min: "-inf",
		Max: strconv.FormatInt(cutoff.UnixMilli(), 10),
	}).Result()
	if err != nil {
		return err
	}
	for _, id := range ids {
		recvKey := recvStreamKey(id)
		if err := client.Del(ctx, recvKey, id).Err(); err != nil { // want `DEL keys "streamfleet:receiver:<id>" \(hashtag unknown\) and "<id>" \(hashtag unknown\) may hash to different slots`
			return err
		}
	}
	return nil
}

// The fixed form: the DEL names the receiver's stream alone.
func gcReceiversFixed(ctx context.Context, client redis.UniversalClient, queue string) error {
	ids, err := client.ZRangeByScore(ctx, fleetPrefix+queue+":receivers", &redis.ZRangeBy{Min: "-inf", Max: "0"}).Result()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := client.Del(ctx, recvStreamKey(id)).Err(); err != nil {
			return err
		}
	}
	return nil
}
