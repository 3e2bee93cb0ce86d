package keytypes

import (
	"context"
	"strings"

	"github.com/go-redis/redis/v8"
)

// Origin: ODIM-Project/ODIM (plugin-unmanaged-racks, db/persistence.go and
// rest/chassis_deletion_handler.go): keys are a named string type that a
// helper joins from its parts (exported there, with a String method), and helpers that prepend a part call it
// with the caller's parts appended. A handler watches a chassis' id and,
// in the transaction, deletes the chassis' key and its containment keys.
// The join into the named type was not followed, so none of the keys was
// seen.
type key string

func (k key) str() string { return string(k) }

func createKey(keys ...string) key {
	return key(strings.Join(keys, ":"))
}

func createContainedInKey(tokens ...string) key {
	return createKey(append([]string{"CONTAINEDIN"}, tokens...)...)
}

func deleteRack(ctx context.Context, rdb *redis.Client, uri string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "<uri>" \(hashtag unknown\) and "Chassis:<uri>" \(hashtag unknown\) may hash to different slots`
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, createKey("Chassis", uri).str())
			pipe.Del(ctx, createContainedInKey("Chassis", uri).str())
			return nil
		})
		return err
	}, uri)
}

// The fix: every key of the chassis under its hashtag, the watched one
// too.
func deleteRackTagged(ctx context.Context, rdb *redis.Client, uri string) error {
	tag := "{" + uri + "}"
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, createKey("Chassis", tag).str())
			pipe.Del(ctx, createContainedInKey("Chassis", tag).str())
			return nil
		})
		return err
	}, createKey("Watched", tag).str())
}
