// Package migrate is reduced from qing-turnaround/Star-Travels
// (dao/redis/consistent_hash.go, Migrate): a service that shards its keys
// over several masters itself moves each key to its new master with
// MIGRATE in the multi-key form, whose key argument is "" and whose keys
// follow KEYS. The "" was read as a key beside the one after KEYS, and
// each MIGRATE was reported as two keys in two slots (TestMigrateKeyPositions
// shows the server's keys of each form).
package migrate

import (
	"context"

	"github.com/go-redis/redis/v8"
)

func moveKey(ctx context.Context, rdb *redis.Client, host, port, password, key string) error {
	return rdb.Do(ctx, "migrate", host, port, "", "0", "500", "replace", "auth", password, "keys", key).Err()
}

// Two keys in one MIGRATE must share a slot.
func moveUser(ctx context.Context, rdb *redis.Client, host, port string) error {
	return rdb.Do(ctx, "MIGRATE", host, port, "", "0", "500", "KEYS", "session:42", "profile:42").Err() // want `MIGRATE keys "session:42" \(slot \d+\) and "profile:42" \(slot \d+\) hash to different slots`
}

// The fix: the user's keys under the user's hashtag.
func moveUserTagged(ctx context.Context, rdb *redis.Client, host, port string) error {
	return rdb.Do(ctx, "MIGRATE", host, port, "", "0", "500", "KEYS", "session:{42}", "profile:{42}").Err()
}

// The single-key form takes its key in place of "".
func moveOne(ctx context.Context, rdb *redis.Client, host, port string) error {
	return rdb.Do(ctx, "MIGRATE", host, port, "session:42", "0", "500").Err()
}
