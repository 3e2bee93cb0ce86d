// Package job tracks a job's status, after goharbor/harbor
// (src/jobservice/job/tracker.go, compareAndSet): the script takes the
// job's stats key and the key of the jobs in progress, two keys of the
// namespace with different suffixes and no hashtag. The script is a
// variable of another package, made with its key count: the count comes
// with it.
package job

import (
	"fmt"

	"github.com/gomodule/redigo/redis"

	"slotlint.test/realworld/jobstats/rds"
)

type Tracker struct {
	pool      *redis.Pool
	namespace string
	jobID     string
}

func NewTracker(pool *redis.Pool, ns, jobID string) *Tracker {
	return &Tracker{pool: pool, namespace: ns, jobID: jobID}
}

func (t *Tracker) SetStatus(status string) error {
	conn := t.pool.Get()
	defer conn.Close()
	_, err := redis.String(rds.SetStatusScript.Do( // want `EVALSHA keys "<t.namespace>:job_stats:<t.jobID>" \(hashtag unknown\) and "<t.namespace>:job_track:inprogress" \(hashtag unknown\) may hash to different slots`
		conn,
		rds.KeyJobStats(t.namespace, t.jobID),
		rds.KeyJobTrackInProgress(t.namespace),
		status,
		t.jobID,
	))
	return err
}

func (t *Tracker) SetStatusFixed(status string) error {
	conn := t.pool.Get()
	defer conn.Close()
	_, err := redis.String(rds.SetStatusScript.Do(
		conn,
		rds.KeyJobStatsTagged(t.namespace, t.jobID),
		rds.KeyJobTrackTagged(t.namespace),
		status,
		t.jobID,
	))
	return err
}

// SetStatusInTag is fixed with the namespace's prefix in a hashtag: a
// namespace that ends in ':' gives both keys "{<namespace>:}", one that
// does not gives both "{<namespace>}"; no run sends one of each.
func (t *Tracker) SetStatusInTag(status string) error {
	conn := t.pool.Get()
	defer conn.Close()
	_, err := redis.String(rds.SetStatusScript.Do(
		conn,
		rds.KeyJobStatsInTag(t.namespace, t.jobID),
		rds.KeyJobTrackInTag(t.namespace),
		status,
		t.jobID,
	))
	return err
}

// Origin: goharbor/harbor (src/jobservice/migration/migrator_v180.go,
// Migrate): a MULTI/EXEC that updates a job's stats and the periodic
// policies key, computed twice by one helper. The two calls give one key,
// whichever form the namespace gives it: the transaction is in doubt
// between the stats key and the policies key, not between the two forms.
func Migrate(conn redis.Conn, namespace string, jobIDs []string, score int64, policy []byte) error {
	for _, id := range jobIDs {
		_ = conn.Send("MULTI") // want `MULTI/EXEC transaction keys "<namespace>:job_stats:<id>" \(hashtag unknown\) and "<namespace>:period:policies" \(hashtag unknown\) may hash to different slots`
		_ = conn.Send("HMSET", namespace+":job_stats:"+id, "status", "Scheduled")
		_ = conn.Send("ZREMRANGEBYSCORE", rds.KeyPeriodicPolicy(namespace), score, score)
		_ = conn.Send("ZADD", rds.KeyPeriodicPolicy(namespace), score, policy)
		if _, err := conn.Do("EXEC"); err != nil {
			return err
		}
	}
	return nil
}

// MigratePolicy replaces a policy in one MULTI/EXEC of the policies key
// alone.
func MigratePolicy(conn redis.Conn, namespace string, score int64, policy []byte) error {
	_ = conn.Send("MULTI")
	_ = conn.Send("ZREMRANGEBYSCORE", rds.KeyPeriodicPolicy(namespace), score, score)
	_ = conn.Send("ZADD", rds.KeyPeriodicPolicy(namespace), score, policy)
	_, err := conn.Do("EXEC")
	return err
}

// Origin: goharbor/harbor (src/jobservice/worker/cworker/reaper.go,
// requeueInProgressJobs): the script is made by a function of another
// package for the number of job types, two keys each; the keys of every
// job type go into one call.
func Requeue(conn redis.Conn, namespace, poolID string, jobTypes []string) error {
	numKeys := len(jobTypes)
	script := rds.RequeueScript(numKeys)
	args := make([]interface{}, 0, 2*numKeys+1)
	for _, jobType := range jobTypes {
		args = append(args, rds.KeyInProgressQueue(namespace, jobType, poolID), rds.KeyJobs(namespace, jobType))
	}
	args = append(args, poolID)
	_, err := script.Do(conn, args...) // want `EVALSHA keys built as "<namespace>:jobs:<jobType>:<poolID>:inprogress" from different values may hash to different slots`
	return err
}

func RequeueFixed(conn redis.Conn, namespace, poolID string, jobTypes []string) error {
	numKeys := len(jobTypes)
	script := rds.RequeueScript(numKeys)
	args := make([]interface{}, 0, 2*numKeys+1)
	for _, jobType := range jobTypes {
		args = append(args, rds.KeyInProgressTagged(namespace, jobType, poolID), rds.KeyJobsTagged(namespace, jobType))
	}
	args = append(args, poolID)
	_, err := script.Do(conn, args...)
	return err
}

// A field set from a value formatted from itself in a deferred function,
// as containerd/containerd's authorizer writes token =
// fmt.Sprintf("Bearer %s", token) and then r.token = token: no script
// slotlint can read, and nothing to report when a script field is read.
type authResult struct {
	token string
}

func fetchToken(r *authResult, fetch func() (string, error)) (token string, err error) {
	defer func() {
		token = fmt.Sprintf("Bearer %s", token)
		r.token = token
	}()
	token, err = fetch()
	return token, err
}

type scripted struct {
	script *redis.Script
}

func (s *scripted) run(conn redis.Conn) error {
	_, err := s.script.Do(conn)
	return err
}
