package fields

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: go-lynx/lynx-redis-lock (api.go, lock.go, types.go): a lock's
// owner and count keys are built together by one helper and kept in two
// fields of the lock, which two constructors (Lock and LockWithOptions)
// each set in one composite literal; the lock's methods run scripts over
// both fields. One lock's two fields come from one literal, so they hold
// the keys of one name: with the name in a hashtag they share a slot.
var renewLockScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	redis.call("PEXPIRE", KEYS[2], ARGV[2])
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`)

func buildLockKeys(base string) (ownerKey, countKey string) {
	hashtag := "{lynx:lock:" + base + "}"
	ownerKey = hashtag + ":owner"
	countKey = hashtag + ":count"
	return
}

type RedisLock struct {
	client   redis.UniversalClient
	value    string
	ownerKey string
	countKey string
}

func NewLock(client redis.UniversalClient, key, value string) *RedisLock {
	ownerKey, countKey := buildLockKeys(key)
	return &RedisLock{client: client, value: value, ownerKey: ownerKey, countKey: countKey}
}

func LockWithOptions(client redis.UniversalClient, key, value string, retries int) (*RedisLock, error) {
	ownerKey, countKey := buildLockKeys(key)
	lock := &RedisLock{
		client:   client,
		value:    value,
		ownerKey: ownerKey,
		countKey: countKey,
	}
	return lock, nil
}

func (rl *RedisLock) Renew(ctx context.Context, ms int64) error {
	return renewLockScript.Run(ctx, rl.client, []string{rl.ownerKey, rl.countKey}, rl.value, ms).Err()
}

// The bad form: the helper builds the keys with no hashtag, so a lock's
// owner and count keys may hash to different slots.
func buildPlainLockKeys(base string) (ownerKey, countKey string) {
	ownerKey = "lynx:lock:" + base + ":owner"
	countKey = "lynx:lock:" + base + ":count"
	return
}

type PlainLock struct {
	client   redis.UniversalClient
	value    string
	ownerKey string
	countKey string
}

func NewPlainLock(client redis.UniversalClient, key, value string) *PlainLock {
	ownerKey, countKey := buildPlainLockKeys(key)
	return &PlainLock{client: client, value: value, ownerKey: ownerKey, countKey: countKey}
}

func PlainLockWithOptions(client redis.UniversalClient, key, value string, retries int) (*PlainLock, error) {
	ownerKey, countKey := buildPlainLockKeys(key)
	return &PlainLock{client: client, value: value, ownerKey: ownerKey, countKey: countKey}, nil
}

func (pl *PlainLock) Renew(ctx context.Context, ms int64) error {
	return renewLockScript.Run(ctx, pl.client, []string{pl.ownerKey, pl.countKey}, pl.value, ms).Err() // want `EVALSHA keys "lynx:lock:<.*>:owner" \(hashtag unknown\) and "lynx:lock:<.*>:count" \(hashtag unknown\) may hash to different slots`
}
