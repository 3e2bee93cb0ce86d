// Package lazyscript runs a script that a getter makes once, under a
// lock, and keeps in a package variable.
//
// Origin: WatchBeam/redutil v2.5.0 (queue/scripts.go: LPOPRPUSH;
// queue/lifo_processor.go: PullTo): the LIFO processor moves an element
// from the caller's source list to the caller's destination list in one
// script, KEYS[1] and KEYS[2], and the Processor it is handed out as is
// exported.
package lazyscript

import (
	"sync"

	"github.com/gomodule/redigo/redis"
)

const lpoprpushSrc = `
local v = redis.call('lpop', KEYS[1])
if v == nil then
	return nil
end
redis.call('rpush', KEYS[2], v)
return v
`

var (
	lmu       sync.Mutex
	lpoprpush *redis.Script
)

func LPOPRPUSH(cnx redis.Conn) *redis.Script {
	lmu.Lock()
	defer lmu.Unlock()
	if lpoprpush == nil {
		lpoprpush = redis.NewScript(2, lpoprpushSrc)
	}
	return lpoprpush
}

type Processor interface {
	PullTo(cnx redis.Conn, src, dest string) ([]byte, error) // want PullTo:`keyWrapper\(EVALSHA "<src>" "<dest>" in lifoProcessor\)`
}

var LIFO Processor = &lifoProcessor{}

type lifoProcessor struct{}

func (l *lifoProcessor) PullTo(cnx redis.Conn, src, dest string) ([]byte, error) { // want PullTo:`keyWrapper\(EVALSHA "<src>" "<dest>"\)`
	return redis.Bytes(LPOPRPUSH(cnx).Do(cnx, src, dest)) // want `EVALSHA of the callers' keys "<src>" and "<dest>"`
}

func moveBack(cnx redis.Conn) {
	LPOPRPUSH(cnx).Do(cnx, "queue:done", "queue:todo") // want `keys "queue:done" \(slot \d+\) and "queue:todo" \(slot \d+\) hash to different slots`
}

// Fixed: the lists of one queue share its hashtag.
func moveBackFixed(cnx redis.Conn) {
	LPOPRPUSH(cnx).Do(cnx, "{queue}:done", "{queue}:todo")
}
