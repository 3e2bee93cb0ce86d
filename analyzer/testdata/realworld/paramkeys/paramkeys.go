// Package paramkeys holds commands whose keys mix a parameter passed on as
// it is with keys the function builds itself, reduced from real projects.
// The parameter's slot is its callers' to give, so such a command is
// checked at the callers; but when the function's own keys may already be
// in different slots, whatever the callers pass, it is checked where it
// is.
package paramkeys

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: dtm-labs/dtm v1.19.0 (client/dtmcli/barrier_redis.go):
// RedisCheckAdjustAmount(rd, key, amount, expire) runs a script with KEYS
// key, bkey1 and bkey2; the barrier keys are built from the same global
// and branch ids but different operations, without a hashtag. The method
// is exported and its callers are elsewhere: carried to them, the finding
// on its own keys was lost.
type branchBarrier struct {
	gid, branchID, op string
}

const adjust = `
if redis.call('GET', KEYS[2]) then return 'DUPLICATE' end
redis.call('SET', KEYS[2], 'op')
redis.call('SET', KEYS[3], 'rollback')
return redis.call('INCRBY', KEYS[1], ARGV[1])`

func (bb *branchBarrier) CheckAdjustAmount(ctx context.Context, rd redis.Cmdable, key string, amount int, bid string) error {
	bkey1 := fmt.Sprintf("%s-%s-%s-%s", bb.gid, bb.branchID, bb.op, bid)
	bkey2 := fmt.Sprintf("%s-%s-%s-%s", bb.gid, bb.branchID, "try", bid)
	return rd.Eval(ctx, adjust, []string{key, bkey1, bkey2}, amount).Err() // want `EVAL keys "<bb.gid>-01-cancel-<bid>" \(hashtag unknown\) and "<bb.gid>-01-try-<bid>" \(hashtag unknown\) may hash to different slots`
}

// checkAdjustAmountTagged is the fixed form: the barrier keys share the
// global id's hashtag, and key's slot is the callers' to give: it is
// checked at each of them.
func (bb *branchBarrier) checkAdjustAmountTagged(ctx context.Context, rd redis.Cmdable, key string, amount int, bid string) error {
	bkey1 := fmt.Sprintf("{%s}-%s-%s-%s", bb.gid, bb.branchID, bb.op, bid)
	bkey2 := fmt.Sprintf("{%s}-%s-%s-%s", bb.gid, bb.branchID, "try", bid)
	return rd.Eval(ctx, adjust, []string{key, bkey1, bkey2}, amount).Err()
}

func callers(ctx context.Context, rd *redis.ClusterClient, gid string) {
	bb := &branchBarrier{gid: gid, branchID: "01", op: "cancel"}
	bb.checkAdjustAmountTagged(ctx, rd, "{"+bb.gid+"}-balance", 30, "01")
	bb.checkAdjustAmountTagged(ctx, rd, "balance:"+gid, 30, "01") // want `EVAL \(through checkAdjustAmountTagged at paramkeys.go:\d+\) keys "balance:<gid>" \(hashtag unknown\) and "{<bb.gid>}-01-cancel-01" \(hashtag "{<bb.gid>}"\) may hash to different slots`
}

// Origin: centrifugal/centrifuge (broker_redis.go, pubSubPartitionHashTag
// and the keys built around it): a hashtag made from an integer by
// strconv.Itoa in a key helper. Two calls of the helper with one index
// give one hashtag; with two different indexes, two.
func partitionKey(idx int, name string) string {
	return "cf:{" + strconv.Itoa(idx) + "}:" + name
}

func movePartitions(ctx context.Context, rdb *redis.ClusterClient, from, to int) error {
	return rdb.Rename(ctx, partitionKey(from, "state"), partitionKey(to, "state")).Err() // want `RENAME keys "cf:\{<from>\}:state" \(hashtag "\{<from>\}"\) and "cf:\{<to>\}:state" \(hashtag "\{<to>\}"\) may hash to different slots`
}

// The tag through two functions, strconv.Itoa and strings.ToUpper: still
// one function of the index.
func upperPartitionKey(idx int, name string) string {
	return "cf:{" + strings.ToUpper(strconv.Itoa(idx)) + "}:" + name
}

func moveUpperPartitions(ctx context.Context, rdb *redis.ClusterClient, from, to int) error {
	return rdb.Rename(ctx, upperPartitionKey(from, "state"), upperPartitionKey(to, "state")).Err() // want `RENAME keys "cf:\{<from>\}:state" \(hashtag "\{<from>\}"\) and "cf:\{<to>\}:state" \(hashtag "\{<to>\}"\) may hash to different slots`
}

func moveUpperPartitionsFixed(ctx context.Context, rdb *redis.ClusterClient, idx int) error {
	return rdb.Rename(ctx, upperPartitionKey(idx, "state"), upperPartitionKey(idx, "state:old")).Err()
}

func movePartitionsFixed(ctx context.Context, rdb *redis.ClusterClient, idx int) error {
	return rdb.Rename(ctx, partitionKey(idx, "state"), partitionKey(idx, "state:old")).Err()
}

// Origin: centrifugal/centrifuge (map_broker_redis.go, buildKey): keys
// written into a strings.Builder, the hashtag the channel's partition,
// computed inside the helper. Two keys of one channel share it, though
// each call computes it again: such a key stays unknown.
func partitionOf(ch string) int { return len(ch) % 16 }

func channelKey(ch, infix string) string {
	tag := strconv.Itoa(partitionOf(ch))
	var b strings.Builder
	b.WriteString("cf")
	b.WriteString(infix)
	b.WriteByte('{')
	b.WriteString(tag)
	b.WriteString("}.")
	b.WriteString(ch)
	return b.String()
}

func moveStateFixed(ctx context.Context, rdb *redis.ClusterClient, ch string) error {
	return rdb.Rename(ctx, channelKey(ch, ":state:"), channelKey(ch, ":expire:")).Err()
}

// The same keys without the partition's hashtag are in different slots.
func plainChannelKey(ch, infix string) string {
	var b strings.Builder
	b.WriteString("cf")
	b.WriteString(infix)
	b.WriteString(ch)
	return b.String()
}

func moveState(ctx context.Context, rdb *redis.ClusterClient, ch string) error {
	return rdb.Rename(ctx, plainChannelKey(ch, ":state:"), plainChannelKey(ch, ":expire:")).Err() // want `RENAME keys "cf:state:<ch>" \(hashtag unknown\) and "cf:expire:<ch>" \(hashtag unknown\) may hash to different slots`
}
