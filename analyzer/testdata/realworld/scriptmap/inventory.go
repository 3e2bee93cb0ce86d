// Package scriptmap is reduced from Leon180/booking_monitor
// (internal/infrastructure/cache/redis.go): an inventory store keeps its
// scripts in a map field by name, set by its constructor's literal, and
// runs one by looking it up (script, ok := r.scripts["deduct"]). The
// deduct script appends the order to a stream it names itself, a key not
// in KEYS. The run's script was not followed through the map field, so
// the script was checked only where it is made, without its run's keys.
package scriptmap

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

const deductLua = `
local left = redis.call("DECRBY", KEYS[1], ARGV[1])
if left < 0 then
  redis.call("INCRBY", KEYS[1], ARGV[1])
  return 0
end
redis.call("XADD", "orders:stream", "*", "event_id", ARGV[2], "user_id", ARGV[3])
return 1
`

type inventory struct {
	client  *redis.Client
	scripts map[string]*redis.Script
}

func newInventory(client *redis.Client) *inventory {
	return &inventory{client: client, scripts: map[string]*redis.Script{
		"deduct": redis.NewScript(deductLua),
	}}
}

func (r *inventory) deduct(ctx context.Context, eventID, userID, count int) (bool, error) {
	script, ok := r.scripts["deduct"]
	if !ok {
		return false, fmt.Errorf("script 'deduct' not found")
	}
	n, err := script.Run(ctx, r.client, []string{fmt.Sprintf("event:%d:qty", eventID)}, count, eventID, userID).Int() // want `script deductLua line 7: redis.call\("XADD", "orders:stream", "\*", "event_id", ...\) touches a key not declared in KEYS`
	return n == 1, err
}

// The fix: the stream is passed in KEYS, under the event's hashtag.
const deductTaggedLua = `
local left = redis.call("DECRBY", KEYS[1], ARGV[1])
if left < 0 then
  redis.call("INCRBY", KEYS[1], ARGV[1])
  return 0
end
redis.call("XADD", KEYS[2], "*", "user_id", ARGV[2])
return 1
`

type taggedInventory struct {
	client  *redis.Client
	scripts map[string]*redis.Script
}

func newTaggedInventory(client *redis.Client) *taggedInventory {
	return &taggedInventory{client: client, scripts: map[string]*redis.Script{
		"deduct": redis.NewScript(deductTaggedLua),
	}}
}

func (r *taggedInventory) deduct(ctx context.Context, eventID, userID, count int) (bool, error) {
	script, ok := r.scripts["deduct"]
	if !ok {
		return false, fmt.Errorf("script 'deduct' not found")
	}
	keys := []string{fmt.Sprintf("event:{%d}:qty", eventID), fmt.Sprintf("event:{%d}:orders", eventID)}
	n, err := script.Run(ctx, r.client, keys, count, userID).Int()
	return n == 1, err
}
