// Package cart keeps a user's keys in the fields of a struct, set by its
// constructors, as session stores and carts do (rbcervilla/redisstore,
// go-session/redis): fields built from the same argument share its
// identity, so the methods that use them together are proven colocated.
package cart

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Cart is built by a composite literal in its constructor.
type Cart struct {
	rdb   *redis.ClusterClient
	items string
	total string
}

func NewCart(rdb *redis.ClusterClient, uid string) *Cart {
	return &Cart{rdb: rdb, items: "cart:{" + uid + "}:items", total: "cart:{" + uid + "}:total"}
}

// Origin: rbcervilla/redisstore-style store: two fields of one user in a
// transaction; they share {<uid>}, so nothing is reported.
func (c *Cart) Add(ctx context.Context, sku string, price int64) {
	c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HIncrBy(ctx, c.items, sku, 1)
		p.IncrBy(ctx, c.total, price)
		return nil
	})
}

// Session's fields are assigned one by one in its New function, and one of
// them has no hashtag.
type Session struct {
	rdb  *redis.ClusterClient
	data string
	seen string
	// Index is exported: other packages read it, through a fact.
	Index string // want Index:`keyField\("sessions:index"\)`
	// Data is exported and shares the user's hashtag.
	Data string // want Data:`keyField\("sess:\{<uid>\}:data"\)`
}

func NewSession(rdb *redis.ClusterClient, uid string) *Session {
	s := &Session{rdb: rdb}
	s.data = "sess:{" + uid + "}"
	s.seen = "seen:" + uid
	s.Index = "sessions:index"
	s.Data = "sess:{" + uid + "}:data"
	return s
}

// Origin: go-session/redis (a session's data and its last-seen time set in
// one MULTI/EXEC).
func (s *Session) Touch(ctx context.Context, now int64) {
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "sess:\{<uid>\}" .* and "seen:<uid>" .* hash to different slots`
		p.Expire(ctx, s.data, 0)
		p.Set(ctx, s.seen, now, 0)
		return nil
	})
}

func (s *Session) TouchFixed(ctx context.Context) {
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Expire(ctx, s.data, 0)
		p.Expire(ctx, s.Data, 0)
		return nil
	})
}

// Queue's dst field has two writers: the constructor and Redirect. Both
// values reach every use.
type Queue struct {
	rdb *redis.ClusterClient
	src string
	dst string
}

func NewQueue(rdb *redis.ClusterClient, name string) *Queue {
	return &Queue{rdb: rdb, src: "q:{" + name + "}:in", dst: "q:{" + name + "}:out"}
}

func (q *Queue) Redirect(name string) { q.dst = "q:" + name + ":dead" }

// Origin: adjust/rmq-style queue whose target can be changed.
func (q *Queue) Shift(ctx context.Context) {
	q.rdb.LMove(ctx, q.src, q.dst, "LEFT", "RIGHT") // want `LMOVE keys "q:\{<name>\}:in" .* and "q:<name>:dead" .* may hash to different slots`
}

// Origin: the queue of a go-redis job runner (a Queue made FromClient with
// its name and the names built from it, as in the queue packages of many
// services): one field holds the name as it is, another the name inside a
// hashtag. They hold one value: keys built from the two share its slot.
type Jobs struct {
	rdb    *redis.ClusterClient
	prefix string
	queue  string
}

func NewJobs(rdb *redis.ClusterClient, p string) *Jobs {
	return &Jobs{rdb: rdb, prefix: p, queue: "{" + p + "}"}
}

func (j *Jobs) Move(ctx context.Context) {
	j.rdb.LMove(ctx, j.queue+":pending", "{"+j.prefix+"}:active", "LEFT", "RIGHT")
}

// Two fields of one stream assigned one by one from the same name, each
// inside the hashtag (the shape of a stream consumer's key and ack key).
type Stream struct {
	rdb    *redis.ClusterClient
	key    string
	ackKey string
}

func NewStream(rdb *redis.ClusterClient, name string) *Stream {
	s := &Stream{rdb: rdb}
	s.key = "{" + name + "}:q"
	s.ackKey = "{" + name + "}:ack"
	return s
}

func (s *Stream) Ack(ctx context.Context, id string) {
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAck(ctx, s.key, "g", id)
		p.SAdd(ctx, s.ackKey, id)
		return nil
	})
}

// The bad form: the two fields come from two different parameters.
type Pair struct {
	rdb   *redis.ClusterClient
	key   string
	other string
}

func NewPair(rdb *redis.ClusterClient, name, group string) *Pair {
	s := &Pair{rdb: rdb}
	s.key = "{" + name + "}:q"
	s.other = "{" + group + "}:ack"
	return s
}

func (s *Pair) Ack(ctx context.Context, id string) {
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "\{<name>\}:q" .* and "\{<group>\}:ack" .* may hash to different slots`
		p.XAck(ctx, s.key, "g", id)
		p.SAdd(ctx, s.other, id)
		return nil
	})
}

// The bad form of Jobs: the name and the hashtagged queue come from two
// parameters.
type JobsOf struct {
	rdb    *redis.ClusterClient
	prefix string
	queue  string
}

func NewJobsOf(rdb *redis.ClusterClient, p, q string) *JobsOf {
	return &JobsOf{rdb: rdb, prefix: p, queue: "{" + q + "}"}
}

func (j *JobsOf) Move(ctx context.Context) {
	j.rdb.LMove(ctx, j.queue+":pending", "{"+j.prefix+"}:active", "LEFT", "RIGHT") // want `LMOVE keys "\{<q>\}:pending" .* and "\{<.*>\}:active" .* may hash to different slots`
}
