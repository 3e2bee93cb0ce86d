// Package topicqueue is reduced from go-yaaf/yaaf-common-valkey
// (valkey/valkey_message_bus.go): a message bus over valkey-go whose Pop
// takes the queues to pop from, or the topic of the message its factory
// makes when the caller names none. With a timeout it sends BRPOP over all
// the queues the caller names: the library's callers choose them, and
// nothing keeps them in one slot.
package topicqueue

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

type Message interface{ Topic() string }

type MessageFactory func() Message

type Adapter struct{ rc valkey.Client }

func (r *Adapter) Pop(factory MessageFactory, timeout time.Duration, queue ...string) ([]byte, error) { // want Pop:`keyWrapper\(BRPOP "<queue...>" "<queue...>" "<message.Topic\(\)>"\)`
	message := factory()
	if len(queue) == 0 {
		queue = append(queue, message.Topic())
	}
	if timeout == 0 {
		return r.rc.Do(context.Background(), r.rc.B().Rpop().Key(queue[0]).Build()).AsBytes()
	}
	cmd := r.rc.B().Brpop().Key(queue...).Timeout(timeout.Seconds()).Build()
	return r.rc.Do(context.Background(), cmd).AsBytes() // want `BRPOP of the callers' keys "<queue...>": callers in other modules are not checked`
}

// The fix: one queue a call.
func (r *Adapter) PopQueue(factory MessageFactory, timeout time.Duration, queue string) ([]byte, error) {
	if queue == "" {
		queue = factory().Topic()
	}
	cmd := r.rc.B().Brpop().Key(queue).Timeout(timeout.Seconds()).Build()
	return r.rc.Do(context.Background(), cmd).AsBytes()
}
