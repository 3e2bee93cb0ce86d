// Package readyqueue pops jobs from the ready queues of several topics in
// one blocking call, each queue's name made from a configured format.
package readyqueue

import (
	"fmt"

	"github.com/garyburd/redigo/redis"

	"slotlint.test/realworld/configformat/settings"
)

var pool *redis.Pool

func execRedisCommand(command string, args ...interface{}) (interface{}, error) {
	conn := pool.Get()
	defer conn.Close()
	return conn.Do(command, args...)
}

// Origin: ouqiang/delay-queue (delayqueue/ready_queue.go,
// config/config.go): blockPopFromReadyQueue BLPOPs the ready queue of
// every topic it is given, each fmt.Sprintf(config.Setting.QueueName,
// topic), whose default format "dq_queue_%s" has no hashtag: two topics'
// queues are in two slots.
func blockPopFromReadyQueue(queues []string, timeout int) (string, error) {
	var args []interface{}
	for _, queue := range queues {
		queue = fmt.Sprintf(settings.Setting.QueueName, queue)
		args = append(args, queue)
	}
	args = append(args, timeout)
	value, err := execRedisCommand("BLPOP", args...) // want `BLPOP \(through execRedisCommand at readyqueue.go:18\) keys built as "dq_queue_<queue>" from different values may hash to different slots`
	if err != nil || value == nil {
		return "", err
	}
	return string(value.([]interface{})[1].([]byte)), nil
}

// Fixed: the default format puts every topic's queue under one hashtag.
func blockPopTagged(queues []string, timeout int) (string, error) {
	var args []interface{}
	for _, queue := range queues {
		args = append(args, fmt.Sprintf(settings.Setting.TaggedQueueName, queue))
	}
	args = append(args, timeout)
	value, err := execRedisCommand("BLPOP", args...)
	if err != nil || value == nil {
		return "", err
	}
	return string(value.([]interface{})[1].([]byte)), nil
}
