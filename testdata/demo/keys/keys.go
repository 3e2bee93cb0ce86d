// Package keys declares the demo application's keyspace.
package keys

import (
	"fmt"

	"github.com/slotlint/slotlint/keyspace"
)

// The job queue's keys: every key of one queue shares the queue's hashtag.
var (
	Job     = keyspace.MustTemplate("emq:{<queue>}:job:<id>")
	Pending = keyspace.MustTemplate("emq:{<queue>}:pending")
	Active  = keyspace.MustTemplate("emq:{<queue>}:active")
)

// Queues is the set of all queue names.
const Queues = "emq:queues"

// UserCache is a user's cached profile.
func UserCache(uid int) string { return fmt.Sprintf("user:%d:cache", uid) }

// TmpUserCache is where a user's profile is rebuilt before it replaces the
// cached one.
func TmpUserCache(uid int) string { return "tmp:" + UserCache(uid) }
