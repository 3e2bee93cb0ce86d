package databases

import (
	redisv8 "github.com/go-redis/redis/v8"
)

// newClientV8: go-redis v8's NewUniversalClient also makes a ClusterClient
// of two addresses or more, which has no DB.
func newClientV8() redisv8.UniversalClient {
	return redisv8.NewUniversalClient(&redisv8.UniversalOptions{
		Addrs: []string{"10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379"},
		DB:    2, // want `UniversalOptions with 3 addresses in Addrs and DB 2: NewUniversalClient builds a ClusterClient, which drops DB`
	})
}

func newClientV8Fixed() redisv8.UniversalClient {
	return redisv8.NewUniversalClient(&redisv8.UniversalOptions{
		Addrs: []string{"10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379"},
	})
}
