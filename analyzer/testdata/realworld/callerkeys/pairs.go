package callerkeys

import (
	"context"

	redisv8 "github.com/go-redis/redis/v8"
	redigo "github.com/gomodule/redigo/redis"
)

// Origin: devfeel/dotweb v1.7.21 (framework/redis/redisutil.go,
// RedisClient.RPopLPush, SMove and SDiffStore): a framework's exported
// redigo wrapper sends the keys its caller names, two parameters or a
// destination and a spread of sources, in one command.
type RedisClient struct {
	pool *redigo.Pool
}

func (rc *RedisClient) RPopLPush(source string, destination string) (interface{}, error) { // want RPopLPush:`keyWrapper\(RPOPLPUSH "<source>" "<destination>"\)`
	conn := rc.pool.Get()
	defer conn.Close()
	return conn.Do("RPOPLPUSH", source, destination) // want `RPOPLPUSH of the callers' keys "<source>" and "<destination>": callers in other modules are not checked`
}

func (rc *RedisClient) SMove(source, destination, member string) (bool, error) { // want SMove:`keyWrapper\(SMOVE "<source>" "<destination>"\)`
	conn := rc.pool.Get()
	defer conn.Close()
	return redigo.Bool(conn.Do("SMOVE", source, destination, member)) // want `SMOVE of the callers' keys "<source>" and "<destination>": callers in other modules are not checked`
}

func (rc *RedisClient) SDiffStore(destination string, key ...interface{}) (int, error) { // want SDiffStore:`keyWrapper\(SDIFFSTORE "<destination>" "<key...>"\)`
	conn := rc.pool.Get()
	defer conn.Close()
	return redigo.Int(conn.Do("SDIFFSTORE", append([]interface{}{destination}, key...)...)) // want `SDIFFSTORE of the callers' keys "<destination>" and "<key...>": callers in other modules are not checked`
}

// Fixed: the wrapper takes the hashtag its keys share and puts it in
// each of them, so that whatever names the callers give, the keys are in
// one slot.
func (rc *RedisClient) RPopLPushIn(tag, source, destination string) (interface{}, error) {
	conn := rc.pool.Get()
	defer conn.Close()
	return conn.Do("RPOPLPUSH", "{"+tag+"}:"+source, "{"+tag+"}:"+destination)
}

// Origin: goal-web/redis v0.1.3 (connection.go, Connection.ZInterStore
// and ZUnionStore): the destination is a parameter and the sources the
// Keys of the framework's own ZStore the caller fills.
type ZStore struct {
	Keys    []string
	Weights []float64
}

type Connection struct {
	client *redisv8.Client
}

func (c *Connection) ZInterStore(destination string, store *ZStore) (int64, error) {
	return c.client.ZInterStore(context.Background(), destination, &redisv8.ZStore{ // want `ZINTERSTORE of the callers' keys "<destination>" and "<store.Keys>": callers in other modules are not checked`
		Keys:    store.Keys,
		Weights: store.Weights,
	}).Result()
}

// Fixed: the sources and the destination are names under one hashtag
// the caller gives.
func (c *Connection) ZInterStoreIn(tag, destination string, names []string) (int64, error) {
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = "{" + tag + "}:" + n
	}
	return c.client.ZInterStore(context.Background(), "{"+tag+"}:"+destination, &redisv8.ZStore{Keys: keys}).Result()
}
