// Package spring is a framework's own Redis client that builds each
// command as an argument list, the command's name first, and hands it to
// a driver interface that the framework's users implement over a client
// library of their choice: the commands are raw commands, sent as built.
//
// Origin: go-spring/spring-core v1.1.3 (redis/redis.go: Driver.Exec and
// Client.Int; ops_key.go: Del, Rename; ops_string.go: MSet; ops_zset.go:
// ZDiff, ZInterWithScores, ZUnionStore; case_key.go: the cases it runs against every
// driver).
package spring

import (
	"context"
	"fmt"
)

type Driver interface {
	Exec(ctx context.Context, args []interface{}) (interface{}, error)
}

type Client struct {
	driver Driver
}

// Int executes a command whose reply is an integer.
func (c *Client) Int(ctx context.Context, args ...interface{}) (int64, error) { // want Int:`keyWrapper\(Exec raw \$1\.\.\.\)`
	v, err := c.driver.Exec(ctx, args)
	if err != nil {
		return 0, err
	}
	n, _ := v.(int64)
	return n, nil
}

// String executes a command whose reply is a string.
func (c *Client) String(ctx context.Context, args ...interface{}) (string, error) { // want String:`keyWrapper\(Exec raw \$1\.\.\.\)`
	v, err := c.driver.Exec(ctx, args)
	return fmt.Sprint(v), err
}

func (c *Client) Del(ctx context.Context, keys ...string) (int64, error) { // want Del:`keyWrapper\(.*\)`
	args := []interface{}{"DEL"}
	for _, key := range keys {
		args = append(args, key)
	}
	return c.Int(ctx, args...) // want `DEL \(through Int at spring.go:\d+\) of the callers' keys`
}

func (c *Client) Rename(ctx context.Context, key, newKey string) (string, error) { // want Rename:`keyWrapper\(.*\)`
	args := []interface{}{"RENAME", key, newKey}
	return c.String(ctx, args...) // want `RENAME \(through String at spring.go:\d+\) of the callers' keys "<key>" and "<newKey>"`
}

// The callers' key value pairs: every other argument is a key.
func (c *Client) MSet(ctx context.Context, args ...interface{}) (string, error) { // want MSet:`keyWrapper\(.*\)`
	args = append([]interface{}{"MSET"}, args...)
	return c.String(ctx, args...) // want `MSET \(through String at spring.go:\d+\) of the callers' keys "<args\.\.\.>"`
}

// ZDIFF numkeys key [key ...]: the count is len(keys), the keys follow.
func (c *Client) ZDiff(ctx context.Context, keys ...string) (int64, error) { // want ZDiff:`keyWrapper\(.*\)`
	args := []interface{}{"ZDIFF", len(keys)}
	for _, key := range keys {
		args = append(args, key)
	}
	return c.Int(ctx, args...) // want `ZDIFF \(through Int at spring.go:\d+\) of the callers' keys "<keys\.\.\.>"`
}

// ZUNIONSTORE destination numkeys key [key ...] [WEIGHTS ...]: the
// callers give the count and the keys.
func (c *Client) ZUnionStore(ctx context.Context, dest string, args ...interface{}) (int64, error) { // want ZUnionStore:`keyWrapper\(.*\)`
	args = append([]interface{}{"ZUNIONSTORE", dest}, args...)
	return c.Int(ctx, args...) // want `ZUNIONSTORE \(through Int at spring.go:\d+\) of the callers' keys "<dest>" and "<args\.\.\.>"`
}

// The callers' count and keys, and an option after them.
func (c *Client) ZInterWithScores(ctx context.Context, args ...interface{}) (int64, error) { // want ZInterWithScores:`keyWrapper\(.*\)`
	args = append([]interface{}{"ZINTER"}, args...)
	args = append(args, "WITHSCORES")
	return c.Int(ctx, args...) // want `ZINTER \(through Int at spring.go:\d+\) of the callers' keys "<args\.\.\.>"`
}

// A single-key command: nothing to check.
func (c *Client) Incr(ctx context.Context, key string) (int64, error) {
	args := []interface{}{"INCR", key}
	return c.Int(ctx, args...)
}

// The framework's cases, run against each driver.
func cases(ctx context.Context, c *Client) {
	c.Del(ctx, "key1", "key2")            // want `DEL \(through Int at spring.go:\d+\) \(through Del at spring.go:\d+\) keys "key1" \(slot 9189\) and "key2" \(slot 4998\) hash to different slots`
	c.Rename(ctx, "mykey", "myotherkey")  // want `RENAME .* keys "mykey" \(slot 14687\) and "myotherkey" \(slot 3265\) hash to different slots`
	c.Del(ctx, "{key}1", "{key}2")        // fixed: one hashtag
	c.Rename(ctx, "{my}key", "{my}other") // fixed
	c.Incr(ctx, "counter")
	c.MSet(ctx, "key1", "Hello", "key2", "World")                          // want `MSET .* keys "key1" \(slot 9189\) and "key2" \(slot 4998\) hash to different slots`
	c.MSet(ctx, "{key}1", "Hello", "{key}2", "World")                      // fixed
	c.ZDiff(ctx, "zset1", "zset2")                                         // want `ZDIFF .* keys "zset1" \(slot \d+\) and "zset2" \(slot \d+\) hash to different slots`
	c.ZDiff(ctx, "{z}set1", "{z}set2")                                     // fixed
	c.ZUnionStore(ctx, "out", 2, "zset1", "zset2", "WEIGHTS", 2, 3)        // want `ZUNIONSTORE .* keys "out" \(slot \d+\) and "zset1" \(slot \d+\) hash to different slots`
	c.ZUnionStore(ctx, "{z}out", 2, "{z}set1", "{z}set2", "WEIGHTS", 2, 3) // fixed
	c.ZInterWithScores(ctx, 2, "zset1", "zset2")                           // want `ZINTER .* keys "zset1" \(slot \d+\) and "zset2" \(slot \d+\) hash to different slots`
	c.ZInterWithScores(ctx, 2, "{z}set1", "{z}set2")                       // fixed
}
