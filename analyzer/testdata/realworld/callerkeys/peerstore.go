package callerkeys

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/callerkeys/peers"
)

// Origin: gotd/contrib v0.21.0 (redis/peer_storage.go, PeerStorage.Add
// and add): one transaction sets the peer's own key and, in a loop, each
// key another package derives from the peer (its username, its phone).
type PeerStorage struct {
	rdb redis.UniversalClient
}

func (s PeerStorage) Add(ctx context.Context, value peers.Peer) error {
	return s.add(ctx, value.Keys(), value)
}

func (s PeerStorage) add(ctx context.Context, associated []string, value peers.Peer) error {
	id := value.Key()
	tx := s.rdb.TxPipeline() // want `MULTI/EXEC transaction of the callers' keys`
	tx.Set(ctx, id, "data", 0)
	for _, key := range associated {
		tx.Set(ctx, key, id, 0)
	}
	_, err := tx.Exec(ctx)
	return err
}

// Fixed: no transaction: each of the peer's names is set to point to its
// key on its own (a name is looked up alone, so no hashtag can keep it
// beside the peer), then the peer's own key.
func (s PeerStorage) AddApart(ctx context.Context, value peers.Peer) error {
	id := value.Key()
	for _, key := range value.Keys() {
		if err := s.rdb.Set(ctx, key, id, 0).Err(); err != nil {
			return err
		}
	}
	return s.rdb.Set(ctx, id, "data", 0).Err()
}
