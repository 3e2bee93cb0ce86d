// Package rds holds a job service's keys and scripts, after
// goharbor/harbor (src/jobservice/common/rds): every key is the
// namespace, with a ':' added when it has none, and a suffix.
package rds

import (
	"fmt"
	"strings"

	"github.com/gomodule/redigo/redis"
)

// KeyNamespacePrefix returns the namespace with a trailing ':'.
func KeyNamespacePrefix(namespace string) string { // want KeyNamespacePrefix:`keyFunc\("<namespace>:", "<namespace>"\)`
	ns := strings.TrimSpace(namespace)
	if !strings.HasSuffix(ns, ":") {
		return fmt.Sprintf("%s:", ns)
	}
	return ns
}

// KeyJobStats is the key of a job's stats.
func KeyJobStats(namespace string, jobID string) string { // want KeyJobStats:`keyFunc\("<namespace>:job_stats:<jobID>", "<namespace>job_stats:<jobID>"\)`
	return fmt.Sprintf("%s%s:%s", KeyNamespacePrefix(namespace), "job_stats", jobID)
}

// KeyJobTrackInProgress is the key of the jobs in progress.
func KeyJobTrackInProgress(namespace string) string { // want KeyJobTrackInProgress:`keyFunc\("<namespace>:job_track:inprogress", "<namespace>job_track:inprogress"\)`
	return fmt.Sprintf("%s%s", KeyNamespacePrefix(namespace), "job_track:inprogress")
}

// KeyPeriodicPolicy is the key of the periodic policies.
func KeyPeriodicPolicy(namespace string) string { // want KeyPeriodicPolicy:`keyFunc\("<namespace>:period:policies", "<namespace>period:policies"\)`
	return fmt.Sprintf("%s%s:%s", KeyNamespacePrefix(namespace), "period", "policies")
}

const setStatusScriptText = `
local st = redis.call('hget', KEYS[1], 'status')
redis.call('hset', KEYS[1], 'status', ARGV[1])
redis.call('hdel', KEYS[2], ARGV[2])
return st
`

// SetStatusScript sets a job's status and drops it from the jobs in
// progress.
var SetStatusScript = redis.NewScript(2, setStatusScriptText) // want SetStatusScript:`keyScript\("SetStatusScript"\)`

// KeyJobStatsTagged and KeyJobTrackTagged put the namespace in a hashtag:
// every key of one namespace is in its slot.
func KeyJobStatsTagged(namespace string, jobID string) string { // want KeyJobStatsTagged:`keyFunc\("{<namespace>}:job_stats:<jobID>"\)`
	return fmt.Sprintf("{%s}:job_stats:%s", namespace, jobID)
}

func KeyJobTrackTagged(namespace string) string { // want KeyJobTrackTagged:`keyFunc\("{<namespace>}:job_track:inprogress"\)`
	return fmt.Sprintf("{%s}:job_track:inprogress", namespace)
}
