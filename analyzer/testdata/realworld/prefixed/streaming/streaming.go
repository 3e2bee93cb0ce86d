// Package streaming is the part of a project that uses a presence store
// through an interface, and knows nothing of the Redis one, after
// xraph/forge (extensions/streaming).
package streaming

import "context"

// PresenceStore is how the project reaches a presence store.
type PresenceStore interface {
	GetMultiple(ctx context.Context, userIDs []string) ([]interface{}, error)
	DeleteMultiple(ctx context.Context, userIDs []string) error
}

// Online reads the presence of a room's members.
func Online(ctx context.Context, s PresenceStore, members []string) ([]interface{}, error) {
	return s.GetMultiple(ctx, members)
}
