package filled

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Origin: argoproj/argo-events v1.9.6
// (pkg/eventsources/sources/redis_stream/start.go, StartListening):
// XREADGROUP of every stream of the event source's spec, taken by
// address from the exported listener's field. Its Streams are made twice
// as long as the spec's streams, the first half copied from them and the
// second filled by index with each stream's last ID, read from the
// replies (only the first half are keys). The spec is filled by
// the users of the exported listener: nothing puts its streams in one
// slot.
type StreamSource struct {
	HostAddress   string
	Streams       []string
	ConsumerGroup string
}

type StreamListener struct {
	EventName   string
	EventSource StreamSource
}

func (el *StreamListener) StartListening(ctx context.Context) error {
	src := &el.EventSource
	client := redis.NewClient(&redis.Options{Addr: src.HostAddress})
	args := make([]string, 2*len(src.Streams))
	copy(args, src.Streams)
	last := make(map[string]string, len(src.Streams))
	for _, s := range src.Streams {
		last[s] = "0-0"
	}
	update := func() {
		for i, s := range src.Streams {
			args[i+len(src.Streams)] = last[s]
		}
	}
	update()
	for {
		entries, err := client.XReadGroup(ctx, &redis.XReadGroupArgs{ // want `XREADGROUP of the callers' keys "<args>"`
			Group:    src.ConsumerGroup,
			Consumer: "worker",
			Streams:  args,
			Block:    2 * time.Second,
		}).Result()
		if err != nil {
			return err
		}
		for _, entry := range entries {
			if len(entry.Messages) == 0 {
				last[entry.Stream] = ">"
				continue
			}
			last[entry.Stream] = entry.Messages[len(entry.Messages)-1].ID
		}
		update()
	}
}

// Fixed: the spec's one stream, read alone.
func (el *StreamListener) ListenOne(ctx context.Context) error {
	src := &el.EventSource
	client := redis.NewClient(&redis.Options{Addr: src.HostAddress})
	args := make([]string, 2)
	args[0] = src.Streams[0]
	args[1] = "0-0"
	return client.XReadGroup(ctx, &redis.XReadGroupArgs{
		Group:    src.ConsumerGroup,
		Consumer: "worker",
		Streams:  args,
	}).Err()
}
