package keyspace

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Not reported: test setup that empties its own server, as the
// RedisBloom and RedisTimeSeries Go clients' tests do with FLUSHALL before
// each test (client_test.go).
func TestSetup(t *testing.T) {
	ctx := context.Background()
	var rdb redis.UniversalClient
	rdb.FlushAll(ctx)
	rdb.Keys(ctx, "*")
}
