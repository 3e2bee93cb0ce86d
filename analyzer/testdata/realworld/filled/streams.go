package filled

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: Jeffail/benthos v3.65.0 (lib/input/reader/redis_streams.go,
// NewRedisStreams and ReadWithContext): XREADGROUP of every stream of the
// configuration, its Streams made with make twice their number and
// filled by index in one loop, the streams in the first half and each
// one's ID (a backlog ID or ">") in the second. The configuration is the
// constructor's argument, given by the users of the exported input type:
// nothing puts the configured streams in one slot.
type RedisStreamsConfig struct {
	Streams       []string
	ConsumerGroup string
	ClientID      string
}

type RedisStreams struct {
	client   redis.UniversalClient
	conf     RedisStreamsConfig
	backlogs map[string]string
}

func NewRedisStreams(conf RedisStreamsConfig, client redis.UniversalClient) *RedisStreams {
	r := &RedisStreams{conf: conf, client: client, backlogs: make(map[string]string, len(conf.Streams))}
	for _, str := range conf.Streams {
		r.backlogs[str] = "0"
	}
	return r
}

func (r *RedisStreams) ReadWithContext(ctx context.Context) error {
	strs := make([]string, len(r.conf.Streams)*2)
	for i, str := range r.conf.Streams {
		strs[i] = str
		if bl := r.backlogs[str]; bl != "" {
			strs[len(r.conf.Streams)+i] = bl
		} else {
			strs[len(r.conf.Streams)+i] = ">"
		}
	}
	return r.client.XReadGroup(ctx, &redis.XReadGroupArgs{ // want `XREADGROUP of the callers' keys`
		Group:    r.conf.ConsumerGroup,
		Consumer: r.conf.ClientID,
		Streams:  strs,
	}).Err()
}

// Fixed: one stream, read alone.
func (r *RedisStreams) ReadOne(ctx context.Context, stream string) error {
	strs := make([]string, 2)
	strs[0] = stream
	strs[1] = ">"
	return r.client.XReadGroup(ctx, &redis.XReadGroupArgs{
		Group:    r.conf.ConsumerGroup,
		Consumer: r.conf.ClientID,
		Streams:  strs,
	}).Err()
}
