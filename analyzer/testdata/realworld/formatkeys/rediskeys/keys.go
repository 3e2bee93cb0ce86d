// Package rediskeys holds a key type whose method formats its constants,
// reduced from nekomeowww/insights-bot (pkg/types/redis/keys.go): the
// keys are constants of the type, each a format of its parameters, and
// Format is fmt.Sprintf of the receiver. Another package's call
// RecapBatch1.Format(userID) is that package's Sprintf.
package rediskeys

import "fmt"

// Key is a key format.
type Key string

// Format formats the key with its parameters.
func (k Key) Format(params ...interface{}) string { // want Format:`keyFormat\(-1\)`
	return fmt.Sprintf(string(k), params...)
}

const (
	// RecapControl1 is the switch of a user's recap of forwarded
	// messages. params: user id
	RecapControl1 Key = "recap/replay_from_private_message/%d"
	// RecapBatch1 is the batch of messages the user forwarded.
	// params: user id
	RecapBatch1 Key = "recap/replay_from_private_message/%d/batch"

	// The fixed form: one user's switch and batch share a hashtag.
	RecapControlTagged1 Key = "recap/replay_from_private_message/{%d}"
	RecapBatchTagged1   Key = "recap/replay_from_private_message/{%d}/batch"
)
