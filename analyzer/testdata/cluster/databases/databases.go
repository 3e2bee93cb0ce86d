// Package databases holds databases other than 0 where the client may be a
// cluster, which has database 0 only, and their fixed forms.
package databases

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// newClient reduces KyberNetwork/toolkit-go's pkg/redis/client.go
// (NewUniversalClient with Addrs and DB from the config), with the values
// a config gives: two addresses make a ClusterClient, which drops DB.
func newClient() redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs: []string{"10.0.0.1:6379", "10.0.0.2:6379"},
		DB:    3, // want `UniversalOptions with 2 addresses in Addrs and DB 3: NewUniversalClient builds a ClusterClient, which drops DB, so every key goes to db 0 with no error; keep the data in db 0 and tell it apart by a key prefix`
	})
}

func newClusterMode() redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs:         []string{"10.0.0.1:6379"},
		IsClusterMode: true,
		DB:            1, // want `UniversalOptions with IsClusterMode set and DB 1: NewUniversalClient builds a ClusterClient, which drops DB`
	})
}

// Fixed: db 0, the data told apart by a key prefix.
func newClientFixed() redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs: []string{"10.0.0.1:6379", "10.0.0.2:6379"},
	})
}

// Not reported: one address makes a *redis.Client, and a MasterName a
// Sentinel client, which both keep DB; a DB from the config is not known.
func notCluster(db int) {
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"10.0.0.1:6379"}, DB: 3})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"s1:26379", "s2:26379"}, MasterName: "mymaster", DB: 3})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"10.0.0.1:6379", "10.0.0.2:6379"}, DB: db})
}

// clusterURL: ParseClusterURL drops the path of the URL, the database that
// ParseURL reads, as the go-redis v9 URL examples write it.
func clusterURL() (*redis.ClusterOptions, error) {
	return redis.ParseClusterURL("redis://10.0.0.1:6379/2?addr=10.0.0.2:6379") // want `ParseClusterURL drops the database /2 of its URL: a cluster has only db 0`
}

func clusterURLFixed() (*redis.ClusterOptions, error) {
	return redis.ParseClusterURL("redis://10.0.0.1:6379?addr=10.0.0.2:6379")
}

// archive moves and copies keys to another database on a cluster client,
// as a standalone archive job does (COPY ... DB, MOVE).
func archive(ctx context.Context, rdb redis.UniversalClient, one *redis.Client) {
	rdb.Copy(ctx, "{o}:1", "{o}:1:old", 2, false) // want `COPY to db 2 fails on Redis Cluster, which has only db 0`
	rdb.Move(ctx, "order:1", 2)                   // want `MOVE to db 2 fails on Redis Cluster, which has only db 0`
	// Fixed: db 0, an archive prefix under the same hashtag.
	rdb.Copy(ctx, "{o}:1", "{o}:1:archived", 0, false)
	rdb.Rename(ctx, "{o}:2", "{o}:2:archived")
	// Not reported: a client of one server has its databases.
	one.Move(ctx, "order:1", 2)
}
