package oldredigo

import (
	"fmt"

	"github.com/garyburd/redigo/redis"
)

// Origin: travis-ci/pudding (db/jobs.go, EnqueueJob; db/db.go,
// StoreInstances): a MULTI/EXEC whose error branches send DISCARD and
// return. The commands after such a branch are still on the transaction:
// the registry set and the queue's list, each in its own slot.
const puddingNamespace = "worker-manager"

func enqueueJob(conn redis.Conn, queueName, payload string) error {
	err := conn.Send("MULTI") // want `MULTI/EXEC transaction keys "worker-manager:queues" \(slot \d+\) and "worker-manager:queue:<queueName>" \(hashtag unknown\) may hash to different slots`
	if err != nil {
		return err
	}
	err = conn.Send("SADD", fmt.Sprintf("%s:queues", puddingNamespace), queueName)
	if err != nil {
		conn.Send("DISCARD")
		return err
	}
	err = conn.Send("LPUSH", fmt.Sprintf("%s:queue:%s", puddingNamespace, queueName), payload)
	if err != nil {
		conn.Send("DISCARD")
		return err
	}
	_, err = conn.Do("EXEC")
	return err
}

// The fix: the registry and the queues under one hashtag.
func enqueueJobTagged(conn redis.Conn, queueName, payload string) error {
	if err := conn.Send("MULTI"); err != nil {
		return err
	}
	if err := conn.Send("SADD", fmt.Sprintf("{%s}:queues", puddingNamespace), queueName); err != nil {
		conn.Do("DISCARD")
		return err
	}
	if err := conn.Send("LPUSH", fmt.Sprintf("{%s}:queue:%s", puddingNamespace, queueName), payload); err != nil {
		conn.Do("DISCARD")
		return err
	}
	_, err := conn.Do("EXEC")
	return err
}
