// Package provenance holds keys built in the ways real code builds them.
package provenance

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/keyspace"
)

const prefix = "emq:"

var queuesKey = prefix + "queues"

var JobKey = keyspace.MustTemplate("emq:{<queue>}:job:<id>") // want JobKey:`keyTemplate\("emq:\{<queue>\}:job:<id>"\)`

var pendingKey = keyspace.MustTemplate("emq:{<queue>}:pending")

func sprintf(ctx context.Context, rdb *redis.Client, queue, id string, n int) {
	a := fmt.Sprintf("emq:{%s}:job:%s", queue, id)
	b := fmt.Sprintf("emq:{%s}:pending", queue)
	rdb.RPopLPush(ctx, a, b)
	rdb.RPopLPush(ctx, fmt.Sprintf("user:%d:a", n), fmt.Sprintf("user:%d:b", n)) // want `RPOPLPUSH keys "user:<n>:a" \(no hashtag\) and "user:<n>:b" \(no hashtag\) hash to different slots; give them a common hashtag such as "\{user:<n>\}"`
	rdb.Rename(ctx, strings.Join([]string{"a", queue}, ":"), "a:"+queue)
}

func concat(ctx context.Context, rdb *redis.Client, queue string) {
	rdb.SMove(ctx, queuesKey, "emq:{"+queue+"}:pending", "x") // want `SMOVE keys "emq:queues" \(slot 8388\) and "emq:\{<queue>\}:pending" \(hashtag "\{<queue>\}"\) may hash to different slots; no common hashtag proves they share one; give them a common hashtag such as "\{<queue>\}"`
	key := prefix + "{" + queue + "}"
	rdb.LMove(ctx, key+":pending", key+":active", "LEFT", "RIGHT")
}

func branches(ctx context.Context, rdb *redis.Client, premium bool) {
	dst := "{jobs}:normal"
	if premium {
		dst = "jobs:premium"
	}
	rdb.LMove(ctx, "{jobs}:incoming", dst, "LEFT", "RIGHT") // want `LMOVE keys "\{jobs\}:incoming" \(slot \d+\) and "jobs:premium" \(slot \d+\) hash to different slots`
}

func loops(ctx context.Context, rdb *redis.Client, queue string, ids []string) {
	var keys []string
	for _, id := range ids {
		keys = append(keys, JobKey.Key(queue, id))
	}
	rdb.Del(ctx, keys...)

	var plain []string
	for _, id := range ids {
		plain = append(plain, "job:"+id)
	}
	rdb.MGet(ctx, plain...) // want `MGET keys built as "job:<id>" from different values may hash to different slots`

	fixed := []string{"{a}1", "{a}2"}
	fixed = append(fixed, "{a}3")
	rdb.Del(ctx, fixed...)
	rdb.Del(ctx, append(fixed, "b")...) // want `DEL keys "\{a\}1" .* and "b" .* hash to different slots`
}

func templates(ctx context.Context, rdb *redis.Client, queue, id string, n int) {
	rdb.LMove(ctx, JobKey.Key(queue, id), pendingKey.Key(queue), "LEFT", "RIGHT")
	rdb.LMove(ctx, JobKey.Key(queue, id), pendingKey.Key("other"), "LEFT", "RIGHT") // want `LMOVE keys "emq:\{<queue>\}:job:<id>" \(hashtag "\{<queue>\}"\) and "emq:\{other\}:pending" \(slot \d+\) may hash to different slots`
	k, err := JobKey.Build(queue, strconv.Itoa(n))
	if err == nil {
		rdb.Rename(ctx, k, pendingKey.Key(queue))
	}
}

type Queue struct {
	rdb  *redis.Client
	name string
}

func (q *Queue) key(suffix string) string { return "emq:{" + q.name + "}:" + suffix }

func (q *Queue) Pending() string { return q.key("pending") } // want Pending:`keyFunc\("emq:\{<q.name>\}:pending"\)`

func (q *Queue) Active() string { return q.key("active") } // want Active:`keyFunc\("emq:\{<q.name>\}:active"\)`

func (q *Queue) claim(ctx context.Context) {
	q.rdb.LMove(ctx, q.Pending(), q.Active(), "LEFT", "RIGHT")
	q.rdb.LMove(ctx, q.Pending(), "emq:active", "LEFT", "RIGHT") // want `LMOVE keys "emq:\{<q.name>\}:pending" \(hashtag "\{<q.name>\}"\) and "emq:active" .* may hash to different slots`
}

func twoQueues(ctx context.Context, rdb *redis.Client, a, b *Queue) {
	rdb.LMove(ctx, a.Pending(), b.Pending(), "LEFT", "RIGHT") // want `LMOVE keys "emq:\{<a.name>\}:pending" .* and "emq:\{<b.name>\}:pending" .* may hash to different slots`
}

func derived(ctx context.Context, rdb *redis.Client, n int) {
	rdb.Rename(ctx, "{"+strconv.Itoa(n)+"}:a", "{"+strconv.FormatInt(int64(n), 10)+"}:b")
	rdb.Rename(ctx, strings.ToLower("{A}x"), "{a}y")
	rdb.Rename(ctx, "{"+strconv.FormatInt(int64(n), 16)+"}:a", "{"+strconv.Itoa(n)+"}:b") // want `RENAME keys "\{<n>\}:a" \(hashtag "\{<n>\}"\) and "\{<n>\}:b" \(hashtag "\{<n>\}"\) may hash to different slots`
	for i := range 3 {
		k := "job:" + strconv.Itoa(i)
		rdb.Rename(ctx, k, k+":done") // want `RENAME keys "job:<i>" \(no hashtag\) and "job:<i>:done" \(no hashtag\) may hash`
	}
}
