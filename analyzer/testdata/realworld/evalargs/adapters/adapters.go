// Package adapters is a rate limiter's own interface over the Redis
// clients it supports.
package adapters

import "context"

// Origin: aidenwallis/go-ratelimiting (redis/adapters/adapter.go).
type Adapter interface {
	Eval(ctx context.Context, script string, keys []string, args []interface{}) (interface{}, error)
}
