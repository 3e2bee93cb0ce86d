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

var luaFuncStCodeText = `
local function stCode(status)
  return 0
end
`

var setStatusScriptText = fmt.Sprintf(`
%s
local st = redis.call('hget', KEYS[1], 'status')
redis.call('hset', KEYS[1], 'status', ARGV[1])
redis.call('hdel', KEYS[2], ARGV[2])
return st
`, luaFuncStCodeText)

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

// KeyJobStatsInTag and KeyJobTrackInTag put the namespace, as
// KeyNamespacePrefix gives it, in a hashtag: "{<namespace>:}" for both
// keys, or "{<namespace>}" for both, as the namespace ends in ':' or not.
func KeyJobStatsInTag(namespace string, jobID string) string { // want KeyJobStatsInTag:`keyFunc\("{<namespace>:}job_stats:<jobID>", "{<namespace>}job_stats:<jobID>"\)`
	return fmt.Sprintf("{%s}job_stats:%s", KeyNamespacePrefix(namespace), jobID)
}

func KeyJobTrackInTag(namespace string) string { // want KeyJobTrackInTag:`keyFunc\("{<namespace>:}job_track:inprogress", "{<namespace>}job_track:inprogress"\)`
	return fmt.Sprintf("{%s}job_track:inprogress", KeyNamespacePrefix(namespace))
}

// KeyJobs is the queue of a job type.
func KeyJobs(namespace, jobType string) string { // want KeyJobs:`keyFunc\("<namespace>:jobs:<jobType>", "<namespace>jobs:<jobType>"\)`
	return fmt.Sprintf("%sjobs:%s", KeyNamespacePrefix(namespace), jobType)
}

// KeyInProgressQueue is a worker pool's queue of the jobs of a type it
// runs.
func KeyInProgressQueue(namespace, jobType, poolID string) string { // want KeyInProgressQueue:`keyFunc\("<namespace>:jobs:<jobType>:<poolID>:inprogress", "<namespace>jobs:<jobType>:<poolID>:inprogress"\)`
	return fmt.Sprintf("%s:%s:inprogress", KeyJobs(namespace, jobType), poolID)
}

// KeyJobsTagged and KeyInProgressTagged put the namespace in a hashtag.
func KeyJobsTagged(namespace, jobType string) string { // want KeyJobsTagged:`keyFunc\("{<namespace>}:jobs:<jobType>"\)`
	return fmt.Sprintf("{%s}:jobs:%s", namespace, jobType)
}

func KeyInProgressTagged(namespace, jobType, poolID string) string { // want KeyInProgressTagged:`keyFunc\("{<namespace>}:jobs:<jobType>:<poolID>:inprogress"\)`
	return fmt.Sprintf("%s:%s:inprogress", KeyJobsTagged(namespace, jobType), poolID)
}

const requeueKeysPerJob = 2

// The reaper's script moves a job back from the in-progress queue of each
// job type to its queue: two keys per job type.
var requeueScriptText = fmt.Sprintf(`
for i = 1, #KEYS, %d do
  local res = redis.call('rpoplpush', KEYS[i], KEYS[i+1])
  if res then
    return res
  end
end
return nil`, requeueKeysPerJob)

// RequeueScript makes the reaper's script for jobTypesCount job types.
func RequeueScript(jobTypesCount int) *redis.Script { // want RequeueScript:`keyScriptMaker\("requeueScriptText", 0\+2\*arg0\)`
	return redis.NewScript(jobTypesCount*requeueKeysPerJob, requeueScriptText)
}
