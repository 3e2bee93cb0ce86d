// Package schema names the chunks of a log store, after grafana/loki
// (pkg/storage/config, SchemaConfig.ExternalKey): one key per chunk, its
// tenant, fingerprint, time range and checksum, with no hashtag.
package schema

import "fmt"

// A ChunkRef identifies a chunk.
type ChunkRef struct {
	UserID        string
	Fingerprint   uint64
	From, Through int64
	Checksum      uint32
}

// ExternalKey is the chunk's key in the stores and caches.
func ExternalKey(ref ChunkRef) string { // want ExternalKey:`keyFunc\("<ref.UserID>/<ref.Fingerprint>/<ref.From>:<ref.Through>:<ref.Checksum>"\)`
	return fmt.Sprintf("%s/%x/%x:%x:%x", ref.UserID, ref.Fingerprint, ref.From, ref.Through, ref.Checksum)
}

// TenantKey is the key of a tenant's chunk in a cache that keeps each
// tenant's chunks in one slot: the tenant is the hashtag.
func TenantKey(tenant string, ref ChunkRef) string { // want TenantKey:`keyFunc\("\{<tenant>\}/<ref.Fingerprint>/<ref.From>:<ref.Through>:<ref.Checksum>"\)`
	return fmt.Sprintf("{%s}/%x/%x:%x:%x", tenant, ref.Fingerprint, ref.From, ref.Through, ref.Checksum)
}
