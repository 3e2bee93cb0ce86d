package prefixed

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Origin: FSendot/uno-arena (services/ranking/store, leaderboard_keys.go
// and leaderboard_rebuild.go): a board's meta hash and its generation's
// sorted set and fence hash share the board type's hashtag, under a
// prefix that defaults to "ranking:" and gains a ':' when it lacks one.
// The prefix holds one of those values in a run, the same in every key.
type boardSpace struct{ prefix string }

func newBoardSpace(prefix string) boardSpace {
	p := strings.TrimSpace(prefix)
	if p == "" {
		p = "ranking:"
	}
	if !strings.HasSuffix(p, ":") {
		p += ":"
	}
	return boardSpace{prefix: p}
}

func (k boardSpace) root(boardType string) string {
	return fmt.Sprintf("%sv1:lb:{%s}:", k.prefix, boardType)
}

func (k boardSpace) meta(boardType string) string { return k.root(boardType) + "meta" }

func (k boardSpace) genZSet(boardType string, gen int64) string {
	return fmt.Sprintf("%sgen:%d:z", k.root(boardType), gen)
}

// The bug the hashtag prevents: a generation keyed without it.
func (k boardSpace) untaggedZSet(boardType string, gen int64) string {
	return fmt.Sprintf("%sv1:lb:%s:gen:%d:z", k.prefix, boardType, gen)
}

type boardStore struct {
	rdb  redis.UniversalClient
	keys boardSpace
}

func newBoardStore(rdb redis.UniversalClient, prefix string) *boardStore {
	return &boardStore{rdb: rdb, keys: newBoardSpace(prefix)}
}

var beginRebuild = redis.NewScript(`
redis.call("HSET", KEYS[1], "rebuilding_gen", ARGV[1])
redis.call("DEL", KEYS[2])
return 1
`)

// Fixed, as the project has it: one hashtag under one prefix.
func (s *boardStore) BeginRebuild(ctx context.Context, boardType string, gen int64) error {
	return beginRebuild.Run(ctx, s.rdb, []string{s.keys.meta(boardType), s.keys.genZSet(boardType, gen)}, gen).Err()
}

func (s *boardStore) BeginUntagged(ctx context.Context, boardType string, gen int64) error {
	return beginRebuild.Run(ctx, s.rdb, []string{s.keys.meta(boardType), s.keys.untaggedZSet(boardType, gen)}, gen).Err() // want `EVALSHA keys "<prefix>:v1:lb:\{<boardType>\}:meta" \(hashtag unknown\) and "<prefix>:v1:lb:<boardType>:gen:<gen>:z" \(hashtag unknown\) may hash to different slots`
}
