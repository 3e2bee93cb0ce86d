package bracedtags

import (
	"context"
	"strings"

	"github.com/go-redis/redis/v8"
)

// Origin: hyp3rd/go-worker (durable_redis.go): a durable backend's keys
// share its prefix, made a hashtag unless it holds one: keyPrefix returns
// the prefix as it is when strings.Contains(b.prefix, "{"), and else
// "{" + b.prefix + "}". Its test of an empty prefix is dead code: the
// constructor sets a default, and the option sets only a prefix that is
// not empty. Every key shares the prefix's hashtag.
type durableBackend struct {
	client *redis.Client
	prefix string
}

func newDurableBackend(client *redis.Client, opts ...func(*durableBackend)) *durableBackend {
	b := &durableBackend{client: client, prefix: "go-worker"}
	for _, opt := range opts {
		opt(b)
	}
	return b
}

func withDurablePrefix(prefix string) func(*durableBackend) {
	return func(b *durableBackend) {
		if prefix != "" {
			b.prefix = prefix
		}
	}
}

func (b *durableBackend) keyPrefix() string {
	if b.prefix == "" {
		return "go-worker"
	}
	if strings.Contains(b.prefix, "{") {
		return b.prefix
	}
	return "{" + b.prefix + "}"
}

func (b *durableBackend) readyKey() string { return b.keyPrefix() + ":ready" }

func (b *durableBackend) taskKey(id string) string { return b.keyPrefix() + ":task:" + id }

const enqueueScript = `
redis.call("HSET", KEYS[2], "payload", ARGV[2])
return redis.call("ZADD", KEYS[1], ARGV[1], ARGV[3])
`

func (b *durableBackend) enqueue(ctx context.Context, id, payload string) error {
	return b.client.Eval(ctx, enqueueScript, []string{b.readyKey(), b.taskKey(id)}, 0, payload, id).Err()
}

// The bug the check prevents: a task key outside the prefix's hashtag.
func (b *durableBackend) plainTaskKey(id string) string { return b.prefix + ":task:" + id }

func (b *durableBackend) enqueuePlain(ctx context.Context, id, payload string) error {
	return b.client.Eval(ctx, enqueueScript, []string{b.readyKey(), b.plainTaskKey(id)}, 0, payload, id).Err() // want `EVAL keys "\{<b.prefix>\}:ready" \(hashtag "\{<b.prefix>\}"\) and "<b.prefix>:task:<id>" \(hashtag unknown\) may hash to different slots`
}
