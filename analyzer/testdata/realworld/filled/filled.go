// Package filled holds key slices that are filled indirectly, reduced from
// real projects: a slice made with make and filled by index in a loop, and
// an []interface{} grown by append in a loop and spread into a command.
// Each loop builds keys of one shape from different values; without a
// common hashtag they may span slots.
package filled

import (
	"context"
	"fmt"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

// Origin: mehrdadbn9/Redis (go-redis/main.go): the arguments of one MSET,
// a key and its value for each page, appended to an []interface{} in a
// counting loop and spread into MSet.
func cachePages(ctx context.Context, rdb *redis.ClusterClient, n int) {
	var params []interface{}
	for i := 0; i < n; i++ {
		params = append(params, fmt.Sprintf("page:%d", i), i)
	}
	rdb.MSet(ctx, params...) // want `MSET keys built as "page:<i>" from different values may hash to different slots`
}

func cachePagesFixed(ctx context.Context, rdb *redis.ClusterClient, n int) {
	var params []interface{}
	for i := 0; i < n; i++ {
		params = append(params, fmt.Sprintf("{pages}:%d", i), i)
	}
	rdb.MSet(ctx, params...)
}

// Origin: TudorHulban/kv-redis (obj_pool_methods_delete.go, RedisPool.Delete):
// an []interface{} made with make and filled by index, then spread into
// redigo's Do("DEL", ...). The keys are built here from ids instead of
// coming from the caller.
func deleteUsers(conn redigo.Conn, ids []string) error {
	redisKeys := make([]interface{}, len(ids))
	for i := 0; i < len(ids); i++ {
		redisKeys[i] = "user:" + ids[i]
	}
	_, err := conn.Do("DEL", redisKeys...) // want `DEL keys built as "user:<ids\[i\]>" from different values may hash to different slots`
	return err
}

func deleteUsersFixed(conn redigo.Conn, ids []string) error {
	redisKeys := make([]interface{}, len(ids))
	for i := 0; i < len(ids); i++ {
		redisKeys[i] = "{user}:" + ids[i]
	}
	_, err := conn.Do("DEL", redisKeys...)
	return err
}

// Origin: cloudapex/ulib (rdb/string.go, String.Getms): keys built in a
// loop from one template, flattened into redigo's redis.Args with AddFlat
// and spread into Do("MGET", ...).
func getOrders(conn redigo.Conn, ids []int) ([]string, error) {
	keys := []string{}
	for _, id := range ids {
		keys = append(keys, fmt.Sprintf("order:%d", id))
	}
	return redigo.Strings(conn.Do("MGET", redigo.Args{}.AddFlat(keys)...)) // want `MGET keys built as "order:<id>" from different values may hash to different slots`
}

func getOrdersFixed(conn redigo.Conn, ids []int) ([]string, error) {
	keys := []string{}
	for _, id := range ids {
		keys = append(keys, fmt.Sprintf("{order}:%d", id))
	}
	return redigo.Strings(conn.Do("MGET", redigo.Args{}.AddFlat(keys)...))
}

// The same reduction with go-redis: a []string made with make, filled by
// index from a range, read back with MGET; and a raw Do of an
// []interface{} whose first element names the command.
func getUsers(ctx context.Context, rdb *redis.ClusterClient, ids []string) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = "user:" + id
	}
	rdb.MGet(ctx, keys...) // want `MGET keys built as "user:<id>" from different values may hash to different slots`
	args := []interface{}{"del"}
	for _, id := range ids {
		args = append(args, "user:"+id)
	}
	rdb.Do(ctx, args...) // want `DEL keys built as "user:<id>" from different values may hash to different slots`
}

func getUsersFixed(ctx context.Context, rdb *redis.ClusterClient, ids []string) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = "{user}:" + id
	}
	rdb.MGet(ctx, keys...)
	args := []interface{}{"del"}
	for _, id := range ids {
		args = append(args, "{user}:"+id)
	}
	rdb.Do(ctx, args...)
}

// A slice that a function of the package fills is open: its keys are not
// all seen, and nothing is said of it.
func fill(keys []string) {
	for i := range keys {
		keys[i] = "user:" + fmt.Sprint(i)
	}
}

func getFilledElsewhere(ctx context.Context, rdb *redis.ClusterClient, n int) {
	keys := make([]string, n)
	fill(keys)
	rdb.MGet(ctx, keys...)
}
