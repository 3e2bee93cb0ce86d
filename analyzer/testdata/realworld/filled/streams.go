package filled

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: Jeffail/benthos v3.65.0 (lib/input/reader/redis_streams.go,
// ReadWithContext): XREADGROUP of every stream of the configuration, its
// Streams made with make twice their number and filled by index in one
// loop, the streams in the first half and each one's ID (a backlog ID or
// ">") in the second. Configured names have no common hashtag.
type streamsConfig struct {
	Streams       []string
	ConsumerGroup string
	ClientID      string
}

type streamsReader struct {
	conf     streamsConfig
	backlogs map[string]string
}

func (r *streamsReader) read(ctx context.Context, client redis.UniversalClient) error {
	strs := make([]string, len(r.conf.Streams)*2)
	for i, str := range r.conf.Streams {
		strs[i] = str
		if bl := r.backlogs[str]; bl != "" {
			strs[len(r.conf.Streams)+i] = bl
		} else {
			strs[len(r.conf.Streams)+i] = ">"
		}
	}
	return client.XReadGroup(ctx, &redis.XReadGroupArgs{ // want `XREADGROUP keys "<str>" .* may hash to different slots`
		Group:    r.conf.ConsumerGroup,
		Consumer: r.conf.ClientID,
		Streams:  strs,
	}).Err()
}

// Fixed: one stream, read alone.
func (r *streamsReader) readOne(ctx context.Context, client redis.UniversalClient, stream string) error {
	strs := make([]string, 2)
	strs[0] = stream
	strs[1] = ">"
	return client.XReadGroup(ctx, &redis.XReadGroupArgs{
		Group:    r.conf.ConsumerGroup,
		Consumer: r.conf.ClientID,
		Streams:  strs,
	}).Err()
}
