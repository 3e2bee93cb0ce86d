package casscript

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

func TestHMSet(t *testing.T) {
	var c redis.Cmdable
	HMSet(context.Background(), c, "h1", &S{Key: "f1", Value: "v1"}, &S{Key: "f2", Value: "v2"})
}
