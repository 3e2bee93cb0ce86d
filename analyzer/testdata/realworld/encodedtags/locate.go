// Package encodedtags holds keys whose hashtag is an encoding of a value.
package encodedtags

import (
	"context"
	"encoding/base64"

	"github.com/redis/go-redis/v9"
)

// Origin: yola1107/yola (locate/redis/node.go): a locator binds a user to
// a node with a script over the node's epoch key and the user's node key,
// both built by one helper as prefix + "{" + base64(service) + "}:" +
// base64(id). The two hashtags are the same encoding of the same service:
// one slot.
var bindNode = redis.NewScript(`
if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
redis.call("SET", KEYS[2], ARGV[2], "PX", ARGV[3])
return 1
`)

func locationKey(prefix, serviceName, id string) string {
	service := base64.RawURLEncoding.EncodeToString([]byte(serviceName))
	key := base64.RawURLEncoding.EncodeToString([]byte(id))
	return prefix + "{" + service + "}:" + key
}

func nodeKey(serviceName, uid string) string {
	return locationKey("locate:node:", serviceName, uid)
}

func nodeEpochKey(serviceName, nodeID string) string {
	return locationKey("locate:node:epoch:", serviceName, nodeID)
}

// Fixed, as the project has it: both keys carry the service's hashtag.
func BindNode(ctx context.Context, rdb redis.UniversalClient, serviceName, uid, nodeID, epoch string) error {
	return bindNode.Run(ctx, rdb, []string{nodeEpochKey(serviceName, nodeID), nodeKey(serviceName, uid)}, epoch, nodeID, 60000).Err()
}

// The bug the helper prevents: a hashtag of the node's encoding on one
// key and of the user's on the other.
func BindNodeByID(ctx context.Context, rdb redis.UniversalClient, serviceName, uid, nodeID, epoch string) error {
	return bindNode.Run(ctx, rdb, []string{nodeEpochKey(nodeID, serviceName), nodeKey(uid, serviceName)}, epoch, nodeID, 60000).Err() // want `EVALSHA keys "locate:node:epoch:\{<base64.RawURLEncoding.EncodeToString.*>\}:.*" \(hashtag .*\) and "locate:node:\{<base64.RawURLEncoding.EncodeToString.*\) may hash to different slots`
}
