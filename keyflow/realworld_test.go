package keyflow_test

// The values behind the analyzer's realworld corpus (analyzer/testdata/
// realworld): which keys reach each call when code is written the way
// public projects write it. Each case names the project whose pattern it
// reduces. They join engineCases, so TestEngine checks them.
var realworldCases = []engineCase{
	{
		// tair-opensource/tair-go: a struct embedding the client; its
		// promoted methods are go-redis's.
		name: "rw-embedded-client",
		src: `type cache struct{ *redis.ClusterClient }

type universal struct{ redis.UniversalClient }

func (c *cache) rotate(ctx context.Context, day string) {
	c.Rename(ctx, "{log}:today", "{log}:"+day)
}

func (u universal) merge(ctx context.Context, a string) {
	u.SUnionStore(ctx, "tags:all", "tags:"+a)
}`,
		want: []string{
			`rotate: RENAME ["{log}:today"] ["{log}:<day>"]`,
			`merge: SUNIONSTORE ["tags:all"] ["tags:<a>"]`,
		},
	},
	{
		// robinjoseph08/redisqueue: XREADGROUP's Streams are the keys, then
		// one ID per stream; the IDs are no keys.
		name: "rw-xreadgroup-streams",
		src: `func f(ctx context.Context, rdb *redis.ClusterClient) {
	keys := []string{"{s}:orders", "{s}:payments"}
	ids := []string{">", ">"}
	rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: append(keys, ids...)})
}`,
		want: []string{`f: XREADGROUP ["{s}:orders"] ["{s}:payments"]`},
	},
	{
		// go-redis/cache: slices joined with append(a, b...).
		name: "rw-append-spread",
		src: `func f(ctx context.Context, rdb *redis.ClusterClient, post string) {
	mine := []string{"tags:{" + post + "}"}
	shared := []string{"tags:{" + post + "}:global"}
	rdb.SInterStore(ctx, "tags:{"+post+"}:common", append(mine, shared...)...)
}`,
		want: []string{`f: SINTERSTORE ["tags:{<post>}:common"] ["tags:{<post>}"] ["tags:{<post>}:global"]`},
	},
}

func init() { engineCases = append(engineCases, realworldCases...) }
