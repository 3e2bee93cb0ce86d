package filled

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

// Origin: opentarock/service-presence (device/repository_redis.go,
// GetActiveDevices; device/device.go, AllActiveBuckets): a user's
// devices are kept in one set per minute bucket; the active devices are
// the SUNION of the last buckets, whose keys one helper builds in a loop
// and another copies into an []interface{}, spread into a raw Do. Each
// bucket's key is the user's and the bucket's, so the keys span slots.
const sunion = "SUNION"

func bucketKey(user string, i int) string {
	return fmt.Sprintf("presence.user:%s:%d", user, i)
}

func allActiveBuckets(user string, n int) []string {
	keys := make([]string, 0, n)
	for i := 0; i > -n; i-- {
		keys = append(keys, bucketKey(user, i))
	}
	return keys
}

func toInterfaceSlice(slice []string) []interface{} {
	result := make([]interface{}, 0, len(slice))
	for _, s := range slice {
		result = append(result, s)
	}
	return result
}

func activeDevices(conn redis.Conn, user string) ([]string, error) {
	return redis.Strings(conn.Do(sunion, toInterfaceSlice(allActiveBuckets(user, 5))...)) // want `SUNION keys built as "presence.user:<user>:<i>" from different values may hash to different slots`
}

// The fixed form: the user's id is the hashtag of every bucket.
func taggedBucketKey(user string, i int) string {
	return fmt.Sprintf("presence.user:{%s}:%d", user, i)
}

func allTaggedBuckets(user string, n int) []string {
	keys := make([]string, 0, n)
	for i := 0; i > -n; i-- {
		keys = append(keys, taggedBucketKey(user, i))
	}
	return keys
}

func activeDevicesFixed(conn redis.Conn, user string) ([]string, error) {
	return redis.Strings(conn.Do(sunion, toInterfaceSlice(allTaggedBuckets(user, 5))...))
}
