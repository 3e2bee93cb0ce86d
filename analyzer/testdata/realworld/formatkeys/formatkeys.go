// Package formatkeys holds keys made by a helper that formats its caller's
// template, reduced from brocaar/chirpstack-network-server
// (internal/storage/storage.go, GetRedisKey): a package prefix joined to
// fmt.Sprintf of the caller's format and arguments. The helper's body
// cannot say what its keys look like; each call with a constant template
// does.
package formatkeys

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

var keyPrefix string

const (
	devAddrKeyTempl = "lora:ns:pr:devaddr:%s"
	devEUIKeyTempl  = "lora:ns:pr:deveui:%s"
	rxInfoKeyTempl  = "lora:ns:device:%s:gwrx"

	devAddrKeyTemplFixed = "lora:ns:pr:{%s}:devaddr"
	devEUIKeyTemplFixed  = "lora:ns:pr:{%s}:deveui"
	rxInfoKeyTemplFixed  = "lora:ns:{gwrx}:%s"
)

// redisKey returns the key of a template and its parameters.
func redisKey(tmpl string, params ...interface{}) string {
	return keyPrefix + fmt.Sprintf(tmpl, params...)
}

// Origin: chirpstack-network-server (internal/storage/passive_roaming.go,
// SavePassiveRoamingDeviceSession): one MULTI/EXEC adds the session to
// the set of its DevAddr and to the set of its DevEUI.
func saveSession(ctx context.Context, rdb redis.UniversalClient, devAddr, devEUI, id string) error {
	devAddrKey := redisKey(devAddrKeyTempl, devAddr)
	devEUIKey := redisKey(devEUIKeyTempl, devEUI)
	pipe := rdb.TxPipeline() // want `MULTI/EXEC transaction keys "<keyPrefix>lora:ns:pr:devaddr:<devAddr>" \(hashtag unknown\) and "<keyPrefix>lora:ns:pr:deveui:<devEUI>" \(hashtag unknown\) may hash to different slots`
	pipe.SAdd(ctx, devAddrKey, id)
	pipe.SAdd(ctx, devEUIKey, id)
	_, err := pipe.Exec(ctx)
	return err
}

// The fixed form keeps both sets of one session in one slot, under the
// session's id.
func saveSessionFixed(ctx context.Context, rdb redis.UniversalClient, id string) error {
	devAddrKey := redisKey(devAddrKeyTemplFixed, id)
	devEUIKey := redisKey(devEUIKeyTemplFixed, id)
	pipe := rdb.TxPipeline()
	pipe.SAdd(ctx, devAddrKey, id)
	pipe.SAdd(ctx, devEUIKey, id)
	_, err := pipe.Exec(ctx)
	return err
}

// Origin: chirpstack-network-server (internal/storage/device_session.go,
// GetDeviceGatewayRXInfoSetForDevEUIs): one key per device, built in a
// loop, read with one MGET.
func rxInfoSets(ctx context.Context, rdb redis.UniversalClient, devEUIs []string) ([]interface{}, error) {
	var keys []string
	for _, d := range devEUIs {
		keys = append(keys, redisKey(rxInfoKeyTempl, d))
	}
	return rdb.MGet(ctx, keys...).Result() // want `MGET keys built as "<keyPrefix>lora:ns:device:<d>:gwrx" from different values may hash to different slots`
}

func rxInfoSetsFixed(ctx context.Context, rdb redis.UniversalClient, devEUIs []string) ([]interface{}, error) {
	var keys []string
	for _, d := range devEUIs {
		keys = append(keys, redisKey(rxInfoKeyTemplFixed, d))
	}
	return rdb.MGet(ctx, keys...).Result()
}
