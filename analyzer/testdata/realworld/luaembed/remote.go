package luaembed

import (
	"context"

	"github.com/redis/go-redis/v9"

	"slotlint.test/realworld/luaembed/runner"
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

// scriptRunner is the project's own interface over go-redis; its
// implementation, runner.Redis, is in another package.
type scriptRunner interface {
	RunScript(ctx context.Context, s *redis.Script, keys []string, args ...interface{}) (interface{}, error)
	EvalSource(ctx context.Context, src string, keys []string, args ...interface{}) error
}

type taskService struct {
	r scriptRunner
}

func newTaskService(rdb redis.UniversalClient) *taskService {
	return &taskService{r: runner.New(rdb)}
}

// Origin: vx416/dcard-hw (a RedisScripter interface the service runs its
// scripts through), with asynq's script package: the run through the
// interface forgets the queue set, which the script reads as KEYS[3].
func (t *taskService) enqueue(ctx context.Context, qname, id string) error {
	_, err := t.r.RunScript(ctx, luascripts.EnqueueFixedCmd, []string{"asynq:{" + qname + "}:t:" + id, "asynq:{" + qname + "}:pending"}, "msg", id, qname) // want `script EnqueueFixedCmd line 4: KEYS\[3\] is nil: the call passes 2 keys`
	return err
}

func (t *taskService) enqueueFixed(ctx context.Context, qname, id string) error {
	_, err := t.r.RunScript(ctx, luascripts.EnqueueFixedCmd, []string{"asynq:{" + qname + "}:t:" + id, "asynq:{" + qname + "}:pending", "asynq:{" + qname + "}:queues"}, "msg", id, qname)
	return err
}

func (t *taskService) sendCode(ctx context.Context, phone, code string) error {
	return t.r.EvalSource(ctx, luascripts.LuaSendCodeFixed, []string{"code:" + phone, "code:" + phone + ":cnt"}, code, 600) // want `EVAL \(through EvalSource at runner.go:\d+\) keys "code:<phone>" .* and "code:<phone>:cnt" .* may hash to different slots`
}

func (t *taskService) sendCodeFixed(ctx context.Context, phone, code string) error {
	return t.r.EvalSource(ctx, luascripts.LuaSendCodeFixed, []string{"code:{" + phone + "}", "code:{" + phone + "}:cnt"}, code, 600)
}

// Origin: the matchmaking service's room repository: the script comes
// from the files package's getter, by a constant name.
func addPlayer(ctx context.Context, rdb *redis.ClusterClient, room, player string) error {
	src, err := luascripts.GetLuaScript(luascripts.LuaAddPlayerToRoom)
	if err != nil {
		return err
	}
	return rdb.Eval(ctx, src, []string{"room:" + room + ":players", "room:" + room + ":size"}, player, 4).Err() // want `script add_player.lua: the call passes 2 keys but the script never reads KEYS\[2\]` `EVAL keys "room:<room>:players" .* and "room:<room>:size" .* may hash to different slots`
}

func addPlayerFixed(ctx context.Context, rdb *redis.ClusterClient, room, player string) error {
	src, err := luascripts.GetLuaScript(luascripts.LuaAddPlayerToRoom)
	if err != nil {
		return err
	}
	return rdb.Eval(ctx, src, []string{"room:{" + room + "}:players"}, player, 4).Err()
}

// The same service's stream consumer reads the exported embed.FS itself.
func ackDel(ctx context.Context, rdb *redis.ClusterClient, stream, id string) error {
	src, err := luascripts.RoomScripts.ReadFile("rooms/ack_del.lua")
	if err != nil {
		return err
	}
	return rdb.Eval(ctx, string(src), []string{"stream:{" + stream + "}", "acked:{" + stream + "}"}, "group", id).Err() // want `script .*: the call passes 2 keys but the script never reads KEYS\[2\]`
}

func ackDelFixed(ctx context.Context, rdb *redis.ClusterClient, stream, id string) error {
	src, err := luascripts.RoomScripts.ReadFile("rooms/ack_del.lua")
	if err != nil {
		return err
	}
	return rdb.Eval(ctx, string(src), []string{"stream:{" + stream + "}"}, "group", id).Err()
}
