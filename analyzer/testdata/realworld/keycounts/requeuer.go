package keycounts

import (
	"time"

	redigo "github.com/gomodule/redigo/redis"
)

// Origin: gocraft/work v0.5.1 (requeuer.go, newRequeuer and process): the
// script's keys and ARGV are built once, when the requeuer is made, and
// kept in a field; each run sets the last ARGV to the time and sends the
// field whole. The retry (or scheduled) set, the dead set and one queue
// per job name, without a hashtag.
type requeuer struct {
	pool   *redigo.Pool
	script *redigo.Script
	args   []interface{}
}

func newRequeuer(ns string, pool *redigo.Pool, requeueKey string, jobNames []string) *requeuer {
	args := make([]interface{}, 0, len(jobNames)+2+2)
	args = append(args, requeueKey) // KEYS[1]
	args = append(args, ns+":dead") // KEYS[2]
	for _, name := range jobNames {
		args = append(args, ns+":jobs:"+name) // KEYS[3...]
	}
	args = append(args, ns+":jobs:") // ARGV[1]
	args = append(args, 0)           // ARGV[2], the time of each run
	return &requeuer{pool: pool, script: redigo.NewScript(len(jobNames)+2, requeueSrc), args: args}
}

func (r *requeuer) process() error {
	conn := r.pool.Get()
	defer conn.Close()
	r.args[len(r.args)-1] = time.Now().Unix()
	_, err := r.script.Do(conn, r.args...) // want `EVALSHA keys "<ns>:dead" \(hashtag unknown\) and "<ns>:jobs:<name>" \(hashtag unknown\) may hash to different slots`
	return err
}

// Fixed: the keys share the namespace's hashtag.
type requeuerFixed struct {
	pool   *redigo.Pool
	script *redigo.Script
	args   []interface{}
}

func newRequeuerFixed(ns string, pool *redigo.Pool, jobNames []string) *requeuerFixed {
	args := make([]interface{}, 0, len(jobNames)+2+2)
	args = append(args, "{"+ns+"}:retry")
	args = append(args, "{"+ns+"}:dead")
	for _, name := range jobNames {
		args = append(args, "{"+ns+"}:jobs:"+name)
	}
	args = append(args, "{"+ns+"}:jobs:")
	args = append(args, 0)
	return &requeuerFixed{pool: pool, script: redigo.NewScript(len(jobNames)+2, requeueSrc), args: args}
}

func (r *requeuerFixed) process() error {
	conn := r.pool.Get()
	defer conn.Close()
	r.args[len(r.args)-1] = time.Now().Unix()
	_, err := r.script.Do(conn, r.args...)
	return err
}
