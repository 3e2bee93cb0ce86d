package oldredigo

import (
	"fmt"

	"github.com/garyburd/redigo/redis"
)

// Origin: meitu/bifrost (push/store/redis_util/queue.go, NewQueue and
// Enqueue): a ring of messages per topic whose size the configuration
// sets, formatted into the Lua with fmt.Sprintf("... index%%%d ...",
// config.Size). The script is given the topic and INCRs and HSETs
// KEYS[1]..":index" and KEYS[1]..":queue", keys it builds itself.
type topicQueue struct {
	add       *redis.Script
	addTagged *redis.Script
}

func NewTopicQueue(size uint64) *topicQueue {
	add := redis.NewScript(1, fmt.Sprintf(`
	local index = redis.call("incr", KEYS[1]..":index")
	redis.call("hset", KEYS[1]..":queue", index%%%d, ARGV[1])
	return index
	`, size))
	// The fix: both keys passed, under the topic's hashtag.
	addTagged := redis.NewScript(2, fmt.Sprintf(`
	local index = redis.call("incr", KEYS[1])
	redis.call("hset", KEYS[2], index%%%d, ARGV[1])
	return index
	`, size))
	return &topicQueue{add: add, addTagged: addTagged}
}

func (q *topicQueue) Enqueue(conn redis.Conn, topic string, data []byte) (int64, error) {
	return redis.Int64(q.add.Do(conn, topic, data)) // want `script add line 2: redis.call\("incr", KEYS\[1\] .. ":index"\) touches a key not declared in KEYS` `script add line 3: redis.call\("hset", KEYS\[1\] .. ":queue", index % _fmt_1, ARGV\[1\]\) touches a key not declared in KEYS`
}

func (q *topicQueue) EnqueueTagged(conn redis.Conn, topic string, data []byte) (int64, error) {
	return redis.Int64(q.addTagged.Do(conn, "{"+topic+"}:index", "{"+topic+"}:queue", data))
}
