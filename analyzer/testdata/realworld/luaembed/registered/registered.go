// Package registered holds scripts kept in package-level variables that a
// table registers by address and a loader fills from an embed.FS.
//
// Origin: cschleiden/go-workflows (backend/redis: redis.go's loadScripts,
// queue.go's taskQueue.Size with queue/size.lua, and events_future.go with
// schedule_future_events.lua). Its older releases range over the table in
// the constructor itself; newer ones hand it to loadScripts. The size
// script SCARDs each member of a set it reads, and the future-events
// script touches the members of a sorted set and keys it builds from a
// prefix in ARGV: keys the call does not declare in KEYS.
package registered

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/redis/go-redis/v9"
)

//go:embed scripts
var luaScripts embed.FS

var (
	sizeCmd        *redis.Script
	sizeFixedCmd   *redis.Script
	futureCmd      *redis.Script
	futureFixedCmd *redis.Script
)

func loadScripts(ctx context.Context, rdb redis.UniversalClient, cmdMapping map[string]**redis.Script) error {
	for scriptFile, cmd := range cmdMapping {
		scriptContent, err := fs.ReadFile(luaScripts, "scripts/"+scriptFile)
		if err != nil {
			return fmt.Errorf("reading Lua script %s: %w", scriptFile, err)
		}
		*cmd = redis.NewScript(string(scriptContent))
		if c := (*cmd).Load(ctx, rdb); c.Err() != nil {
			return c.Err()
		}
	}
	return nil
}

func setup(ctx context.Context, rdb redis.UniversalClient) error {
	cmdMapping := map[string]**redis.Script{
		"queue/size.lua":       &sizeCmd,
		"queue/size_fixed.lua": &sizeFixedCmd,
	}
	return loadScripts(ctx, rdb, cmdMapping)
}

// The older form: the constructor ranges over the table itself.
func setupInline() error {
	cmdMapping := map[string]**redis.Script{
		"future.lua":       &futureCmd,
		"future_fixed.lua": &futureFixedCmd,
	}
	for scriptFile, cmd := range cmdMapping {
		scriptContent, err := fs.ReadFile(luaScripts, "scripts/"+scriptFile)
		if err != nil {
			return err
		}
		*cmd = redis.NewScript(string(scriptContent))
	}
	return nil
}

func size(ctx context.Context, rdb redis.UniversalClient, prefix string) ([]interface{}, error) {
	return sizeCmd.Run(ctx, rdb, []string{prefix + "workflows:queues"}).Slice() // want `script sizeCmd line 6: redis.call\("SCARD", sets\[i\]\) touches a key not declared in KEYS`
}

// Fixed: the caller passes the task sets in KEYS, under one hashtag.
func sizeFixed(ctx context.Context, rdb redis.UniversalClient, queues []string) ([]interface{}, error) {
	keys := []string{}
	for _, q := range queues {
		keys = append(keys, "{workflows}:task-set:"+q)
	}
	return sizeFixedCmd.Run(ctx, rdb, keys).Slice()
}

func scheduleFuture(ctx context.Context, rdb redis.UniversalClient, prefix, now string) error {
	return futureCmd.Run(ctx, rdb, []string{prefix + "future-events"}, now, prefix).Err() // want `script futureCmd line 5: redis.call\("HGET", events\[i\], "queue"\) touches a key not declared in KEYS` `script futureCmd line 6: redis.call\("SADD", prefix .. "task-set:" .. queue, events\[i\]\) touches a key not declared in KEYS`
}

// Fixed: the script touches KEYS[1] alone and returns the due events.
func scheduleFutureFixed(ctx context.Context, rdb redis.UniversalClient, prefix, now string) error {
	return futureFixedCmd.Run(ctx, rdb, []string{prefix + "future-events"}, now).Err()
}
