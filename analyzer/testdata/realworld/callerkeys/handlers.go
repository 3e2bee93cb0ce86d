package callerkeys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: eininst/redis-stream-pubsub (pubsub/consumer.go, util.go): a
// stream consumer that NewConsumer hands out as its Consumer interface.
// Handler appends each stream its caller names to a list of handlers;
// Spin cuts the list into chunks with a generic helper and starts a
// goroutine per chunk, func(handlers) { c.xread(ctx, handlers) }(chunk),
// which reads every stream of its chunk in one XREADGROUP: the callers'
// streams, of any slot.
type StreamHandler func(id string, values map[string]any) error

type handlerFc struct {
	Stream string
	Fc     StreamHandler
}

type HandlerConsumer interface {
	Handler(stream string, fc StreamHandler)
	Spin(ctx context.Context)
}

type handlerConsumer struct {
	rcli     redis.UniversalClient
	handlers []*handlerFc
	prefix   string
}

func NewHandlerConsumer(rcli redis.UniversalClient) HandlerConsumer {
	return &handlerConsumer{rcli: rcli}
}

func (c *handlerConsumer) Handler(stream string, fc StreamHandler) {
	c.handlers = append(c.handlers, &handlerFc{Stream: stream, Fc: fc})
}

func chunkArray[T any](arr []T, size int) [][]T {
	var result [][]T
	for i := 0; i < len(arr); i += size {
		result = append(result, arr[i:min(i+size, len(arr))])
	}
	return result
}

func (c *handlerConsumer) Spin(ctx context.Context) {
	for _, chunk := range chunkArray(c.handlers, 16) {
		go func(handlers []*handlerFc) {
			c.xread(ctx, handlers)
		}(chunk)
	}
}

func (c *handlerConsumer) xread(ctx context.Context, handlers []*handlerFc) {
	streams := make([]string, 0, 2*len(handlers))
	for _, h := range handlers {
		streams = append(streams, h.Stream)
	}
	for range handlers {
		streams = append(streams, ">")
	}
	c.rcli.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: streams}) // want `XREADGROUP of the callers' keys "<h.Stream>": callers in other modules are not checked`
}

// Fixed: one goroutine per stream, each XREADGROUP of one stream.
func (c *handlerConsumer) SpinEach(ctx context.Context) {
	for _, h := range c.handlers {
		go func(h *handlerFc) {
			c.rcli.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: []string{h.Stream, ">"}})
		}(h)
	}
}
