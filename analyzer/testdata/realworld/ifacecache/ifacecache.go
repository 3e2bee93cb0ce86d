// Package ifacecache declares a cache interface whose implementations
// live in packages of their own.
//
// Origin: dysnix/predictkube-libs v0.1.0 (external/cache/inerfaces.go:
// Cache; external/cache/redis: its Redis implementation).
package ifacecache

import "context"

type Cache interface {
	Delete(ctx context.Context, keys ...string) error
	DeleteEach(ctx context.Context, keys ...string) error
}
