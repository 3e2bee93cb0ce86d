// Package gredis is a framework's own Redis API: interfaces that return
// plain values, implemented by an adapter in another module, over
// go-redis's cluster client when several addresses are configured.
//
// Origin: gogf/gf v2.9.0 (database/gredis: Redis embeds IGroupGeneric and
// IGroupString; the adapter is gogf/gf/contrib/nosql/redis).
package gredis

import "context"

type IGroupGeneric interface {
	Del(ctx context.Context, keys ...string) (int64, error)
	Keys(ctx context.Context, pattern string) ([]string, error)
	Rename(ctx context.Context, key, newKey string) error
	// Exists of one key, unlike go-redis's: not a multi-key method.
	Exists(ctx context.Context, key string) (bool, error)
}

type IGroupString interface {
	MGet(ctx context.Context, keys ...string) (map[string]string, error)
	// MSet takes the pairs as a map, unlike go-redis's pairs ...any.
	MSet(ctx context.Context, keyValueMap map[string]interface{}) error
}

type (
	localGroupGeneric = IGroupGeneric
	localGroupString  = IGroupString
)

// Redis is the framework's client, each group an interface the adapter
// fills.
type Redis struct {
	localGroupGeneric
	localGroupString
}
