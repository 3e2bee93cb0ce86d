package callerkeys

import (
	"context"
	"fmt"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

// Origin: robinjoseph08/redisqueue v1.1.0 (consumer.go, Register, Run
// and poll): each stream its callers register is a key of a map field;
// Run appends every one to the streams field, then as many ">" IDs, and a
// goroutine reads them all in one XREADGROUP. Run also hands its receiver
// to a closure (the shutdown goroutine), which keeps it in a cell.
type ConsumerFunc func(id string) error

type StreamConsumer struct {
	rdb       redis.UniversalClient
	group     string
	consumers map[string]ConsumerFunc
	streams   []string
	stop      chan struct{}
}

func NewStreamConsumer(rdb redis.UniversalClient, group string) *StreamConsumer {
	return &StreamConsumer{rdb: rdb, group: group, consumers: make(map[string]ConsumerFunc), streams: make([]string, 0), stop: make(chan struct{})}
}

func (c *StreamConsumer) Register(stream string, fn ConsumerFunc) {
	c.consumers[stream] = fn
}

func (c *StreamConsumer) Run(ctx context.Context) {
	for stream := range c.consumers {
		c.streams = append(c.streams, stream)
	}
	for range c.consumers {
		c.streams = append(c.streams, ">")
	}
	go c.poll(ctx)
	go func() {
		<-ctx.Done()
		c.Shutdown()
	}()
}

func (c *StreamConsumer) Shutdown() { close(c.stop) }

// Hand-made beside it: a registry emptied by writing nil to the field is
// still filled only by the callers.
func (c *StreamConsumer) Reset() { c.consumers = nil }

func (c *StreamConsumer) poll(ctx context.Context) {
	for ctx.Err() == nil {
		c.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: c.group, Consumer: "c", Streams: c.streams}) // want `XREADGROUP of the callers' keys "<c.streams>": callers in other modules are not checked`
	}
}

// Origin: goodking-bq/go-celery (brokers, RedisBroker.GetMessage): the
// broker pops from every queue its constructor's caller names, then a
// timeout, in one BRPOP.
type RedisBroker struct {
	Pool   *redigo.Pool
	Queues []string
}

func NewRedisBroker(pool *redigo.Pool, queues []string) *RedisBroker {
	return &RedisBroker{Pool: pool, Queues: queues}
}

func (b *RedisBroker) GetMessage() (interface{}, error) {
	conn := b.Pool.Get()
	defer conn.Close()
	var args []interface{}
	for _, n := range b.Queues {
		args = append(args, n)
	}
	args = append(args, "1")
	return conn.Do("BRPOP", args...) // want `BRPOP of the callers' keys "<n>": callers in other modules are not checked`
}

// Origin: threefoldtech/zbus v0.1.4 (redis.go, Register, Run and
// getNext): one queue per registered object, module.id, then a timeout,
// popped in one BLPOP by a helper that spreads its parameter: the keys but
// the timeout are checked at each call of the helper.
type ObjectServer struct {
	pool    *redigo.Pool
	module  string
	objects map[string]int
}

func NewObjectServer(module string, pool *redigo.Pool) *ObjectServer {
	return &ObjectServer{pool: pool, module: module, objects: map[string]int{}}
}

func (s *ObjectServer) Register(id string, v int) { s.objects[id] = v }

func (s *ObjectServer) getNext(pullArgs []interface{}) (interface{}, error) {
	con := s.pool.Get()
	defer con.Close()
	return con.Do("BLPOP", pullArgs...)
}

func (s *ObjectServer) Run(ctx context.Context) {
	var pullArgs []interface{}
	for id := range s.objects {
		pullArgs = append(pullArgs, fmt.Sprintf("%s.%s", s.module, id))
	}
	pullArgs = append(pullArgs, 10)
	for ctx.Err() == nil {
		s.getNext(pullArgs) // want `BLPOP \(through getNext at registry.go:\d+\) keys built as "<s.module>.<id>" from different values may hash to different slots`
	}
}

// Fixed: the consumer keeps the registered streams under its group's
// hashtag, so one XREADGROUP reads one slot; the broker pops from one
// queue at a time; the object server's queues share the module's
// hashtag.
type TaggedConsumer struct {
	rdb       redis.UniversalClient
	group     string
	consumers map[string]ConsumerFunc
	streams   []string
}

func (c *TaggedConsumer) Register(stream string, fn ConsumerFunc) {
	c.consumers[stream] = fn
}

func (c *TaggedConsumer) Run(ctx context.Context) {
	for stream := range c.consumers {
		c.streams = append(c.streams, "{"+c.group+"}:"+stream)
	}
	for range c.consumers {
		c.streams = append(c.streams, ">")
	}
	go c.poll(ctx)
}

func (c *TaggedConsumer) poll(ctx context.Context) {
	for ctx.Err() == nil {
		c.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: c.group, Consumer: "c", Streams: c.streams})
	}
}

func (b *RedisBroker) GetMessageFrom(queue string) (interface{}, error) {
	conn := b.Pool.Get()
	defer conn.Close()
	return conn.Do("BRPOP", queue, "1")
}

func (s *ObjectServer) RunTagged(ctx context.Context) {
	var pullArgs []interface{}
	for id := range s.objects {
		pullArgs = append(pullArgs, fmt.Sprintf("{%s}.%s", s.module, id))
	}
	pullArgs = append(pullArgs, 10)
	con := s.pool.Get()
	defer con.Close()
	con.Do("BLPOP", pullArgs...)
}
