// Package luaembed holds Lua sources read from files embedded with
// //go:embed, into a string, a []byte and an embed.FS, and scripts kept in
// a map by name. The Lua checks read them as they read a literal.
package luaembed

import (
	"context"
	"embed"
	"io/fs"

	"github.com/redis/go-redis/v9"
)

// Origin: lcsin/go-itools (pkg/lua): lock scripts embedded into strings.
//
//go:embed lua/release.lua
var releaseSrc string

//go:embed lua/release_fixed.lua
var releaseFixedSrc string

var (
	release      = redis.NewScript(releaseSrc)
	releaseFixed = redis.NewScript(releaseFixedSrc)
)

func unlock(ctx context.Context, rdb *redis.ClusterClient, res, token string) {
	release.Run(ctx, rdb, []string{"lock:" + res}, token) // want `script releaseSrc line 3: .*"locks:released".* not declared in KEYS`
}

func unlockFixed(ctx context.Context, rdb *redis.ClusterClient, res, token string) {
	releaseFixed.Run(ctx, rdb, []string{"lock:{" + res + "}", "lock:{" + res + "}:released"}, token)
}

// Origin: a rate limiter embedding its script into a []byte (the shape of
// go-redis/redis_rate's allowN script, read from a file).
//
//go:embed lua/limit.lua
var limitSrc []byte

//go:embed lua/limit_fixed.lua
var limitFixedSrc []byte

func allow(ctx context.Context, rdb *redis.ClusterClient, user string) {
	rdb.Eval(ctx, string(limitSrc), []string{"rate:{" + user + "}"}, 60) // want `script limitSrc line 6: .*"limiter:stats".* not declared in KEYS`
}

func allowFixed(ctx context.Context, rdb *redis.ClusterClient, user string) {
	rdb.Eval(ctx, string(limitFixedSrc), []string{"rate:{" + user + "}", "rate:{" + user + "}:stats"}, 60)
}

// Origin: AsynqLab/asynq (internal/script): every script read from an
// embed.FS by a constant name.
//
//go:embed lua/enqueue.lua lua/dequeue.lua
var scriptsFS embed.FS

func load(name string) *redis.Script {
	b, err := scriptsFS.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return redis.NewScript(string(b))
}

var enqueueCmd = load("lua/enqueue.lua")

func enqueue(ctx context.Context, rdb *redis.ClusterClient, q, id string) {
	enqueueCmd.Run(ctx, rdb, []string{"t:{" + q + "}:" + id, "{" + q + "}:pending"}, "msg", id, q) // want `script .*line 4: .*"queues:all".* not declared in KEYS`
}

// fs.ReadFile of a constant name, then a script whose keys span two
// slots: the run is checked as any EVAL.
func dequeue(ctx context.Context, rdb *redis.ClusterClient, q string) {
	src, _ := fs.ReadFile(scriptsFS, "lua/dequeue.lua")
	rdb.Eval(ctx, string(src), []string{"pending:" + q, "active:" + q}) // want `EVAL keys "pending:<q>" .* and "active:<q>" .* hash to different slots`
}

func dequeueFixed(ctx context.Context, rdb *redis.ClusterClient, q string) {
	src, _ := fs.ReadFile(scriptsFS, "lua/dequeue.lua")
	rdb.Eval(ctx, string(src), []string{"{" + q + "}:pending", "{" + q + "}:active"})
}

// Origin: machinery and bull-like Go queues keep their scripts in a map by
// name.
var scripts = map[string]*redis.Script{
	"release": redis.NewScript(releaseSrc),
	"fixed":   redis.NewScript(releaseFixedSrc),
}

func unlockByName(ctx context.Context, rdb *redis.ClusterClient, res, token string) {
	scripts["release"].Run(ctx, rdb, []string{"lock:{" + res + "}"}, token) // want `script .*line 3: .*"locks:released".* not declared in KEYS`
}

func unlockByNameFixed(ctx context.Context, rdb *redis.ClusterClient, res, token string) {
	scripts["fixed"].Run(ctx, rdb, []string{"lock:{" + res + "}", "lock:{" + res + "}:released"}, token)
}
