package callerkeys

import (
	"context"
	"encoding/json"

	"github.com/redis/go-redis/v9"
)

// Origin: mhrlife/kingscomp (internal/repository/commonbehaviour.go): a
// repository of any entity type saves the callers' entities together,
// each under the key its EntityID() gives ("account:<id>", "lobby:<id>"),
// an ID whose String() is the key. The key is the caller's entity's, of
// whatever slot its id puts it in.
type EntityID string

func (i EntityID) String() string { return string(i) } // want String:`keyFunc\("<i>"\)`

type Entity interface {
	EntityID() EntityID
}

type EntityStore struct {
	rdb redis.UniversalClient
}

func (s *EntityStore) SaveAll(ctx context.Context, ents ...Entity) error { // want SaveAll:`keyWrapper\(MULTI/EXEC transaction "<ent.EntityID\(\)>" each of \$1\)`
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction of the callers' keys "<ent.EntityID\(\)>"`
		for _, ent := range ents {
			data, _ := json.Marshal(ent)
			pipe.Set(ctx, ent.EntityID().String(), data, 0)
		}
		return nil
	})
	return err
}

// Fixed: a plain pipeline, which a cluster client splits by slot.
func (s *EntityStore) SaveEach(ctx context.Context, ents ...Entity) error {
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, ent := range ents {
			data, _ := json.Marshal(ent)
			pipe.Set(ctx, ent.EntityID().String(), data, 0)
		}
		return nil
	})
	return err
}
