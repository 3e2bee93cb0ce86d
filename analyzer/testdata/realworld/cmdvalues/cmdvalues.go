// Package cmdvalues holds commands built as values with go-redis's
// NewCmd, NewIntCmd, NewStringCmd ... and sent by Process, reduced from
// real projects. A command value is checked where it is sent; one that is
// only built and returned, as a test double does, is not.
package cmdvalues

import (
	"context"
	"fmt"

	"github.com/go-redis/redis/v8"
)

// Origin: skyoo2003/acor (pkg/acor/v2 script helpers, go-redis v8): an
// Aho-Corasick trie kept in Redis, updated by an EVAL built with
// NewIntCmd and sent with Process, whose two KEYS are the trie's and its
// outputs' keys, both made from the collection name without a hashtag.
const updateTrie = `
local trieKey = KEYS[1]
local outputsKey = KEYS[2]
redis.call('HSET', trieKey, 'version', ARGV[1])
redis.call('DEL', outputsKey)
return 1`

type trie struct {
	client redis.UniversalClient
	name   string
}

func (t *trie) update(ctx context.Context, version int) error {
	trieKey := fmt.Sprintf("%s:trie", t.name)
	outputsKey := fmt.Sprintf("%s:output", t.name)
	cmd := redis.NewIntCmd(ctx, "eval", updateTrie, 2, trieKey, outputsKey, version) // want `EVAL keys "<t.name>:trie" \(hashtag unknown\) and "<t.name>:output" \(hashtag unknown\) may hash to different slots; .* such as "\{<t.name>\}"`
	return t.client.Process(ctx, cmd)
}

// Fixed: the collection name is the keys' hashtag.
func (t *trie) updateFixed(ctx context.Context, version int) error {
	trieKey := fmt.Sprintf("{%s}:trie", t.name)
	outputsKey := fmt.Sprintf("{%s}:output", t.name)
	cmd := redis.NewIntCmd(ctx, "eval", updateTrie, 2, trieKey, outputsKey, version)
	return t.client.Process(ctx, cmd)
}

// The same, the value assigned twice and sent inline.
func (t *trie) rename(ctx context.Context, from string) error {
	if err := t.client.Process(ctx, redis.NewStatusCmd(ctx, "rename", from+":trie", t.name+":trie")); err != nil { // want `RENAME keys "<from>:trie" \(hashtag unknown\) and "<t.name>:trie" \(hashtag unknown\) may hash to different slots`
		return err
	}
	var cmd *redis.IntCmd
	cmd = redis.NewIntCmd(ctx, "del", from+":trie", from+":output") // want `DEL keys "<from>:trie" \(hashtag unknown\) and "<from>:output" \(hashtag unknown\) may hash to different slots`
	return t.client.Process(ctx, cmd)
}

// A test double's command, built with the keys it was asked for and
// returned, never sent: not a command on any server.
type fakeCache struct{ data map[string]string }

func (f *fakeCache) Del(ctx context.Context, keys ...string) *redis.IntCmd {
	n := 0
	for _, k := range keys {
		if _, ok := f.data[k]; ok {
			delete(f.data, k)
			n++
		}
	}
	cmd := redis.NewIntCmd(ctx, "del", "cache:a", "cache:b")
	cmd.SetVal(int64(n))
	return cmd
}
