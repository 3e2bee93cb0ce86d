package filled

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: zengzhengrong's tag package (tag/tag.go, operation and
// operationKeyName): each tag is a bitmap under its own name; AND, OR and
// XOR of tags store into a key that joins the tags' names. A helper fills
// the names by index and joins them into the destination in the same
// call, and returns both: the join reads the names and writes none of
// them, so the BITOP still sends the names the loop stored, each its own
// slot.
type bitTag struct{ Name string }

func (t *bitTag) fullName() string { return t.Name + ":bits" }

func opKeyNames(op string, tags ...*bitTag) ([]string, string) {
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.fullName()
	}
	return names, strings.Join(names, fmt.Sprintf("_%s_", op))
}

func bitAnd(ctx context.Context, rdb *redis.Client, tags ...*bitTag) string {
	names, dest := opKeyNames("AND", tags...)
	rdb.BitOpAnd(ctx, dest, names...) // want `BITOP keys "<dest>" \(hashtag unknown\) and "<t.Name>:bits" \(hashtag unknown\) may hash to different slots`
	return dest
}

func bitOr(ctx context.Context, rdb *redis.Client, tags ...*bitTag) string {
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.fullName()
	}
	dest := strings.Join(names, "_OR_")
	rdb.BitOpOr(ctx, dest, names...) // want `BITOP keys "<strings.Join\(names, \\"_OR_\\"\)>" \(hashtag unknown\) and "<t.Name>:bits" \(hashtag unknown\) may hash to different slots`
	return dest
}

// The fix: every tag of one group under the group's hashtag, and the
// destination under it too.
func (t *bitTag) taggedName(group string) string { return "{" + group + "}:" + t.Name }

func bitAndTagged(ctx context.Context, rdb *redis.Client, group string, tags ...*bitTag) string {
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.taggedName(group)
	}
	dest := "{" + group + "}:and:" + strings.Join(names, "_")
	rdb.BitOpAnd(ctx, dest, names...)
	return dest
}
