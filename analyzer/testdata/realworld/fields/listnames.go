package fields

import (
	"github.com/garyburd/redigo/redis"
)

// Origin: pennersr/shove (internal/queue/redis/queue.go and util.go): a
// push queue's two lists, named by a helper that returns both by a bare
// return of named results and set on the queue in one assignment; a
// message is moved back from the pending list to the waiting one in one
// MULTI/EXEC.
func ListNames(serviceID string) (l, pl string) { // want ListNames:`keyFunc\("shove:<serviceID>"\) result 1 \("shove:<serviceID>:pending"\)`
	l = "shove:" + serviceID
	pl = l + ":pending"
	return
}

type pushQueue struct {
	pool        *redis.Pool
	waitingList string
	pendingList string
}

func newPushQueue(pool *redis.Pool, id string) *pushQueue {
	q := &pushQueue{pool: pool}
	q.waitingList, q.pendingList = ListNames(id)
	return q
}

func (q *pushQueue) requeue(msg []byte) error {
	conn := q.pool.Get()
	defer conn.Close()
	conn.Send("MULTI") // want `MULTI/EXEC transaction keys "shove:<id>:pending" \(hashtag unknown\) and "shove:<id>" \(hashtag unknown\) may hash to different slots`
	conn.Send("LREM", q.pendingList, 1, msg)
	conn.Send("RPUSH", q.waitingList, msg)
	_, err := conn.Do("EXEC")
	return err
}

// Fixed: both lists under the service's hashtag.
func TaggedListNames(serviceID string) (l, pl string) { // want TaggedListNames:`keyFunc\("shove:\{<serviceID>\}"\) result 1 \("shove:\{<serviceID>\}:pending"\)`
	l = "shove:{" + serviceID + "}"
	pl = l + ":pending"
	return
}

type taggedPushQueue struct {
	pool        *redis.Pool
	waitingList string
	pendingList string
}

func newTaggedPushQueue(pool *redis.Pool, id string) *taggedPushQueue {
	q := &taggedPushQueue{pool: pool}
	q.waitingList, q.pendingList = TaggedListNames(id)
	return q
}

func (q *taggedPushQueue) requeue(msg []byte) error {
	conn := q.pool.Get()
	defer conn.Close()
	conn.Send("MULTI")
	conn.Send("LREM", q.pendingList, 1, msg)
	conn.Send("RPUSH", q.waitingList, msg)
	_, err := conn.Do("EXEC")
	return err
}
