package clustercheck_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/slot"
)

// member-replies (rules.yaml): the reply of each of these commands lists
// the members (or fields) of one key, and code that keeps an index of the
// keys it wrote sends them back as keys; several in one command fail with
// CROSSSLOT when they span slots, and succeed under one hashtag. Shown for
// every command of the list on a real cluster: a set, a sorted set, a list
// and a hash whose members are the names of keys in different slots, each
// read back with the command, and the keys it lists DEL'd in one call.
func TestGroundTruthMemberRepliesListKeys(t *testing.T) {
	_, cc := groundCluster(t)
	ctx := testCtx(t)

	spread := []string{"gt:m:a", "gt:m:b", "gt:m:c", "gt:m:d"}
	tagged := []string{"{gt:m}:a", "{gt:m}:b", "{gt:m}:c", "{gt:m}:d"}
	if slot.Of(spread[0]) == slot.Of(spread[1]) {
		t.Fatalf("%q and %q share a slot; the test needs keys in two", spread[0], spread[1])
	}
	// Each index holds the key names; the index keys share one slot so
	// that SINTER, SUNION and SDIFF of two of them are allowed.
	for n, set := range [][]string{spread, tagged} {
		idx := fmt.Sprintf("{idx}:%d", n)
		for i, k := range set {
			if err := cc.Set(ctx, k, i, 0).Err(); err != nil {
				t.Fatal(err)
			}
			for _, err := range []error{
				cc.SAdd(ctx, idx+":set", k).Err(),
				cc.SAdd(ctx, idx+":set2", k).Err(),
				cc.ZAdd(ctx, idx+":zset", redis.Z{Score: 0, Member: k}).Err(),
				cc.RPush(ctx, idx+":list", k).Err(),
				cc.HSet(ctx, idx+":hash", k, i).Err(),
			} {
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		listed := map[string][]string{}
		read := func(cmd string, c *redis.StringSliceCmd) {
			r, err := c.Result()
			if err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}
			listed[cmd] = r
		}
		read("SMEMBERS", cc.SMembers(ctx, idx+":set"))
		read("SINTER", cc.SInter(ctx, idx+":set", idx+":set2"))
		read("SUNION", cc.SUnion(ctx, idx+":set", idx+":set2"))
		// SDIFF of a set and an empty one lists the set.
		read("SDIFF", cc.SDiff(ctx, idx+":set", idx+":none"))
		read("SRANDMEMBER", cc.SRandMemberN(ctx, idx+":set", int64(len(set))))
		read("HKEYS", cc.HKeys(ctx, idx+":hash"))
		read("ZRANGE", cc.ZRange(ctx, idx+":zset", 0, -1))
		read("ZRANGEBYSCORE", cc.ZRangeByScore(ctx, idx+":zset", &redis.ZRangeBy{Min: "-inf", Max: "+inf"}))
		read("ZREVRANGE", cc.ZRevRange(ctx, idx+":zset", 0, -1))
		read("ZREVRANGEBYSCORE", cc.ZRevRangeByScore(ctx, idx+":zset", &redis.ZRangeBy{Min: "-inf", Max: "+inf"}))
		read("ZRANGEBYLEX", cc.ZRangeByLex(ctx, idx+":zset", &redis.ZRangeBy{Min: "-", Max: "+"}))
		read("LRANGE", cc.LRange(ctx, idx+":list", 0, -1))
		members, _, err := cc.SScan(ctx, idx+":set", 0, "", 100).Result()
		if err != nil {
			t.Fatalf("SSCAN: %v", err)
		}
		listed["SSCAN"] = members
		for cmd, got := range listed {
			slices.Sort(got)
			if !slices.Equal(got, set) {
				t.Fatalf("%s of the index lists %q; want the key names %q", cmd, got, set)
			}
			delErr := cc.Del(ctx, got...).Err()
			switch {
			case set[0] == spread[0] && (delErr == nil || !strings.HasPrefix(delErr.Error(), "CROSSSLOT")):
				t.Fatalf("DEL of the keys %s lists, in several slots: %v; want CROSSSLOT", cmd, delErr)
			case set[0] == tagged[0] && delErr != nil:
				t.Fatalf("DEL of the keys %s lists, under one hashtag: %v", cmd, delErr)
			case set[0] == tagged[0]:
				for i, k := range set { // put them back for the next command
					if err := cc.Set(ctx, k, i, 0).Err(); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		for _, mr := range slotlint.Builtin().MemberReplies {
			if _, ok := listed[mr.Command]; !ok {
				t.Errorf("rules.yaml's member-replies has %s, which this test does not send", mr.Command)
			}
		}
		t.Logf("the %d member-replies commands list the %d key names of the index; DEL of them: %s", len(listed), len(set), map[bool]string{true: "CROSSSLOT", false: "OK"}[set[0] == spread[0]])
	}
}
