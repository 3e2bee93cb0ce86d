package luaembed

import (
	"context"

	"github.com/redis/go-redis/v9"

	luascripts "slotlint.test/realworld/luaembed/scripts"
)

// Origin: LXJ0000/go-backend (internal/repository/cache): the code cache
// runs the script of the script package, by its exported string.
func sendCode(ctx context.Context, rdb *redis.ClusterClient, biz, phone, code string) error {
	return rdb.Eval(ctx, luascripts.LuaSendCode, []string{"phone_code:{" + biz + ":" + phone + "}"}, code, 600).Err() // want `script LuaSendCode line 2: .*"code:sent:total".* not declared in KEYS`
}

func sendCodeFixed(ctx context.Context, rdb *redis.ClusterClient, biz, phone, code string) error {
	key := "phone_code:{" + biz + ":" + phone + "}"
	return rdb.Eval(ctx, luascripts.LuaSendCodeFixed, []string{key, key + ":cnt"}, code, 600).Err()
}

// Origin: AsynqLab/asynq (internal/rdb): Enqueue runs script.EnqueueCmd.
func enqueueTask(ctx context.Context, rdb redis.UniversalClient, qname, id string) error {
	keys := []string{"asynq:{" + qname + "}:t:" + id, "asynq:{" + qname + "}:pending"}
	return luascripts.EnqueueCmd.Run(ctx, rdb, keys, "msg", id, qname).Err() // want `script .*line 4: .*"asynq:queues".* not declared in KEYS`
}

func enqueueTaskFixed(ctx context.Context, rdb redis.UniversalClient, qname, id string) error {
	keys := []string{"asynq:{" + qname + "}:t:" + id, "asynq:{" + qname + "}:pending", "asynq:{" + qname + "}:queues"}
	return luascripts.EnqueueFixedCmd.Run(ctx, rdb, keys, "msg", id, qname).Err()
}

// The keys of a run of another package's script still share a slot or not.
func enqueueSplit(ctx context.Context, rdb redis.UniversalClient, qname, id string) error {
	keys := []string{"asynq:t:" + id, "asynq:{" + qname + "}:pending", "asynq:{" + qname + "}:queues"}
	return luascripts.EnqueueFixedCmd.Run(ctx, rdb, keys, "msg", id, qname).Err() // want `EVALSHA keys "asynq:t:<id>" .* and "asynq:\{<qname>\}:pending" .* may hash to different slots`
}
