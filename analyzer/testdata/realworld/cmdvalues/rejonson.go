package cmdvalues

import (
	"github.com/go-redis/redis"
)

// Origin: KromDaniel/rejonson (extend_client.go: JsonMGet;
// rejson_methods.go: concatWithCmd, jsonMGetExecute; go-redis v6):
// RedisJSON commands built as values from the command's name and the
// caller's arguments, which a helper joins and then sends. JSON.MGET reads
// the caller's keys, all arguments but the last (the path), in one
// command. Client, exported, embeds the processor: its callers are in
// other modules.
type Client struct {
	*redisProcessor
}

type redisProcessor struct {
	Process func(redis.Cmder) error
}

func concatWithCmd(cmdName string, args []interface{}) []interface{} {
	res := make([]interface{}, 1)
	res[0] = cmdName
	for _, v := range args {
		if str, ok := v.(string); ok {
			if len(str) == 0 {
				continue
			}
		}
		res = append(res, v)
	}
	return res
}

func jsonMGetExecute(c *redisProcessor, args ...interface{}) *redis.StringSliceCmd {
	cmd := redis.NewStringSliceCmd(concatWithCmd("JSON.MGET", args)...)
	c.Process(cmd)
	return cmd
}

func (cl *redisProcessor) JsonMGet(key string, args ...interface{}) *redis.StringSliceCmd { // want JsonMGet:`keyWrapper\(JSON.MGET \(through jsonMGetExecute at rejonson.go:\d+\) "<key>" "<args\.\.\.>"\)`
	return jsonMGetExecute(cl, append([]interface{}{key}, args...)...) // want `JSON.MGET \(through jsonMGetExecute at rejonson.go:\d+\) of the callers' keys "<key>" and "<args\.\.\.>"`
}

func readBoth(cl *redisProcessor) {
	cl.JsonMGet("doc:a", "doc:b", "$.name") // want `JSON.MGET .* keys "doc:a" \(slot 2308\) and "doc:b" \(slot 14695\) hash to different slots`
}

// Fixed: the documents share a hashtag.
func readBothFixed(cl *redisProcessor) {
	cl.JsonMGet("{doc}:a", "{doc}:b", "$.name")
}
